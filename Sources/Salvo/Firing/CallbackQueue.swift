import Dispatch

/// Where a call's handlers run.
///
/// Handlers of one firing are delivered in order; use a serial queue to keep that order.
public enum CallbackQueue: Sendable {
    /// The main queue: the default, and what UI code wants.
    case main
    /// A queue of your choice (make it serial to keep handler order).
    case queue(DispatchQueue)
    /// Whatever thread the outcome arrives on: fastest, for code that does its own hopping.
    case immediate

    func run(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .main: DispatchQueue.main.async(execute: work)
        case .queue(let queue): queue.async(execute: work)
        case .immediate: work()
        }
    }

    /// Calls `handler` with `argument` here; on `.immediate` without wrapping it in a new closure.
    func run<Argument: Sendable>(_ handler: @escaping @Sendable (Argument) -> Void, with argument: Argument) {
        if case .immediate = self {
            handler(argument)
        } else {
            run { handler(argument) }
        }
    }
}
