import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Renews an expired token once, however many calls fail with `401` at the same time, and
/// fires each of them again with the new token.
///
/// Renewing is whatever gets a new access token: an OAuth refresh-token grant, signing in again.
/// Salvo says *renew* for tokens and keeps *refresh* for reloading content (``Refresher``,
/// ``Pager/refresh()``).
///
/// Put it before ``AuthTokenAction`` (outer), share one instance across the server's calls, and
/// make `renew` store the new token where the auth action's provider reads it:
///
/// ```swift
/// let renewal = TokenRenewalAction {
///     let reply = try await renewalCall.value(as: TokenReply.self)
///     await tokens.store(reply.token)
/// }
/// api.actions = [renewal, AuthTokenAction { await tokens.current }]
/// ```
///
/// The rules, in order, for a response whose status is in its `statusCodes` to a request that
/// carried its `headerName` header (other responses pass untouched):
/// 1. while a renewal runs, the call waits for it (single flight);
/// 2. a call sent before the last renewal finished takes that renewal's result, and so does a
///    call that presents, on its first attempt, the credential that renewal replaced (it read
///    the token before the renewal ended and sent it after);
/// 3. a call still presenting the credential whose renewal failed less than
///    `retryFailedRenewalAfter` seconds ago fails with the same error, without renewing;
/// 4. otherwise a new renewal starts, unless `maxRenewals` already ran in the last `window`.
///
/// After a successful renewal the call is fired again (whatever its method: the server refused
/// it unread); after a failure it ends with ``NetworkError/unacceptableResponse(_:)``, for which
/// ``NetworkError/isRenewalFailure`` is true and ``NetworkError/renewalError`` is the renewal's
/// error (its status and body; a typed call decodes that body as its error body). Calls made
/// inside `renew` never trigger a renewal.
///
/// ```swift
/// catch let error where error.isRenewalFailure { await session.signOut() }
/// ```
public actor TokenRenewalAction: NetworkAction {
    /// Statuses that mean "the token expired", `401` by default.
    let statusCodes: Set<Int>
    /// The header that carries the credential; responses to requests without it are left alone.
    let headerName: String
    private let maxRenewals: Int
    private let window: TimeInterval
    private let retryFailedRenewalAfter: TimeInterval
    private let now: @Sendable () -> Date
    private let renew: @Sendable () async throws -> Void

    private var running: Task<Void, any Error>?
    private var last: (credential: String, finishedAt: Date, error: (any Error)?)?
    private var starts: [Date] = []

    /// An action that runs `renew` when a call's credential is refused.
    ///
    /// - Parameters:
    ///   - statusCodes: statuses that trigger a renewal.
    ///   - headerName: the credential header the auth action sets.
    ///   - maxRenewals: how many renewals may start within `window` seconds; more fail the call.
    ///   - window: the length of the rate-limit window, in seconds.
    ///   - retryFailedRenewalAfter: seconds during which a failed renewal is not tried again for
    ///     the same credential.
    ///   - now: the clock, injectable for tests.
    ///   - renew: gets and stores a new token; throwing fails every waiting call. It runs in the
    ///     isolation of the code that makes the action (on the main actor in an app target with
    ///     main-actor default isolation, where it may decode the app's plain `Codable` models).
    public init(
        statusCodes: Set<Int> = [401],
        headerName: String = "Authorization",
        maxRenewals: Int = 3,
        window: TimeInterval = 60,
        retryFailedRenewalAfter: TimeInterval = 10,
        now: @escaping @Sendable () -> Date = Date.init,
        @_inheritActorContext renew: @escaping @Sendable () async throws -> Void
    ) {
        self.statusCodes = statusCodes
        self.headerName = headerName
        self.maxRenewals = maxRenewals
        self.window = window
        self.retryFailedRenewalAfter = retryFailedRenewalAfter
        self.now = now
        self.renew = renew
    }

    /// Whether the current task runs inside a renewal; calls fired there never start one.
    @TaskLocal static var isRenewing = false

    /// Renews (or waits for a renewal) on a refused credential, then retries or fails the call.
    public func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard outcome.error == nil, let status = outcome.statusCode, statusCodes.contains(status),
              let credential = outcome.request?.value(forHTTPHeaderField: headerName),
              !Self.isRenewing else {
            return .proceed
        }
        let sentAt = now().addingTimeInterval(-(outcome.duration ?? 0))
        let error: (any Error)?
        if let running {
            error = await Self.result(of: running)
        } else if let last, sentAt <= last.finishedAt {
            error = last.error
        } else if let last, last.error == nil, last.credential == credential, attempt == 1 {
            // Read before the renewal ended, sent after it (prepare and send can be far apart
            // under load): the new token is there now. Only once, so a renewal that stores the
            // same token again still meets the limit below.
            error = nil
        } else if let last, let failure = last.error, last.credential == credential,
                  now().timeIntervalSince(last.finishedAt) < retryFailedRenewalAfter {
            error = failure
        } else if let limit = limitReached(outcome) {
            return .fail(limit)
        } else {
            error = await startRenewal(replacing: credential)
        }
        guard let error else { return .retry }
        // The description adds the renewal's error as its cause; the reason does not repeat it.
        return .fail(Self.renewalFailure("renewing the access token failed", outcome: outcome, underlying: error))
    }

    /// The failure of a call whose token could not be renewed, marked so that
    /// ``NetworkError/isRenewalFailure`` finds it.
    private static func renewalFailure(_ reason: String, outcome: AttemptOutcome, underlying: (any Error)?) -> NetworkError {
        var problem = ResponseProblem(reason, outcome: outcome, underlying: underlying)
        problem.isRenewalFailure = true
        return .unacceptableResponse(problem)
    }

    /// Runs one renewal; every call arriving meanwhile joins it.
    private func startRenewal(replacing credential: String) async -> (any Error)? {
        starts.append(now())
        let renew = renew
        let task = Task { try await Self.$isRenewing.withValue(true) { try await renew() } }
        running = task
        let error = await Self.result(of: task)
        running = nil
        last = (credential, now(), error)
        return error
    }

    /// The failure to report when `maxRenewals` already started within `window`, else `nil`.
    private func limitReached(_ outcome: AttemptOutcome) -> NetworkError? {
        let cutoff = now().addingTimeInterval(-window)
        starts.removeAll { $0 < cutoff }
        guard starts.count >= maxRenewals else { return nil }
        let reason = "the token was already renewed \(starts.count) times in \(window) s and is still refused, "
            + "so it is not renewed again; check that the renewal stores the new token where the token provider reads it"
        return Self.renewalFailure(reason, outcome: outcome, underlying: nil)
    }

    private static func result(of task: Task<Void, any Error>) async -> (any Error)? {
        do {
            try await task.value
            return nil
        } catch {
            return error
        }
    }
}
