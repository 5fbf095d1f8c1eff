import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step that runs around every firing of a call: production, mock and replay alike.
///
/// The chain is the server's actions (``ServerConfig/actions``) followed by the call's
/// (``NetCall/actions``). Like middleware, it is an onion: the first action is the outermost,
/// the last is closest to the wire.
/// - **before** each attempt, ``prepare(_:for:)`` runs first to last; each action receives the
///   previous one's output. Throwing fails the call with that error and nothing is sent.
/// - **after** each attempt, ``decide(after:for:attempt:)`` runs last to first. `.proceed` passes
///   the outcome outwards; `.fail` replaces the outcome's error and goes on; `.retry` and
///   `.retryAfter` stop the chain and fire again, running every `prepare` again so a refreshed
///   token is picked up.
///
/// So the last action (put logging there) sees the request exactly as sent and every attempt's
/// response, and an outer action (put retry there) decides after the inner ones have spoken.
///
/// Each action runs once per attempt: an instance of a class or actor listed both on the server
/// and on the call keeps only its first (server) position. Value types cannot be told apart, so a
/// struct listed twice runs twice.
///
/// Both sides default to doing nothing, so an action implements only what it needs. An action
/// that has nothing to do for a call (a logger whose level is off, a metrics action with no backend)
/// says so in ``isActive(for:)`` and is left out of that firing: a call whose actions are all
/// inactive fires on the synchronous path, as a call without actions does.
///
/// ```swift
/// struct UserAgent: NetworkAction {
///     func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
///         var request = request
///         request.setValue("Salvo/0.1", forHTTPHeaderField: "User-Agent")
///         return request
///     }
/// }
/// ```
public protocol NetworkAction: Sendable {
    /// Adapts the request before it is sent; throw to fail the call with a clear error.
    func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest

    /// Looks at what one attempt produced and decides what happens next.
    ///
    /// - Parameters:
    ///   - outcome: the attempt's request, response, body or error.
    ///   - call: the call being fired.
    ///   - attempt: 1 for the first attempt, 2 for the first retry, and so on.
    func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision

    /// Whether the action takes part in firing `call`; asked once per firing, before anything is sent.
    ///
    /// Return `false` only when neither ``prepare(_:for:)`` nor ``decide(after:for:attempt:)``
    /// would do anything: an inactive action is skipped for every attempt of that firing.
    func isActive(for call: NetCall) -> Bool
}

extension NetworkAction {
    /// Sends the request unchanged.
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest { request }

    /// Lets the outcome through.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision { .proceed }

    /// Takes part in every firing.
    public func isActive(for call: NetCall) -> Bool { true }
}

/// What an action wants after an attempt.
public enum ActionDecision: Sendable {
    /// Keep the outcome (the next action decides, then the responder receives it).
    case proceed
    /// Fire the call again now.
    case retry
    /// Fire the call again after a delay in seconds (cancelling the call cancels the wait).
    case retryAfter(TimeInterval)
    /// Fail the call with this error instead.
    case fail(NetworkError)
}

extension Array where Element == any NetworkAction {
    /// The actions that take part in firing `call`, with each class or actor instance kept only at
    /// its first position, so an action listed on both the server and the call runs once per attempt.
    func active(for call: NetCall) -> [any NetworkAction] {
        var seen = Set<ObjectIdentifier>()
        return filter { action in
            guard action.isActive(for: call) else { return false }
            guard type(of: action) is AnyObject.Type else { return true }
            return seen.insert(ObjectIdentifier(action as AnyObject)).inserted
        }
    }
}
