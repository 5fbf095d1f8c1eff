import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refreshes an expired token once, however many calls fail with `401` at the same time, and
/// fires each of them again with the new token.
///
/// Put it before ``AuthTokenAction`` (outer), share one instance across the server's calls, and
/// make `refresh` store the new token where the auth action's provider reads it:
///
/// ```swift
/// let refresher = RefreshTokenAction {
///     let reply = try await refreshCall.value(as: TokenReply.self)
///     await tokens.store(reply.token)
/// }
/// api.actions = [refresher, AuthTokenAction { await tokens.current }]
/// ```
///
/// The rules, in order, for a response whose status is in ``statusCodes`` to a request that
/// carried the ``headerName`` header (other responses pass untouched):
/// 1. while a refresh runs, the call waits for it (single flight);
/// 2. a call sent before the last refresh finished takes that refresh's result;
/// 3. a call still presenting the credential whose refresh failed less than
///    `retryFailedRefreshAfter` seconds ago fails with the same error, without refreshing;
/// 4. otherwise a new refresh starts, unless `maxRefreshes` already ran in the last `window`.
///
/// After a successful refresh the call is fired again (whatever its method: the server refused
/// it unread); after a failure it ends with ``NetworkError/unacceptableResponse(_:)`` whose
/// `underlying` is the refresh's error. Calls made inside `refresh` never trigger a refresh.
public actor RefreshTokenAction: NetworkAction {
    /// Statuses that mean "the token expired", `401` by default.
    public let statusCodes: Set<Int>
    /// The header that carries the credential; responses to requests without it are left alone.
    public let headerName: String
    private let maxRefreshes: Int
    private let window: TimeInterval
    private let retryFailedRefreshAfter: TimeInterval
    private let now: @Sendable () -> Date
    private let refresh: @Sendable () async throws -> Void

    private var running: Task<Void, any Error>?
    private var last: (credential: String, finishedAt: Date, error: (any Error)?)?
    private var starts: [Date] = []

    /// An action that runs `refresh` when a call's credential is refused.
    ///
    /// - Parameters:
    ///   - statusCodes: statuses that trigger a refresh.
    ///   - headerName: the credential header the auth action sets.
    ///   - maxRefreshes: how many refreshes may start within `window` seconds; more fail the call.
    ///   - window: the length of the rate-limit window, in seconds.
    ///   - retryFailedRefreshAfter: seconds during which a failed refresh is not tried again for
    ///     the same credential.
    ///   - now: the clock, injectable for tests.
    ///   - refresh: gets and stores a new token; throwing fails every waiting call.
    public init(
        statusCodes: Set<Int> = [401],
        headerName: String = "Authorization",
        maxRefreshes: Int = 3,
        window: TimeInterval = 60,
        retryFailedRefreshAfter: TimeInterval = 10,
        now: @escaping @Sendable () -> Date = Date.init,
        refresh: @escaping @Sendable () async throws -> Void
    ) {
        self.statusCodes = statusCodes
        self.headerName = headerName
        self.maxRefreshes = maxRefreshes
        self.window = window
        self.retryFailedRefreshAfter = retryFailedRefreshAfter
        self.now = now
        self.refresh = refresh
    }

    /// Whether the current task runs inside a refresh; calls fired there are never refreshed.
    @TaskLocal static var isRefreshing = false

    /// Refreshes (or waits for a refresh) on a refused credential, then retries or fails the call.
    public func decide(after outcome: NetworkOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
        guard outcome.error == nil, let status = outcome.statusCode, statusCodes.contains(status),
              let credential = outcome.request?.value(forHTTPHeaderField: headerName),
              !Self.isRefreshing else {
            return .proceed
        }
        let sentAt = now().addingTimeInterval(-(outcome.duration ?? 0))
        let error: (any Error)?
        if let running {
            error = await Self.result(of: running)
        } else if let last, sentAt <= last.finishedAt {
            error = last.error
        } else if let last, let failure = last.error, last.credential == credential,
                  now().timeIntervalSince(last.finishedAt) < retryFailedRefreshAfter {
            error = failure
        } else if let limit = limitReached(outcome) {
            return .fail(limit)
        } else {
            error = await startRefresh(replacing: credential)
        }
        guard let error else { return .retry }
        let reason = "refreshing the access token failed: \((error as? NetworkError)?.description ?? "\(error)")"
        return .fail(.unacceptableResponse(ResponseProblem(reason, outcome: outcome, underlying: error)))
    }

    /// Runs one refresh; every call arriving meanwhile joins it.
    private func startRefresh(replacing credential: String) async -> (any Error)? {
        starts.append(now())
        let refresh = refresh
        let task = Task { try await Self.$isRefreshing.withValue(true) { try await refresh() } }
        running = task
        let error = await Self.result(of: task)
        running = nil
        last = (credential, now(), error)
        return error
    }

    /// The failure to report when `maxRefreshes` already started within `window`, else `nil`.
    private func limitReached(_ outcome: NetworkOutcome) -> NetworkError? {
        let cutoff = now().addingTimeInterval(-window)
        starts.removeAll { $0 < cutoff }
        guard starts.count >= maxRefreshes else { return nil }
        let reason = "the token was already refreshed \(starts.count) times in \(window) s and is still refused, "
            + "so it is not refreshed again; check that the refresh stores the new token where the token provider reads it"
        return .unacceptableResponse(ResponseProblem(reason, outcome: outcome))
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
