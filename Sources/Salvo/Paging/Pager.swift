import Foundation

/// Drives a paginated, refreshable list from one ``NetCall``.
///
/// Every page is the pager's call with the page's query set by the ``PagingStrategy``, fired
/// through the call's ``NetCall/firingFunction``: production, mock and replay firing all work
/// unchanged. The call's responder and callback queue are not used; the pager keeps the outcome
/// in its ``state``.
///
/// The pager is safe to use from any thread and from `@MainActor` code. Its async methods return
/// when the load is over, so a command-line program with no run loop can drive it too.
///
/// ```swift
/// let pager = Pager(call: booksCall, strategy: .pageNumber(pageSize: 20),
///                   decoder: .object(itemsKey: "items"), id: \Book.id)
/// await pager.loadNextPage()          // page 1
/// await pager.loadNextPage()          // page 2, appended
/// await pager.refresh()               // page 1 again, replacing the items when it arrives
/// print(pager.items.count, pager.hasMore)
/// ```
@dynamicMemberLookup
public final class Pager<Item: Sendable>: Sendable {
    /// The call every page is made from.
    public let call: NetCall
    /// How pages are requested and how the end is found.
    public let strategy: PagingStrategy
    /// How a response becomes a page of items.
    public let decoder: PageDecoder<Item>

    let identify: Identify?
    let loader = Loader<Core, PageLoad>(Core())
    /// Whether the pager said that a first page lacks what its strategy reads (said once).
    let hasLoggedMissingKey = Locked(false)
    /// The typed handlers of the typed call the pager was made from, handed each page's outcome
    /// after it landed; `nil` for an untyped call. Set once, by the typed initializers.
    let typedHandlers = Locked<(@Sendable (Result<NetworkResponse, NetworkError>) -> Void)?>(nil)

    /// A pager that keeps every item the pages bring, duplicates included.
    ///
    /// - Parameters:
    ///   - call: the list's call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - decoder: how a response becomes a page.
    public init(call: NetCall, strategy: PagingStrategy, decoder: PageDecoder<Item>) {
        self.call = call
        self.strategy = strategy
        self.decoder = decoder
        self.identify = nil
    }

    /// A pager that drops an item whose `id` an earlier item already has, so pages that overlap
    /// (an item inserted on the server between two pages shifts the next page) show each item once.
    ///
    /// - Parameters:
    ///   - call: the list's call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - decoder: how a response becomes a page.
    ///   - id: the key path of an item's identity, e.g. `\Book.id`.
    public init<ID: Hashable & Sendable>(
        call: NetCall,
        strategy: PagingStrategy,
        decoder: PageDecoder<Item>,
        id: any KeyPath<Item, ID> & Sendable
    ) {
        self.call = call
        self.strategy = strategy
        self.decoder = decoder
        self.identify = .anywhere { item in AnyHashable(item[keyPath: id]) }
    }

    /// A pager that drops an item whose `id` an earlier item already has, for a model isolated to
    /// the main actor (a plain model of an app target with main-actor default isolation), whose
    /// key paths are not `Sendable`: made on the main actor, it reads identities there, and lands
    /// each page there.
    ///
    /// - Parameters:
    ///   - call: the list's call; its query is the base every page's query is set on.
    ///   - strategy: how pages are requested.
    ///   - decoder: how a response becomes a page.
    ///   - id: the key path of an item's identity, e.g. `\Book.id`.
    @MainActor
    public init<ID: Hashable & Sendable>(
        call: NetCall,
        strategy: PagingStrategy,
        decoder: PageDecoder<Item>,
        id: KeyPath<Item, ID>
    ) {
        self.call = call
        self.strategy = strategy
        self.decoder = decoder
        self.identify = .onMainActor { item in item[keyPath: id] }
    }

    /// What tells items apart, and where that may be read.
    enum Identify: Sendable {
        case anywhere(@Sendable (Item) -> AnyHashable)
        /// Made on the main actor from a key path isolated to it; read only there.
        case onMainActor(@MainActor @Sendable (Item) -> any Hashable & Sendable)

        /// Whether it may be read only on the main actor.
        var isOnMainActor: Bool {
            if case .onMainActor = self { return true }
            return false
        }

        /// `item`'s identity; for a main-actor key path, only on the main thread, where every
        /// page of such a pager lands.
        func callAsFunction(_ item: Item) -> AnyHashable {
            switch self {
            case .anywhere(let identify):
                return identify(item)
            case .onMainActor(let identify):
                let id: any Hashable = MainActor.assumeIsolated { identify(item) }
                return AnyHashable(id)
            }
        }
    }

    /// The current state: items, loading flags, whether more pages exist, the last error.
    public var state: PagingState<Item> { loader.state }

    /// The current state's properties, read through: `items`, `isLoading`, `hasMore`,
    /// `pageCount`, `cacheStatus` (see ``PagingState``).
    ///
    /// ```swift
    /// if pager.items.isEmpty && pager.isLoading { showSpinner() }
    /// ```
    ///
    /// Each read takes a fresh snapshot; read ``state`` once to see several properties of one moment.
    public subscript<Property>(dynamicMember keyPath: KeyPath<PagingState<Item>, Property>) -> Property {
        state[keyPath: keyPath]
    }

    /// Whether a refresh is in flight; stated, not read through, because ``Refreshable`` asks for it.
    public var isRefreshing: Bool { state.isRefreshing }

    /// The error of the last failed load; `nil` once a load succeeds. Stated for ``Refreshable``.
    public var error: NetworkError? { state.error }
}

extension Pager {
    /// The pager's mutable state, guarded by ``loader``.
    struct Core: LoaderCore {
        /// Where the next page comes from.
        enum Position {
            /// Nothing loaded yet: the next page is the strategy's first page.
            case start
            /// The call for the next page.
            case next(NetCall)
            /// The strategy found the end of the list.
            case end
        }

        var state = PagingState<Item>()
        var position = Position.start
        /// Pages and raw items (duplicates included) loaded since the last refresh.
        var pageIndex = 0
        var itemsFetched = 0
        var seenIDs: Set<AnyHashable> = []
        /// What the last load that failed was doing; `nil` after a success.
        var lastFailure: PageLoad.Kind?
        /// Whether a page came through a cache (it had a ``CacheStatus``): a refresh then asks the
        /// cache to revalidate (`Cache-Control: no-cache`) rather than answer from the store.
        var isCached = false

        mutating func loadDidEnd() {
            state.isLoading = false
            state.isRefreshing = false
        }
    }

    /// Which page a load fetches, and why.
    struct PageLoad {
        enum Kind {
            case nextPage
            case refresh
            /// The first page as the cache stored it, however old, without asking the server.
            case storedFirstPage
        }

        let kind: Kind
        let call: NetCall
        let index: Int
        let itemsBefore: Int
    }
}
