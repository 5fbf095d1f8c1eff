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

    /// Starts loading the next page without waiting; see ``loadNextPage()``.
    public func startLoadingNextPage() {
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

    /// Repeats the load that failed last: a refresh, or the next page where it failed.
    public func retry() async {
        let kind = core.withLock { $0.lastFailure } ?? .nextPage
        await withCheckedContinuation { start(kind, waiter: $0) }
    }

    /// Cancels the load in flight, if any; the items and position stay as they were.
    public func cancel() {
        let cancelled = core.withLock { core -> Load? in
            guard let load = core.load else { return nil }
            core.load = nil
            core.state.isLoading = false
            core.state.isRefreshing = false
            broadcaster.publish(core.state)
            return load
        }
        cancelled?.task?.cancel()
        cancelled?.waiters.forEach { $0.resume() }
    }

    // MARK: - Running one load

    private enum Start {
        case done
        case joined
        case fire(Load, cancelling: NetworkTask?)
    }

    private func start(_ kind: Load.Kind, waiter: CheckedContinuation<Void, Never>?) {
        let start = core.withLock { core -> Start in
            if let load = core.load, kind == .nextPage || load.kind == .refresh {
                core.load?.waiters += waiter.map { [$0] } ?? []
                return .joined
            }
            let replaced = core.load
            let call: NetCall
            do throws(NetworkError) {
                switch (kind, core.position) {
                case (.refresh, _), (.nextPage, .start): call = try strategy.firstPage(of: self.call)
                case (.nextPage, .next(let next)): call = next
                case (.nextPage, .end): return .done
                }
            } catch {
                core.state.error = error
                core.lastFailure = kind
                broadcaster.publish(core.state)
                return .done
            }
            let isFirst = kind == .refresh || core.pageIndex == 0
            let load = Load(
                id: core.nextLoadID, kind: kind, call: call,
                index: isFirst ? 0 : core.pageIndex, itemsBefore: isFirst ? 0 : core.itemsFetched,
                waiters: (replaced?.waiters ?? []) + (waiter.map { [$0] } ?? [])
            )
            core.nextLoadID += 1
            core.load = load
            core.state.isLoading = true
            core.state.isRefreshing = kind == .refresh
            broadcaster.publish(core.state)
            return .fire(load, cancelling: replaced?.task)
        }
        switch start {
        case .done: waiter?.resume()
        case .joined: break
        case .fire(let load, let replaced):
            replaced?.cancel()
            fire(load)
        }
    }

    /// Fires the load's call through its firing function; the outcome comes back to ``finish(_:with:)``.
    private func fire(_ load: Load) {
        let id = load.id
        let task = load.call.fire(reporting: { [weak self] result in self?.finish(id, with: result) })
        let isStale = core.withLock { core in
            guard core.load?.id == id else { return true }
            core.load?.task = task
            return false
        }
        // Refreshed or cancelled while firing; a task that already finished ignores this.
        if isStale { task.cancel() }
    }

    private func finish(_ id: Int, with result: Result<NetworkResponse, NetworkError>) {
        guard let load = core.withLock({ $0.load?.id == id ? $0.load : nil }) else { return }
        // Decoding and the strategy run outside the lock; the load is checked again before applying.
        let outcome = result.flatMap { response in
            Result { () throws(NetworkError) in try decoder.decode(response) }.map { page in
                let loaded = LoadedPage(page: page, index: load.index, itemsBefore: load.itemsBefore,
                                        call: load.call, baseCall: self.call, response: response)
                return (page, Result { () throws(NetworkError) in try strategy.nextPage(after: loaded) })
            }
        }
        let waiters = core.withLock { core -> [CheckedContinuation<Void, Never>] in
            guard let current = core.load, current.id == id else { return [] }
            switch outcome {
            case .success(let (page, next)): apply(page, next: next, of: load, to: &core)
            case .failure(let error):
                core.state.error = error
                core.lastFailure = load.kind
            }
            core.load = nil
            core.state.isLoading = false
            core.state.isRefreshing = false
            broadcaster.publish(core.state)
            return current.waiters
        }
        waiters.forEach { $0.resume() }
    }

    private func apply(_ page: Page<Item>, next: Result<NetCall?, NetworkError>, of load: Load, to core: inout Core) {
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
