/// One segment of a mock route pattern.
enum MockPathSegment: Sendable, Hashable {
    /// Text that must equal the request's (decoded) segment.
    case literal(String)
    /// `:name`: any one segment, captured.
    case parameter(String)
    /// `*`: any one segment.
    case wildcard
    /// `**`: any number of segments, including none.
    case rest

    /// The segments of `pattern`; leading and trailing slashes are ignored.
    static func parse(_ pattern: String) -> [MockPathSegment] {
        split(pattern).map { text in
            switch text {
            case "*": return .wildcard
            case "**": return .rest
            default:
                if text.hasPrefix(":"), text.count > 1 { return .parameter(String(text.dropFirst())) }
                return .literal(text)
            }
        }
    }

    /// The non-empty segments of a path, ignoring leading, trailing and doubled slashes.
    static func split(_ path: String) -> [String] {
        // Byte-wise: splitting on a Character compares grapheme clusters, several times slower.
        path.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
    }

    /// Matches `pattern` against `path`, returning captured parameters, or nil.
    static func match(_ pattern: ArraySlice<MockPathSegment>, _ path: ArraySlice<String>) -> [String: String]? {
        guard let first = pattern.first else { return path.isEmpty ? [:] : nil }
        let rest = pattern.dropFirst()
        if case .rest = first {
            // Try the shortest run first so later literals still get their chance.
            for skip in 0...path.count {
                if let captured = match(rest, path.dropFirst(skip)) { return captured }
            }
            return nil
        }
        guard let segment = path.first else { return nil }
        switch first {
        case .literal(let text):
            return text == segment ? match(rest, path.dropFirst()) : nil
        case .wildcard:
            return match(rest, path.dropFirst())
        case .parameter(let name):
            guard var captured = match(rest, path.dropFirst()) else { return nil }
            captured[name] = segment
            return captured
        case .rest:
            return nil
        }
    }

    var specificity: Int {
        switch self {
        case .literal: return 3
        case .parameter: return 2
        case .wildcard: return 1
        case .rest: return 0
        }
    }
}
