import Foundation

/// The directives of a `Cache-Control` field (RFC 9111 §5.2) and RFC 5861's extensions, parsed
/// once: names lowercased, a quoted value unquoted, an unreadable number ignored.
///
/// An unknown directive is kept and otherwise ignored (§5.2.3).
struct CacheControl: Sendable, Hashable {
    /// One directive: its lowercased name and its value, `""` when it has none.
    private struct Directive: Sendable, Hashable {
        let name: String
        let value: String
    }

    /// The directives in the field's order, each name once. A field holds a few, so a scan
    /// beats hashing: a dictionary made the parse cost ~4.6k instructions on a miss.
    private var directives: [Directive] = []

    /// The directives of `value`, or none when there is no field.
    ///
    /// Parsed on the string's own storage, without Foundation: every miss and hit parses one or
    /// two of these, and `trimmingCharacters(in:)` cost ~10k instructions a call on Linux.
    init(_ value: String?) {
        guard let value else { return }
        var directives: [Directive] = []
        Self.forEachPart(of: value) { part in
            let equals = part.utf8.firstIndex(of: UInt8(ascii: "="))
            let rawName = Self.trimmed(equals.map { part[..<$0] } ?? part)
            guard !rawName.isEmpty else { return }
            let name = rawName.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? rawName.lowercased() : String(rawName)
            var argument = equals.map { Self.trimmed(part[part.utf8.index(after: $0)...]) } ?? ""
            if argument.utf8.count >= 2, argument.utf8.first == UInt8(ascii: "\""), argument.utf8.last == UInt8(ascii: "\"") {
                argument = argument.dropFirst().dropLast()
            }
            // The first occurrence wins; a duplicate directive is a server's mistake (§4.2.1).
            if !directives.contains(where: { $0.name == name }) { directives.append(Directive(name: name, value: String(argument))) }
        }
        self.directives = directives
    }

    /// The value of the directive `name` (lowercased); `""` when it has none, `nil` when absent.
    private func directiveValue(named name: String) -> String? {
        directives.first { $0.name == name }?.value
    }

    /// Whether the directive `name` is present.
    func has(_ name: String) -> Bool { directiveValue(named: name) != nil }

    /// The delta-seconds value of `name`; `nil` when absent or not a number.
    func seconds(_ name: String) -> TimeInterval? {
        guard let text = directiveValue(named: name), let value = Int(text) else { return nil }
        return TimeInterval(max(0, value))
    }

    var noStore: Bool { has("no-store") }
    var noCache: Bool { has("no-cache") }
    var mustRevalidate: Bool { has("must-revalidate") || has("proxy-revalidate") }
    var isImmutable: Bool { has("immutable") }
    var onlyIfCached: Bool { has("only-if-cached") }
    var maxAge: TimeInterval? { seconds("max-age") }
    var minFresh: TimeInterval? { seconds("min-fresh") }
    var staleWhileRevalidate: TimeInterval? { seconds("stale-while-revalidate") }
    var staleIfError: TimeInterval? { seconds("stale-if-error") }
    var hasPublic: Bool { has("public") }

    /// The request's `max-stale`: `.infinity` without a value (any staleness), `nil` when absent.
    var maxStale: TimeInterval? {
        guard let text = directiveValue(named: "max-stale") else { return nil }
        return text.isEmpty ? .infinity : Int(text).map { TimeInterval(max(0, $0)) }
    }

    /// Calls `body` with each part of `value` between commas outside quoted strings, without
    /// collecting them: an array of parts cost a miss an allocation for a field of one directive.
    private static func forEachPart(of value: String, _ body: (Substring) -> Void) {
        var start = value.startIndex
        var isQuoted = false
        var index = value.utf8.startIndex
        while index != value.utf8.endIndex {
            switch value.utf8[index] {
            case UInt8(ascii: "\""): isQuoted.toggle()
            case UInt8(ascii: ","):
                if !isQuoted {
                    body(value[start..<index])
                    start = value.utf8.index(after: index)
                }
            default: break
            }
            index = value.utf8.index(after: index)
        }
        body(value[start...])
    }

    /// `text` without the spaces and tabs around it (HTTP's optional whitespace).
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { text = text[text.utf8.index(after: text.startIndex)...] }
        while let last = text.utf8.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { text = text[..<text.utf8.index(before: text.endIndex)] }
        return text
    }
}
