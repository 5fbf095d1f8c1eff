import Foundation

/// The directives of a `Cache-Control` field (RFC 9111 §5.2) and RFC 5861's extensions, parsed
/// once: names lowercased, a quoted value unquoted, an unreadable number ignored.
///
/// An unknown directive is kept and otherwise ignored (§5.2.3).
struct CacheControl: Sendable, Hashable {
    /// Each directive by lowercased name; `""` for a directive without a value.
    private(set) var directives: [String: String] = [:]

    /// The directives of `value`, or none when there is no field.
    init(_ value: String?) {
        guard let value else { return }
        for part in Self.split(value) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { continue }
            var argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                argument = String(argument.dropFirst().dropLast())
            }
            // The first occurrence wins; a duplicate directive is a server's mistake (§4.2.1).
            if directives[name] == nil { directives[name] = argument }
        }
    }

    /// Whether the directive `name` is present.
    func has(_ name: String) -> Bool { directives[name] != nil }

    /// The delta-seconds value of `name`; `nil` when absent or not a number.
    func seconds(_ name: String) -> TimeInterval? {
        guard let text = directives[name], let value = Int(text) else { return nil }
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
        guard let text = directives["max-stale"] else { return nil }
        return text.isEmpty ? .infinity : Int(text).map { TimeInterval(max(0, $0)) }
    }

    /// `value` split at commas outside quoted strings.
    private static func split(_ value: String) -> [String] {
        var parts: [String] = [], current = "", isQuoted = false
        for character in value {
            if character == "\"" { isQuoted.toggle() }
            if character == ",", !isQuoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}
