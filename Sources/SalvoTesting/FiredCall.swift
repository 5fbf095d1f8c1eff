import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A call a ``FiringSpy`` saw fired.
public struct FiredCall: Sendable, CustomStringConvertible {
    /// The call as fired.
    public let call: NetCall
    /// The request the call builds, before actions adapt it; `nil` when it cannot be built.
    public let request: URLRequest?

    /// A fired call and its built request.
    public init(call: NetCall, request: URLRequest?) {
        self.call = call
        self.request = request
    }

    /// The server the call went to.
    public var server: ServerConfig { call.server }
    /// The endpoint the call asked for.
    public var endpoint: Endpoint { call.endpoint }
    /// The built request's URL.
    public var url: URL? { request?.url }

    /// `"GET https://api.example.com/users/42"`.
    public var description: String {
        "\(endpoint.method) \(url?.absoluteString ?? endpoint.path.description)"
    }
}
