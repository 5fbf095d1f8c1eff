import Foundation

/// The memory store: entries by key up to a byte limit, the least recently used dropped first.
///
/// Recency is a counter per entry; eviction walks the entries once to find the oldest, which
/// only happens when a save goes over the limit.
final class MemoryCacheStore: Sendable {
    private struct Entry {
        var variants: [CachedResponse]
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [CacheKey: Entry] = [:]
        var totalCost = 0
        var tick: UInt64 = 0
    }

    /// The most the store holds, in bytes.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// The bytes held now.
    var totalCost: Int { state.withLock { $0.totalCost } }

    // One hash of the key per load and per save: the key holds the whole URL, and every miss
    // loads twice and saves once.
    func load(_ key: CacheKey) -> [CachedResponse] {
        state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return [] }
            state.tick += 1
            state.entries.values[index].lastUse = state.tick
            return state.entries.values[index].variants
        }
    }

    func save(_ key: CacheKey, _ variants: [CachedResponse]) {
        let cost = variants.reduce(0) { $0 + $1.cost }
        state.withLock { state in
            guard !variants.isEmpty, cost <= byteLimit else {
                if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.cost }
                return
            }
            state.tick += 1
            if let old = state.entries.updateValue(Entry(variants: variants, cost: cost, lastUse: state.tick), forKey: key) {
                state.totalCost -= old.cost
            }
            state.totalCost += cost
            while state.totalCost > byteLimit, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                state.totalCost -= oldest.value.cost
            }
        }
    }

    func remove(_ removal: CacheStore.Removal) {
        state.withLock { state in
            let doomed = state.entries.keys.filter { key in
                switch removal {
                case .url(let url): key.url == url
                case .partition(let partition): key.partition == partition
                case .key(let partition): key.partition == partition || CacheKey.isCredentialDigest(key.partition)
                case .all: true
                }
            }
            for key in doomed {
                state.totalCost -= state.entries.removeValue(forKey: key)?.cost ?? 0
            }
        }
    }
}
