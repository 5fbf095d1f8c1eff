/// A URL path whose interpolated values are single, percent-encoded path segments.
///
/// Literal text is path syntax (`/` separates segments); every interpolated value is one segment,
/// so user text with `/`, `?`, `%`, spaces or emoji arrives at the server exactly as given, and a
/// value of `.` or `..` is sent as `%2E` or `%2E%2E`: user text never moves a request up the path.
/// A `.` or `..` segment in literal text is refused (``NetworkError/invalidRequest(_:)``), because
/// the URL layer would silently remove it and send the request somewhere else.
///
/// ```swift
/// let fileName = "notes/2024 draft.txt"
/// let path: EndpointPath = "/users/\(userID)/files/\(fileName)"
/// // sent as /users/42/files/notes%2F2024%20draft.txt
/// ```
public struct EndpointPath: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The path as it goes on the wire, percent-encoded, without a leading `/`; an app reads it
    /// with the slash as ``description``.
    private(set) var percentEncoded: String
    /// Why the path cannot be sent, when its literal text holds `?`, `#` or a dot segment.
    let problem: String?

    /// A path from text where `/` separates segments; each segment is percent-encoded.
    ///
    /// `?` and `#` are not allowed here (put query items in the endpoint's `query`); such a path
    /// makes the call fail with ``NetworkError/invalidRequest(_:)``.
    public init(_ text: String) {
        var builder = StringInterpolation(literalCapacity: text.utf8.count, interpolationCount: 0)
        builder.appendLiteral(text)
        self.init(stringInterpolation: builder)
    }

    /// A path made of the given segments, each percent-encoded as a whole (`/` inside becomes `%2F`).
    public init(segments: [String]) {
        percentEncoded = segments.map(PercentEncoding.segment).joined(separator: "/")
        problem = nil
    }

    /// A path that is already percent-encoded, such as the path of a URL a server sent back.
    public init(percentEncoded: String) {
        self.percentEncoded = Self.trimmingLeadingSlashes(percentEncoded)
        problem = percentEncoded.contains(where: { $0 == "?" || $0 == "#" || $0 == " " })
            ? "percent-encoded path \"\(escaped(percentEncoded))\" contains '?', '#' or a space"
            : Self.dotSegmentProblem(in: self.percentEncoded)
    }

    /// A path from a literal without interpolations.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A path from a literal with interpolated segments.
    public init(stringInterpolation: StringInterpolation) {
        percentEncoded = Self.trimmingLeadingSlashes(stringInterpolation.encoded)
        problem = stringInterpolation.problem ?? Self.dotSegmentProblem(in: percentEncoded)
    }

    /// Whether the path has no segments.
    var isEmpty: Bool { percentEncoded.isEmpty }

    /// The path with a leading `/`, percent-encoded.
    public var description: String { "/" + percentEncoded }

    /// This path followed by `other`.
    public func appending(_ other: EndpointPath) -> EndpointPath {
        guard !other.isEmpty else { return self }
        guard !isEmpty else { return other }
        let joint = percentEncoded.hasSuffix("/") ? "" : "/"
        return EndpointPath(encoded: percentEncoded + joint + other.percentEncoded, problem: problem ?? other.problem)
    }

    private init(encoded: String, problem: String?) {
        self.percentEncoded = encoded
        self.problem = problem
    }

    /// A `.` or `..` segment that came from literal text (interpolated ones are already `%2E`):
    /// the URL layer would resolve it and send the request to another path, so it is refused.
    /// Mixed forms such as `.%2E` (a literal dot next to an interpolated one) count too, because
    /// servers that decode `%2E` before resolving would see `..`.
    private static func dotSegmentProblem(in encoded: String) -> String? {
        guard encoded.utf8.contains(UInt8(ascii: ".")),
              encoded.split(separator: "/", omittingEmptySubsequences: false).contains(where: dotSegments.contains) else {
            return nil
        }
        return "path \"/\(encoded)\" has a '.' or '..' segment, which the URL layer would remove and send the request elsewhere; write the path without it, or interpolate the value so it is sent as one segment"
    }

    private static let dotSegments: Set<Substring> = [".", "..", ".%2E", "%2E.", ".%2e", "%2e."]

    private static func trimmingLeadingSlashes(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        return String(path.drop { $0 == "/" })
    }

    /// Builds a path: literal text is split on `/`, interpolations are whole segments.
    public struct StringInterpolation: StringInterpolationProtocol {
        var encoded = ""
        var problem: String?

        /// Reserves room for the path.
        public init(literalCapacity: Int, interpolationCount: Int) {
            encoded.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends path syntax: `/` separates segments, other characters are encoded.
        public mutating func appendLiteral(_ literal: String) {
            if problem == nil, literal.contains(where: { $0 == "?" || $0 == "#" }) {
                problem = "path \"\(escaped(literal))\" contains '?' or '#'; put query items in the endpoint's query instead"
            }
            encoded += PercentEncoding.path(literal)
        }

        /// Appends one path segment; every reserved character in it is encoded, and a value of
        /// only `.` or `..` becomes `%2E` or `%2E%2E`.
        public mutating func appendInterpolation(_ segment: some CustomStringConvertible) {
            encoded += PercentEncoding.segment(segment.description)
        }
    }
}
