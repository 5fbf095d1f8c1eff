import Foundation

/// Marks the main queue, so that code can tell it runs there: on Linux, work queued on
/// `DispatchQueue.main` may run on a thread for which `Thread.isMainThread` is false, yet that
/// queue is the main actor's executor (Docs/Linux.md).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main actor: the main thread, or the main queue wherever it runs.
func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Runs `work` on the main actor: in place when already there (the main queue, where handlers
/// run by default), otherwise handed to the main queue, which keeps handlers in order.
func runOnMainActor(_ work: @escaping @MainActor @Sendable () -> Void) {
    if isOnMainActor() {
        MainActor.assumeIsolated { work() }
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
    }
}
