import Foundation
@_spi(Transport) @testable import Salvo

/// The states `pager` publishes while `work` runs, each seen with no load in flight and reduced by
/// `view` (the items shown, where they came from…), in order.
func loadedStates<Item: Sendable, View: Sendable>(
    of pager: Pager<Item>,
    _ view: @escaping @Sendable (PagingState<Item>) -> View,
    during work: () async -> Void
) async -> [View] {
    let queue = DispatchQueue(label: "loadedStates")
    let seen = Locked<[View]>([])
    let observation = pager.observe(on: queue) { state in
        if !state.isLoading { seen.withLock { $0.append(view(state)) } }
    }
    await work()
    queue.sync {}
    observation.cancel()
    return seen.withLock { $0 }
}
