import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Passes an unsafe request's exchange on untouched and, when it succeeds (a 2xx or 3xx), first
/// removes the stored responses of its URL and of the same-origin `Location` and
/// `Content-Location` it names, for every user (RFC 9111 §4.4).
final class InvalidatingReceiver: ResponseReceiver {
    private let receiver: any ResponseReceiver
    private let cache: HTTPCache
    private let requestURL: URL?
    private let head = Locked<ResponseHead?>(nil)

    init(passingTo receiver: any ResponseReceiver, cache: HTTPCache, requestURL: URL?) {
        self.receiver = receiver
        self.cache = cache
        self.requestURL = requestURL
    }

    func receive(_ head: ResponseHead) {
        self.head.withLock { $0 = head }
        receiver.receive(head)
    }

    func receive(_ chunk: Data) { receiver.receive(chunk) }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) { receiver.didSend(bytesSent, of: bytesExpected) }

    func finish(_ error: (any Error)?) {
        if error == nil, let head = head.withLock({ $0 }), (200..<400).contains(head.statusCode), let requestURL {
            cache.removeEntries(for: requestURL)
            for name in ["Location", "Content-Location"] {
                guard let value = head.value(forField: name), let target = URL(string: value, relativeTo: requestURL)?.absoluteURL,
                      target.scheme == requestURL.scheme, target.host == requestURL.host, target.port == requestURL.port else { continue }
                cache.removeEntries(for: target)
            }
        }
        receiver.finish(error)
    }
}
