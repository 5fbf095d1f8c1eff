import Foundation

/// Where the outcome of one send goes: the task itself, or the attempt loop of a call with actions.
///
/// An enum rather than a closure, so sending allocates one closure (the session's completion) and
/// not a second one to forward it; both cases hold one object, so copying it is one retain.
enum OutcomeReceiver: Sendable {
    /// The only attempt: finish the task with it.
    case task(NetworkTask)
    /// One attempt of several: resume the attempt loop.
    case attempt(AttemptResumer)

    func receive(_ outcome: NetworkOutcome) {
        switch self {
        case .task(let task): task.finish(with: outcome)
        case .attempt(let resumer): resumer.resume(with: outcome)
        }
    }
}

/// Resumes the attempt loop of a call with actions, with the time the attempt took.
final class AttemptResumer: Sendable {
    private let continuation: CheckedContinuation<NetworkOutcome, Never>
    private let start = DispatchTime.now()

    init(_ continuation: CheckedContinuation<NetworkOutcome, Never>) {
        self.continuation = continuation
    }

    /// Timed here only: the duration is for actions (logging, token refresh), and only actions see outcomes.
    func resume(with outcome: NetworkOutcome) {
        var timed = outcome
        timed.duration = TimeInterval(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000_000
        continuation.resume(returning: timed)
    }
}
