import Foundation

/// Where an ``HTTPCache`` keeps responses: in memory, or on disk behind a memory layer.
///
/// ```swift
/// let cache = HTTPCache(store: .memory(byteLimit: 20_000_000))
/// let lasting = HTTPCache(store: .disk(in: cachesFolder.appendingPathComponent("api")))
/// ```
public struct CacheStore: Sendable {
    /// Which entries a removal drops.
    enum Removal: Sendable, Hashable {
        /// Every stored response of a URL, in every partition and for every method.
        case url(String)
        /// Every stored response of one partition (one user).
        case partition(String)
        /// Every stored response of a partition key's partition, and every one filed under a
        /// credential digest: those were stored while no key was set (under earlier tokens too),
        /// and once a key is set nothing else reaches them.
        case key(String)
        /// Everything.
        case all
    }

    /// The stored variants of a key; none on a miss (and for an entry that could not be read,
    /// which is removed).
    let load: @Sendable (CacheKey) -> [CachedResponse]
    /// Replaces the variants of a key; none removes the key.
    let save: @Sendable (CacheKey, [CachedResponse]) -> Void
    /// Removes entries.
    let remove: @Sendable (Removal) -> Void

    init(
        load: @escaping @Sendable (CacheKey) -> [CachedResponse],
        save: @escaping @Sendable (CacheKey, [CachedResponse]) -> Void,
        remove: @escaping @Sendable (Removal) -> Void
    ) {
        self.load = load
        self.save = save
        self.remove = remove
    }

    /// Responses kept in memory up to `byteLimit` bytes (bodies, fields and URLs, and 1 KiB a
    /// response for what holds them), the least recently used dropped first; an entry bigger
    /// than the limit is not kept.
    ///
    /// - Parameter byteLimit: the most the store holds; 20 MB by default.
    public static func memory(byteLimit: Int = 20_000_000) -> CacheStore {
        let store = MemoryCacheStore(byteLimit: byteLimit)
        return CacheStore(load: store.load, save: store.save, remove: store.remove)
    }

    /// Responses kept in `folder`, one file per entry written atomically, up to `byteLimit`
    /// bytes, the least recently used dropped first; the most used also in memory.
    ///
    /// An entry that is corrupt, truncated or unreadable is a miss and its file is removed. When
    /// the folder cannot be written (a full disk, a read-only folder), the store keeps serving
    /// from memory and says why once through `log`.
    ///
    /// - Parameters:
    ///   - folder: where entries are kept; created when missing. Use a folder of its own.
    ///   - byteLimit: the most the folder holds; 200 MB by default.
    ///   - memoryByteLimit: the most the memory layer holds; 10 MB by default.
    ///   - log: where the store says it stopped writing to disk; standard error by default.
    public static func disk(
        in folder: URL,
        byteLimit: Int = 200_000_000,
        memoryByteLimit: Int = 10_000_000,
        log: @escaping @Sendable (String) -> Void = LoggingAction.standardError
    ) -> CacheStore {
        disk(DiskCacheStore(folder: folder, byteLimit: byteLimit, log: log), memoryByteLimit: memoryByteLimit)
    }

    /// `disk` behind a memory layer of `memoryByteLimit` bytes.
    static func disk(_ disk: DiskCacheStore, memoryByteLimit: Int) -> CacheStore {
        let memory = MemoryCacheStore(byteLimit: memoryByteLimit)
        return CacheStore(
            load: { key in
                let remembered = memory.load(key)
                if !remembered.isEmpty { return remembered }
                let stored = disk.load(key)
                if !stored.isEmpty { memory.save(key, stored) }
                return stored
            },
            save: { key, variants in
                memory.save(key, variants)
                disk.save(key, variants)
            },
            remove: { removal in
                memory.remove(removal)
                disk.remove(removal)
            }
        )
    }
}
