import Foundation

/// Counts how often each fixture name was asked for, so an exchange that repeats is recorded
/// and replayed occurrence by occurrence: `GET_cart_….json`, then `GET_cart_….2.json`, …
///
/// Shared by every copy of the session holding it, behind a lock.
package struct FixtureOccurrences: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// No occurrences counted yet.
    package init() {}

    /// The occurrence, from 1, that this request for `name` is.
    package func next(for name: String) -> Int {
        counts.withLock { counts in
            let next = (counts[name] ?? 0) + 1
            counts[name] = next
            return next
        }
    }

    /// The file of `occurrence` of `name` in `folder`: the name itself for the first,
    /// `<stem>.<n>.json` after.
    package static func file(_ name: String, occurrence: Int, in folder: URL) -> URL {
        folder.appendingPathComponent(fileName(name, occurrence: occurrence))
    }

    /// `name` for the first occurrence, `<stem>.<n>.json` for the n-th.
    package static func fileName(_ name: String, occurrence: Int) -> String {
        guard occurrence > 1 else { return name }
        let stem = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return "\(stem).\(occurrence).json"
    }

    /// The recorded file that answers `occurrence` of `name`: its own, or when the exchange was
    /// recorded fewer times, the last one recorded. Nil when not even the first exists.
    package static func existingFile(_ name: String, occurrence: Int, in folder: URL) -> URL? {
        let own = file(name, occurrence: occurrence, in: folder)
        if FileManager.default.fileExists(atPath: own.path) { return own }
        var last: URL?
        for candidate in 1..<max(1, occurrence) {
            let file = file(name, occurrence: candidate, in: folder)
            guard FileManager.default.fileExists(atPath: file.path) else { break }
            last = file
        }
        return last
    }

    /// Removes the files of occurrences 2 and up of `name`, left by an earlier recording, so a
    /// re-recording leaves exactly what it saw.
    package static func removeLaterOccurrences(of name: String, in folder: URL) {
        var occurrence = 2
        while case let file = file(name, occurrence: occurrence, in: folder), FileManager.default.fileExists(atPath: file.path) {
            try? FileManager.default.removeItem(at: file)
            occurrence += 1
        }
    }

    /// The fixture file names in `folder` in recording order per exchange: by first-occurrence
    /// name, then occurrence (`x.json`, `x.2.json`, `x.10.json`). Empty when the folder is missing.
    package static func orderedFileNames(in folder: URL) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
        return names.map { name -> (String, Int, String) in
            let stem = name.dropLast(5)
            if let dot = stem.lastIndex(of: "."), let occurrence = Int(stem[stem.index(after: dot)...]), occurrence > 1 {
                return (String(stem[..<dot]) + ".json", occurrence, name)
            }
            return (name, 1, name)
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        .map(\.2)
    }
}
