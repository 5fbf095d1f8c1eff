import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Salvo

/// One handler call, as a comparable value.
enum HandlerEvent: Equatable, Sendable, CustomStringConvertible {
    case task
    case response(hasResponse: Bool)
    case httpResponse(status: Int)
    case data(Data)
    case error(String)
    case serverError(status: Int)
    case errorData(Data?)

    var description: String {
        switch self {
        case .task: return "task"
        case .response(let has): return has ? "response" : "response(nil)"
        case .httpResponse(let status): return "httpResponse(\(status))"
        case .data(let data): return "data(\(data.count)B)"
        case .error(let kind): return "error(\(kind))"
        case .serverError(let status): return "serverError(\(status))"
        case .errorData(let data): return data.map { "errorData(\($0.count)B)" } ?? "errorData(nil)"
        }
    }

    /// The outcome's last handler: after it no other handler may run for this firing.
    /// (`errorData` ends a transport failure but comes before `serverError` on a status failure.)
    func isTerminal(after previous: HandlerEvent?) -> Bool {
        switch self {
        case .data, .serverError: return true
        case .errorData: if case .error = previous { return true } else { return false }
        default: return false
        }
    }
}

/// Records every handler a responder receives and lets a test await the end of the outcome.
final class HandlerRecorder: Sendable {
    private let state = Locked<(events: [HandlerEvent], done: Bool)>(([], false))

    var events: [HandlerEvent] { state.withLock { $0.events } }

    /// How many outcomes were delivered: must be exactly 1 per firing.
    var outcomeCount: Int {
        let events = events
        return events.indices.filter { events[$0].isTerminal(after: $0 > 0 ? events[$0 - 1] : nil) }.count
    }

    var responder: NetworkResponder {
        NetworkResponder(
            taskHandler: { _ in self.record(.task) },
            responseHandler: { self.record(.response(hasResponse: $0 != nil)) },
            httpResponseHandler: { self.record(.httpResponse(status: $0.statusCode)) },
            dataHandler: { self.record(.data($0)) },
            errorHandler: { self.record(.error(Self.kind(of: $0))) },
            serverErrorHandler: { self.record(.serverError(status: $0.statusCode ?? -1)) },
            errorDataHandler: { self.record(.errorData($0)) }
        )
    }

    /// Waits until the terminal handler ran, or `seconds` passed.
    func waitForOutcome(seconds: Double = 10) async {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if state.withLock({ $0.done }) { return }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    private func record(_ event: HandlerEvent) {
        state.withLock { state in
            if event.isTerminal(after: state.events.last) { state.done = true }
            state.events.append(event)
        }
    }

    static func kind(of error: NetworkError) -> String {
        switch error {
        case .invalidRequest(let problem): return "invalid.\(problem.part.rawValue)"
        case .refusedByAction: return "refusedByAction"
        case .incompleteSetup(let problem): return "setup.\(problem.part.rawValue)"
        case .transport(let urlError): return "transport.\(urlError.code.rawValue)"
        case .serverStatus(let problem): return "status.\(problem.statusCode.map(String.init) ?? "-")"
        case .decoding: return "decoding"
        case .unacceptableResponse: return "unacceptable"
        case .cancelled: return "cancelled"
        }
    }
}

extension NetCall {
    /// A call to `host` with the recorder's responder, immediate callbacks, and `session` firing.
    static func test(_ endpoint: Endpoint, server: ServerConfig = ServerConfig(host: "api.example.com"), session: any NetworkSession, recorder: HandlerRecorder) -> NetCall {
        NetCall(server: server, endpoint: endpoint, responder: recorder.responder, callbackQueue: .immediate, firingFunction: .session(session))
    }
}
