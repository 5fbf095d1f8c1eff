import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step that runs around every firing of a call: production, mock and replay alike.
///
/// Actions come from the server (``ServerConfig/actions``) then the call (``NetCall/actions``), and
/// run in that order on both sides:
/// - **before** each attempt, ``prepare(_:for:)`` adapts the request; each action receives the
///   previous one's output. Throwing fails the call with that error and nothing is sent.
/// - **after** each attempt, ``decide(after:for:attempt:)`` sees the outcome and returns a decision.
///   `.proceed` passes it to the next action; `.fail` replaces the outcome's error and goes on;
///   `.retry` and `.retryAfter` stop the chain and fire again, running every `prepare` again so a
///   refreshed token is picked up.
///
/// Both sides default to doing nothing, so an action implements only what it needs.
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
    func decide(after outcome: NetworkOutcome, for call: NetCall, attempt: Int) async -> ActionDecision
}

extension NetworkAction {
    /// Sends the request unchanged.
    public func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest { request }

    /// Lets the outcome through.
    public func decide(after outcome: NetworkOutcome, for call: NetCall, attempt: Int) async -> ActionDecision { .proceed }
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
