import Foundation
import NIOHTTP1
@_spi(Transport) import Salvo

extension ResponseHead {
    /// The head NIO parsed, for a request to `url`, its fields as sent: nothing is joined,
    /// compared or turned into an `HTTPURLResponse` until somebody reads it.
    init(_ head: HTTPResponseHead, url: URL) {
        self.init(statusCode: Int(head.status.code), fields: head.headers.map { Salvo.HTTPHeaders.Field(name: $0.name, value: $0.value) }, url: url)
    }
}
