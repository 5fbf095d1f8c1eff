import Foundation
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// The memory and disk stores: limits, eviction, and what a damaged or unwritable folder does.
@Suite struct CacheStoreTests {
    static let key = CacheKey(partition: CacheKey.anonymous, method: "GET", url: "https://api.example.com/item")

    static func key(_ index: Int) -> CacheKey {
        CacheKey(partition: CacheKey.anonymous, method: "GET", url: "https://api.example.com/items/\(index)")
    }

    static func response(_ body: String, size: Int = 0) -> CachedResponse {
        CachedResponse(
            statusCode: 200, fields: [.init(name: "ETag", value: "\"1\"")], url: URL(string: "https://api.example.com/item")!,
            requestTime: Date(timeIntervalSince1970: 1_000), responseTime: Date(timeIntervalSince1970: 1_001),
            variant: ["accept": "application/json", "authorization": nil],
            body: Data((body + String(repeating: ".", count: size)).utf8)
        )
    }

    /// What a disk store in `folder` logs.
    final class Log: Sendable {
        let lines = Locked<[String]>([])
        var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    }

    // MARK: - Memory

    @Test func memoryStoreDropsTheLeastRecentlyUsedAndStaysUnderItsLimit() {
        let store = MemoryCacheStore(byteLimit: 5_000)
        for index in 0..<10 {
            store.save(Self.key(index), [Self.response("\(index)", size: 900)])
            _ = store.load(Self.key(0)) // keeps 0 in use
            #expect(store.totalCost <= 5_000)
        }
        #expect(!store.load(Self.key(0)).isEmpty)
        #expect(store.load(Self.key(1)).isEmpty)
        #expect(!store.load(Self.key(9)).isEmpty)
    }

    @Test func memoryStoreKeepsNothingBiggerThanItsLimit() {
        let store = MemoryCacheStore(byteLimit: 100)
        store.save(Self.key, [Self.response("big", size: 200)])
        #expect(store.load(Self.key).isEmpty)
        #expect(store.totalCost == 0)
    }

    // MARK: - Disk

    @Test func diskStoreReadsBackWhatItWroteInAFreshProcess() throws {
        let folder = try TemporaryFolder()
        let written = Self.response("hello")
        DiskCacheStore(folder: folder.url, byteLimit: 1_000_000, log: { _ in }).save(Self.key, [written])
        let reread = DiskCacheStore(folder: folder.url, byteLimit: 1_000_000, log: { _ in }).load(Self.key)
        #expect(reread == [written])
        #expect(try folder.fileNames().count == 1)
    }

    @Test(arguments: ["truncated", "flipped byte", "garbage", "empty", "other key"])
    func aDamagedFileIsAMissAndIsRemoved(_ damage: String) throws {
        let folder = try TemporaryFolder()
        DiskCacheStore(folder: folder.url, byteLimit: 1_000_000, log: { _ in }).save(Self.key, [Self.response("hello world")])
        let file = folder.url.appendingPathComponent(try #require(try folder.fileNames().first))
        var data = try Data(contentsOf: file)
        switch damage {
        case "truncated": data = data.prefix(data.count - 3)
        case "flipped byte": data[data.count - 2] ^= 0xff
        case "garbage": data = Data("not a cache file".utf8)
        case "empty": data = Data()
        default:
            // A file of another key under this key's name (a digest collision or a moved file).
            let other = try TemporaryFolder()
            DiskCacheStore(folder: other.url, byteLimit: 1_000_000, log: { _ in }).save(Self.key(7), [Self.response("other")])
            data = try Data(contentsOf: other.url.appendingPathComponent(try #require(try other.fileNames().first)))
        }
        try data.write(to: file)
        let store = DiskCacheStore(folder: folder.url, byteLimit: 1_000_000, log: { _ in })
        #expect(store.load(Self.key).isEmpty)
        #expect(try folder.fileNames().isEmpty)
    }

    @Test func diskStoreEvictsTheLeastRecentlyUsedFiles() throws {
        let folder = try TemporaryFolder()
        let store = DiskCacheStore(folder: folder.url, byteLimit: 6_000, log: { _ in })
        for index in 0..<10 {
            store.save(Self.key(index), [Self.response("\(index)", size: 1_000)])
            _ = store.load(Self.key(0))
        }
        #expect(store.totalSize <= 6_000)
        #expect(try folder.fileNames().count < 10)
        #expect(!store.load(Self.key(0)).isEmpty)
        #expect(store.load(Self.key(1)).isEmpty)
    }

    @Test func aFullDiskLeavesTheCacheServingFromMemoryAndSaysSoOnce() throws {
        let folder = try TemporaryFolder()
        let log = Log()
        // Every write goes to /dev/full, which fails each one with ENOSPC.
        let disk = DiskCacheStore(folder: folder.url, byteLimit: 1_000_000, log: log.sink) { data, _ in
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        }
        let store = CacheStore.disk(disk, memoryByteLimit: 1_000_000)
        store.save(Self.key, [Self.response("one")])
        store.save(Self.key(2), [Self.response("two")])
        #expect(store.load(Self.key).map(\.body) == [Data("one".utf8)])
        #expect(store.load(Self.key(2)).map(\.body) == [Data("two".utf8)])
        #expect(try folder.fileNames().isEmpty)
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("memory only") == true)
    }

    // Permissions do not stop root (CI's containers run as root): a folder whose parent is a
    // regular file cannot be made by anybody, so this one holds for every user.
    @Test func aFolderThatCannotBeMadeLeavesTheCacheServingFromMemoryAndSaysSoOnce() throws {
        let parent = try TemporaryFolder()
        let file = parent.url.appendingPathComponent("not-a-folder")
        try Data("a file".utf8).write(to: file)
        let log = Log()
        let store = CacheStore.disk(in: file.appendingPathComponent("cache"), memoryByteLimit: 1_000_000, log: log.sink)
        store.save(Self.key, [Self.response("one")])
        store.save(Self.key(2), [Self.response("two")])
        #expect(store.load(Self.key).map(\.body) == [Data("one".utf8)])
        #expect(store.load(Self.key(2)).map(\.body) == [Data("two".utf8)])
        #expect(try Data(contentsOf: file) == Data("a file".utf8))
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("memory only") == true)
    }

    // Root writes into a read-only folder all the same; the test above covers it there.
    @Test(.enabled(if: geteuid() != 0, "permissions do not stop root"))
    func aReadOnlyFolderLeavesTheCacheServingFromMemory() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.url.path) }
        let log = Log()
        let store = CacheStore.disk(in: folder.url, memoryByteLimit: 1_000_000, log: log.sink)
        store.save(Self.key, [Self.response("one")])
        store.save(Self.key(2), [Self.response("two")])
        #expect(store.load(Self.key).map(\.body) == [Data("one".utf8)])
        #expect(log.lines.withLock { $0.count } == 1)
    }

    @Test func removalsDropAURLForEveryUserOrOneUsersEntries() throws {
        let folder = try TemporaryFolder()
        let store = CacheStore.disk(in: folder.url, log: { _ in })
        let alice = CacheKey(partition: "alice", method: "GET", url: Self.key.url)
        let aliceOther = CacheKey(partition: "alice", method: "GET", url: Self.key(2).url)
        for key in [Self.key, alice, aliceOther] { store.save(key, [Self.response("x")]) }
        store.remove(.url(Self.key.url))
        #expect(store.load(Self.key).isEmpty)
        #expect(store.load(alice).isEmpty)
        #expect(!store.load(aliceOther).isEmpty)
        store.remove(.partition("alice"))
        #expect(store.load(aliceOther).isEmpty)
        #expect(try folder.fileNames().isEmpty)
    }
}
