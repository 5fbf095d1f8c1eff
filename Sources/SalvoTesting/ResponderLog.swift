import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

/// Records every handler a call's responder receives, in order, and lets a test await the end.
///
/// ```swift
/// let log = ResponderLog()
/// call.responder = log.responder
/// call.fire()
/// #expect(await log.waitForOutcome() == [.task, .response, .httpResponse(status: 204), .data(Data())])
/// ```
public final class ResponderLog: Sendable {
    private let state = Locked<(events: [ResponderEvent], isFinished: Bool)>(([], false))
    private let waiters = Waiters()

    /// An empty log.
    public init() {}

    /// The events so far, in order.
    public var events: [ResponderEvent] { state.withLock { $0.events } }

    /// Whether the last handler of an outcome has run.
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// How many outcomes the responder received: exactly one for each firing, however it ended.
    public var outcomeCount: Int {
        let events = events
        return events.indices.filter { events[$0].isTerminal(after: $0 > 0 ? events[$0 - 1] : nil) }.count
    }

    /// A responder that records into this log.
    public var responder: NetworkResponder {
        NetworkResponder(
            taskHandler: { _ in self.record(.task) },
            responseHandler: { self.record($0 == nil ? .noResponse : .response) },
            httpResponseHandler: { self.record(.httpResponse(status: $0.statusCode)) },
            dataHandler: { self.record(.data($0)) },
            errorHandler: { self.record(.error($0)) },
            serverErrorHandler: { self.record(.serverError(status: $0.statusCode ?? -1)) },
            errorDataHandler: { self.record(.errorData($0)) }
        )
    }

    #if canImport(Testing)
    /// Waits until the outcome's last handler ran and returns every event; records a test issue
    /// at the caller's line when `timeout` seconds pass first.
    public func waitForOutcome(timeout: TimeInterval = 30, sourceLocation: SourceLocation = #_sourceLocation) async -> [ResponderEvent] {
        if await !waiters.wait(timeout: timeout, until: { self.isFinished }) {
            Issue.record("the call did not finish within \(timeout) s; handlers so far: \(events)", sourceLocation: sourceLocation)
        }
        return events
    }
    #else
    /// Waits until the outcome's last handler ran (or `timeout` seconds pass) and returns every event.
    public func waitForOutcome(timeout: TimeInterval = 30) async -> [ResponderEvent] {
        _ = await waiters.wait(timeout: timeout, until: { self.isFinished })
        return events
    }
    #endif

    private func record(_ event: ResponderEvent) {
        state.withLock { state in
            if event.isTerminal(after: state.events.last) { state.isFinished = true }
            state.events.append(event)
        }
        waiters.signal()
    }
}

extension NetCall {
    #if canImport(Testing)
    /// Fires the call with its handlers on the firing thread and returns every handler event.
    ///
    /// The call's own responder still runs first. Records a test issue when the call does not
    /// finish within `timeout` seconds.
    ///
    /// ```swift
    /// call.firingFunction = .mock(.status(500))
    /// #expect(await call.fireAndRecord().last == .serverError(status: 500))
    /// ```
    public func fireAndRecord(timeout: TimeInterval = 30, sourceLocation: SourceLocation = #_sourceLocation) async -> [ResponderEvent] {
        let log = ResponderLog()
        recording(into: log).fire()
        return await log.waitForOutcome(timeout: timeout, sourceLocation: sourceLocation)
    }
    #else
    /// Fires the call with its handlers on the firing thread and returns every handler event.
    public func fireAndRecord(timeout: TimeInterval = 30) async -> [ResponderEvent] {
        let log = ResponderLog()
        recording(into: log).fire()
        return await log.waitForOutcome(timeout: timeout)
    }
    #endif

    private func recording(into log: ResponderLog) -> NetCall {
        var call = self
        call.responder.append(log.responder)
        call.callbackQueue = .immediate
        return call
    }
}
