import Foundation

/// The disk store: one file per ``CacheKey`` holding its variants, written atomically, up to a
/// byte limit, the least recently used dropped first.
///
/// A file is `SALVOC1\n`, the metadata's length (4 bytes, big-endian), the metadata as JSON (the
/// key, each variant's fields and times, each body's length and FNV-1a hash), then the bodies.
/// A file that does not read back exactly so (truncated, corrupt, written for another key, or
/// unreadable) is a miss and is removed. The first write that fails turns the store off for the
/// rest of the process, said once through the log: the memory layer keeps serving.
final class DiskCacheStore: Sendable {
    private struct Metadata: Codable {
        struct Body: Codable {
            var length: Int
            var hash: UInt64
        }

        var partition: String
        var method: String
        var url: String
        var variants: [CachedResponse]
        var bodies: [Body]
    }

    private struct File {
        var size: Int
        var lastUse: UInt64
    }

    private struct State {
        /// The files in the folder by name; `nil` until the folder is first read.
        var files: [String: File]?
        var totalSize = 0
        var tick: UInt64 = 0
        /// Why writing stopped, once it has.
        var failure: String?
    }

    private static let magic = Data("SALVOC1\n".utf8)
    private static let fileExtension = "salvocache"

    let folder: URL
    let byteLimit: Int
    private let log: @Sendable (String) -> Void
    private let write: @Sendable (Data, URL) throws -> Void
    private let state = Locked(State())

    /// A store in `folder`; `write` puts a file in place (atomically, by default), swapped in
    /// fault tests.
    init(
        folder: URL,
        byteLimit: Int,
        log: @escaping @Sendable (String) -> Void,
        write: @escaping @Sendable (Data, URL) throws -> Void = { try $0.write(to: $1, options: .atomic) }
    ) {
        self.folder = folder
        self.byteLimit = max(0, byteLimit)
        self.log = log
        self.write = write
    }

    /// The bytes the folder's entries take.
    var totalSize: Int { state.withLock { state in readFolder(&state); return state.totalSize } }

    /// Why the store stopped writing, if it has.
    var failure: String? { state.withLock { $0.failure } }

    func load(_ key: CacheKey) -> [CachedResponse] {
        let name = fileName(key)
        return state.withLock { state in
            readFolder(&state)
            guard state.files?[name] != nil else { return [] }
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), let variants = Self.decode(data, for: key) else {
                // Unreadable or not what was written: a miss, and never again.
                try? FileManager.default.removeItem(at: url)
                forget(name, in: &state)
                return []
            }
            state.tick += 1
            state.files?[name]?.lastUse = state.tick
            return variants
        }
    }

    func save(_ key: CacheKey, _ variants: [CachedResponse]) {
        let name = fileName(key)
        let url = folder.appendingPathComponent(name)
        let data = variants.isEmpty ? nil : Self.encode(variants, for: key)
        var message: String?
        state.withLock { state in
            readFolder(&state)
            guard state.failure == nil else { return }
            guard let data, data.count <= byteLimit else {
                if state.files?[name] != nil { try? FileManager.default.removeItem(at: url) }
                forget(name, in: &state)
                return
            }
            do {
                try write(data, url)
            } catch {
                state.failure = "\(error.localizedDescription) (\(error))"
                message = "Salvo cache: cannot write to \(folder.path) (\(error.localizedDescription)); serving from memory only from now on"
                try? FileManager.default.removeItem(at: url)
                forget(name, in: &state)
                return
            }
            forget(name, in: &state)
            state.tick += 1
            state.files?[name] = File(size: data.count, lastUse: state.tick)
            state.totalSize += data.count
            while state.totalSize > byteLimit, let oldest = state.files?.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(oldest.key))
                forget(oldest.key, in: &state)
            }
        }
        if let message { log(message) }
    }

    func remove(_ removal: CacheStore.Removal) {
        state.withLock { state in
            readFolder(&state)
            let doomed = (state.files ?? [:]).keys.filter { name in
                switch removal {
                case .url(let url): name.contains("-\(Self.urlDigest(url))-")
                case .partition(let partition): name.hasPrefix("\(partition)-")
                case .key(let partition):
                    name.hasPrefix("\(partition)-") || CacheKey.isCredentialDigest(name.prefix { $0 != "-" })
                case .all: true
                }
            }
            for name in doomed {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                forget(name, in: &state)
            }
        }
    }

    // MARK: - Files

    /// `<partition>-<digest of the URL>-<method>.salvocache`: a URL's or a user's files are found by name.
    private func fileName(_ key: CacheKey) -> String {
        "\(key.partition)-\(Self.urlDigest(key.url))-\(key.method).\(Self.fileExtension)"
    }

    private static func urlDigest(_ url: String) -> String { String(SHA256.hex(url).prefix(32)) }

    private func forget(_ name: String, in state: inout State) {
        if let old = state.files?.removeValue(forKey: name) { state.totalSize -= old.size }
    }

    /// Lists the folder the first time it is needed (creating it when missing); files are
    /// ranked by modification time until they are used.
    private func readFolder(_ state: inout State) {
        guard state.files == nil else { return }
        var files: [String: File] = [:]
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            state.failure = error.localizedDescription
            log("Salvo cache: cannot create \(folder.path) (\(error.localizedDescription)); serving from memory only")
        }
        let contents = (try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])) ?? []
        let ranked = contents.filter { $0.pathExtension == Self.fileExtension }.compactMap { url -> (String, Int, Date)? in
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey]) else { return nil }
            return (url.lastPathComponent, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }.sorted { $0.2 < $1.2 }
        for (name, size, _) in ranked {
            state.tick += 1
            files[name] = File(size: size, lastUse: state.tick)
            state.totalSize += size
        }
        state.files = files
    }

    // MARK: - Format

    private static func encode(_ variants: [CachedResponse], for key: CacheKey) -> Data? {
        let metadata = Metadata(
            partition: key.partition, method: key.method, url: key.url, variants: variants,
            bodies: variants.map { Metadata.Body(length: $0.body.count, hash: FixtureName.fnv1a64($0.body)) }
        )
        guard let json = try? JSONEncoder().encode(metadata), json.count <= Int(UInt32.max) else { return nil }
        var data = magic
        let length = UInt32(json.count)
        data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> UInt32($0)) })
        data.append(json)
        for variant in variants { data.append(variant.body) }
        return data
    }

    private static func decode(_ data: Data, for key: CacheKey) -> [CachedResponse]? {
        let bytes = [UInt8](data)
        let header = magic.count + 4
        guard bytes.count >= header, Data(bytes[0..<magic.count]) == magic else { return nil }
        let length = bytes[magic.count..<header].reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= header + length,
              let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(bytes[header..<(header + length)])),
              metadata.partition == key.partition, metadata.method == key.method, metadata.url == key.url,
              metadata.bodies.count == metadata.variants.count,
              metadata.bodies.allSatisfy({ $0.length >= 0 }),
              header + length + metadata.bodies.reduce(0, { $0 + $1.length }) == bytes.count
        else { return nil }
        var offset = header + length
        var variants: [CachedResponse] = []
        for (variant, body) in zip(metadata.variants, metadata.bodies) {
            var restored = variant
            restored.body = Data(bytes[offset..<(offset + body.length)])
            guard FixtureName.fnv1a64(restored.body) == body.hash else { return nil }
            offset += body.length
            variants.append(restored)
        }
        return variants
    }
}
