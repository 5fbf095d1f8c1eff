extension Pager {
    /// Loads the next page (the first one if nothing is loaded yet) and appends its items;
    /// returns when it has landed or failed.
    ///
    /// While a load is in flight this starts nothing and waits for that load instead, so any
    /// number of concurrent calls fetch each page exactly once. Once the list is exhausted it
    /// returns at once. After a failure, calling it again retries the page that failed.
    /// Cancelling the awaiting task does not cancel the load; ``cancel()`` does.
    public func loadNextPage() async {
        await withCheckedContinuation { start(.nextPage, waiter: $0) }
    }

    /// Starts loading the next page without waiting: ``loadNextPageIfNeeded(currentIndex:distance:)``
    /// once it decided to.
    func startLoadingNextPage() {
        start(.nextPage, waiter: nil)
    }

    /// Loads the first page again; when it arrives its items **replace** the list. Returns when
    /// it has landed or failed.
    ///
    /// The old items stay visible until then, and stay if the refresh fails. A next-page load in
    /// flight is cancelled and its late result discarded; a refresh in flight is joined, not repeated.
    public func refresh() async {
        await withCheckedContinuation { start(.refresh, waiter: $0) }
    }

    /// Shows the first page the cache stored at once, however old, then refreshes it: the stored
    /// items stay visible until the server answers, and are replaced by its answer. Returns when
    /// the refresh has landed or failed.
    ///
    /// For a pager whose call fires through a cache (``FiringFunction/caching(in:policy:through:clock:)``):
    /// the stored page is asked for with `Cache-Control: only-if-cached, max-stale`, so the
    /// server is not contacted for it; ``PagingState/cacheStatus`` says how old it is. With
    /// nothing stored, or items already loaded, only the refresh runs. The refresh revalidates
    /// (`If-None-Match` / `If-Modified-Since`) when the server sent validators, so an unchanged
    /// page costs a `304`. Without a cache, both loads reach the server.
    ///
    /// ```swift
    /// booksCall.firingFunction = .caching(in: cache, policy: .offlineFirst)
    /// let pager = Pager(call: booksCall, strategy: .pageNumber(pageSize: 20), decoder: .array(), id: \Book.id)
    /// await pager.showStoredFirstPageThenRefresh()
    /// ```
    public func showStoredFirstPageThenRefresh() async {
        await withCheckedContinuation { start(.storedFirstPage, waiter: $0) }
        await refresh()
    }

    /// Repeats the load that failed last: a refresh, or the next page where it failed.
    public func retry() async {
        let kind = loader.read { core, _ in core.lastFailure } ?? .nextPage
        await withCheckedContinuation { start(kind, waiter: $0) }
    }

    /// Cancels the load in flight, if any; the items and position stay as they were.
    public func cancel() {
        loader.cancel()
    }

    // MARK: - Running one load

    private func start(_ kind: PageLoad.Kind, waiter: CheckedContinuation<Void, Never>?) {
        loader.start(waiter: waiter) { core, inFlight in
            if let inFlight, kind != .refresh || inFlight.kind == .refresh {
                return .join
            }
            var call: NetCall
            do throws(NetworkError) {
                switch (kind, core.position) {
                case (.refresh, _), (.nextPage, .start): call = try strategy.firstPage(of: self.call)
                case (.nextPage, .next(let next)): call = next
                case (.nextPage, .end): return .skip(isChanged: false)
                case (.storedFirstPage, _):
                    guard core.pageIndex == 0 else { return .skip(isChanged: false) }
                    call = try strategy.firstPage(of: self.call)
                    call.endpoint = call.endpoint.header("Cache-Control", "only-if-cached, max-stale")
                }
                if kind == .refresh, core.isCached, call.endpoint.headers["Cache-Control"] == nil {
                    // A pull to refresh wants the server's word: revalidate what the cache holds.
                    call.endpoint = call.endpoint.header("Cache-Control", "no-cache")
                }
            } catch {
                core.state.error = error
                core.lastFailure = kind
                return .skip(isChanged: true)
            }
            let isFirst = kind != .nextPage || core.pageIndex == 0
            core.state.isLoading = true
            core.state.isRefreshing = kind == .refresh
            return .load(PageLoad(
                kind: kind, call: call,
                index: isFirst ? 0 : core.pageIndex, itemsBefore: isFirst ? 0 : core.itemsFetched
            ))
        } fire: { id, load in
            load.call.fire(reporting: { [weak self] result in self?.finish(load, id, with: result) })
        }
    }

    private func finish(_ load: PageLoad, _ id: Int, with result: Result<NetworkResponse, NetworkError>) {
        guard loader.isInFlight(id) else { return }
        // After the page landed (or, decoded on the main actor, was queued there to land).
        defer { handOnToTypedHandlers(result, of: load) }
        switch result {
        case .success(let response):
            // Decoding runs outside the lock, where the decoder may run (the main actor for a
            // main-actor model); the loader checks the load again before applying.
            let landsOnMainActor = identify?.isOnMainActor == true
            decoder.decode(response, serverDecoder: call.server.decoder, onMainActor: landsOnMainActor) { [weak self] page in
                self?.land(load, id, page.map { ($0, response) })
            }
        case .failure(let error):
            land(load, id, .failure(error))
        }
    }

    /// Hands a page's outcome to the typed handlers of the typed call the pager was made from,
    /// so they see it, error body decoded, as when the call fires. A stored first page that is
    /// not there is no error (see `land`).
    private func handOnToTypedHandlers(_ result: Result<NetworkResponse, NetworkError>, of load: PageLoad) {
        if case .failure = result, load.kind == .storedFirstPage { return }
        typedHandlers.withLock { $0 }?(result)
    }

    /// Applies a decoded page (or the failure) to the state, unless the load was superseded.
    private func land(_ load: PageLoad, _ id: Int, _ decoded: Result<(Page<Item>, NetworkResponse), NetworkError>) {
        let outcome = decoded.map { page, response in
            let loaded = LoadedPage(page: page, index: load.index, itemsBefore: load.itemsBefore,
                                    call: load.call, baseCall: self.call, response: response)
            let next = Result { () throws(NetworkError) in try strategy.nextPage(after: loaded) }
            if loaded.index == 0, case .success(nil) = next { logMissingNextPageKey(of: loaded) }
            return (page, next)
        }
        let cacheStatus = (try? decoded.get())?.1.cacheStatus
        loader.finish(id) { core, load in
            switch outcome {
            case .success(let (page, next)):
                apply(page, next: next, of: load, to: &core)
                core.state.cacheStatus = cacheStatus
                core.isCached = core.isCached || cacheStatus != nil
            case .failure where load.kind == .storedFirstPage:
                // Nothing stored (the cache's 504) is not an error: the refresh that follows loads the page.
                break
            case .failure(let error):
                core.state.error = error
                core.lastFailure = load.kind
            }
        }
    }

    private func apply(_ page: Page<Item>, next: Result<NetCall?, NetworkError>, of load: PageLoad, to core: inout Core) {
        if load.index == 0 {
            core.state.items = []
            core.seenIDs = []
            core.pageIndex = 0
            core.itemsFetched = 0
        }
        if let identify {
            core.state.items += page.items.filter { core.seenIDs.insert(identify($0)).inserted }
        } else {
            core.state.items += page.items
        }
        core.pageIndex += 1
        core.itemsFetched += page.items.count
        core.state.pageCount = core.pageIndex
        core.lastFailure = nil
        switch next {
        case .success(let call?):
            core.position = .next(call)
            core.state.hasMore = true
            core.state.error = nil
        case .success(nil):
            core.position = .end
            core.state.hasMore = false
            core.state.error = nil
        case .failure(let error):
            core.position = .end
            core.state.hasMore = false
            core.state.error = error
        }
    }
}
