import Foundation
@_spi(Transport) @testable import Salvo

/// The states `pager` publishes while `work` runs, each seen with no load in flight and reduced by
/// `view` (the items shown, where they came from…), in order.
func loadedStates<Item: Sendable, View: Sendable>(
    of pager: Pager<Item>,
    _ view: @escaping @Sendable (PagingState<Item>) -> View,
    during work: () async -> Void
) async -> [View] {
    let seen = Locked<[View]>([])
    let observation = pager.observe { state in
        if !state.isLoading { seen.withLock { $0.append(view(state)) } }
    }
    await work()
    await mainQueueDrained()
    observation.cancel()
    return seen.withLock { $0 }
}

/// Returns once the main queue has run everything queued on it before this call: the main-actor
/// observers' deliveries so far.
func mainQueueDrained() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}
