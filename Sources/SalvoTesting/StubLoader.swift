import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// What one ``URLProtocolStub`` answers with, and the requests it saw.
final class StubState: Sendable {
    let mock: MockSession
    private let seen = Locked<[URLRequest]>([])

    init(mock: MockSession) {
        self.mock = mock
    }

    var requests: [URLRequest] { seen.withLock { $0 } }

    func record(_ request: URLRequest) {
        seen.withLock { $0.append(request) }
    }
}

/// The `URLProtocol` a stub's session loads through: finds the stub by the task's tag and
/// answers with its mock session (same latency, failure and cancellation behaviour as mock firing).
final class StubLoader: URLProtocol {
    private static let registry = Locked<[String: StubState]>([:])
    private let loading = Locked<(task: (any NetworkSessionTask)?, client: ClientHandle?)>((nil, nil))

    static func register(_ state: StubState, for key: String) {
        registry.withLock { $0[key] = state }
    }

    static func unregister(_ key: String) {
        _ = registry.withLock { $0.removeValue(forKey: key) }
    }

    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let client = ClientHandle(protocol: self)
        guard let key = task?.taskDescription, let state = Self.registry.withLock({ $0[key] }) else {
            let reason = "this task has no URLProtocolStub: fire through stub.session or stub.firingFunction, or make tasks with stub.dataTask(with:)"
            client.finish(nil, nil, URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: reason]))
            return
        }
        let request = Self.withBody(request)
        state.record(request)
        let started = state.mock.start(request) { data, response, error in
            client.finish(data, response, error)
        }
        loading.withLock { $0 = (started, client) }
    }

    /// Cancels the mock answer; the client hears nothing after this, as URLProtocol requires.
    override func stopLoading() {
        let (task, client) = loading.withLock { $0 }
        client?.detach()
        task?.cancel()
    }

    /// `request` with its body in `httpBody`: Apple's URLSession hands protocols a body stream.
    private static func withBody(_ request: URLRequest) -> URLRequest {
        guard request.httpBody == nil, let stream = request.httpBodyStream else { return request }
        var copy = request
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            body.append(buffer, count: count)
        }
        copy.httpBodyStream = nil
        copy.httpBody = body
        return copy
    }
}

/// Reports one answer to the protocol's client, at most once.
///
/// `URLProtocol` is not `Sendable`, yet its client must be told from whatever thread the mock
/// answers on (Foundation allows that); this box is the one place the protocol crosses threads.
/// The protocol is only reached under the lock, and taken out by the one answer that uses it.
private final class ClientHandle: Sendable {
    private let target: Locked<URLProtocol?>

    init(protocol: URLProtocol) {
        target = Locked(`protocol`)
    }

    /// Drops the protocol so later answers go nowhere.
    func detach() {
        target.withLock { $0 = nil }
    }

    func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let target = target.withLock { target in
            defer { target = nil }
            return target
        }
        guard let target, let client = target.client else { return }
        if let response, error == nil {
            client.urlProtocol(target, didReceive: response, cacheStoragePolicy: .notAllowed)
            if let data, !data.isEmpty { client.urlProtocol(target, didLoad: data) }
            client.urlProtocolDidFinishLoading(target)
        } else {
            client.urlProtocol(target, didFailWithError: error ?? URLError(.unknown))
        }
    }
}
