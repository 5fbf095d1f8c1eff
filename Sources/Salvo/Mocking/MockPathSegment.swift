import Foundation

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

    /// The non-empty segments of a percent-encoded path, each percent-decoded (kept as written
    /// when it does not decode), in one pass over the bytes: matching does this for every request.
    static func decodedSegments(_ path: String) -> [String] {
        var segments: [String] = []
        segments.reserveCapacity(8)
        let utf8 = path.utf8
        var start = utf8.startIndex
        var isEncoded = false
        var index = start
        func close(at end: String.Index) {
            guard start < end else { return }
            let segment = String(path[start..<end])
            segments.append(isEncoded ? segment.removingPercentEncoding ?? segment : segment)
        }
        while index < utf8.endIndex {
            switch utf8[index] {
            case UInt8(ascii: "/"):
                close(at: index)
                start = utf8.index(after: index)
                isEncoded = false
            case UInt8(ascii: "%"):
                isEncoded = true
            default:
                break
            }
            index = utf8.index(after: index)
        }
        close(at: utf8.endIndex)
        return segments
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
