import Foundation

/// An RFC 8288 `Link` header: a list of targets, each with parameters such as `rel`.
///
/// Parsing is lenient, as a client's should be: quoted and unquoted parameter values, commas and
/// semicolons inside quotes or inside `<…>`, several relation types in one `rel`, any case in
/// names. A malformed link is skipped; the others are kept.
///
/// A response's links are ``NetworkResponse/links``; ``PagingStrategy/linkHeader(relation:)``
/// follows one relation of them.
///
/// ```swift
/// let header = LinkHeader(parsing: #"<https://api.example.com/items?page=3>; rel="next", </items?page=9>; rel="last""#)
/// header.target(forRelation: "next")   // "https://api.example.com/items?page=3"
/// header.url(forRelation: "last", relativeTo: response.url)   // https://api.example.com/items?page=9
/// ```
public struct LinkHeader: Sendable, Hashable {
    /// One link: a target URI reference and its parameters.
    public struct Link: Sendable, Hashable {
        /// The URI reference between `<` and `>`, absolute or relative, as sent.
        public let target: String
        /// The parameters by lowercased name, unquoted; the first of a repeated name wins (RFC 8288 §3).
        public let parameters: [String: String]

        /// A link from its parts.
        init(target: String, parameters: [String: String] = [:]) {
            self.target = target
            self.parameters = parameters
        }

        /// The relation types of `rel`, lowercased: `rel="next last"` has two.
        public var relations: [String] {
            (parameters["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        }
    }

    /// The links in the order they appear.
    public let links: [Link]

    /// Parses a `Link` header value; several header lines may be joined with commas first. A
    /// value with no well-formed link (or an empty one) has no links.
    public init(parsing value: String) {
        var scanner = Scanner(Array(value.unicodeScalars))
        var links: [Link] = []
        while !scanner.isAtEnd {
            if let link = scanner.link() { links.append(link) }
            scanner.skipToNextLink()
        }
        self.links = links
    }

    /// The target of the first link whose `rel` includes `relation` (any case), as sent:
    /// absolute or relative.
    public func target(forRelation relation: String) -> String? {
        let relation = relation.lowercased()
        return links.first { $0.relations.contains(relation) }?.target
    }

    /// The target of the first link with `relation` as an absolute URL, resolved against `base`
    /// when it is relative (pass the response's ``NetworkResponse/url``).
    ///
    /// - Parameters:
    ///   - relation: the relation type, in any case: `next`, `prev`, `first`, `last`, …
    ///   - base: the URL a relative target is resolved against.
    /// - Returns: `nil` when no link has the relation, or its target is not a URL.
    public func url(forRelation relation: String, relativeTo base: URL?) -> URL? {
        guard let target = target(forRelation: relation) else { return nil }
        return URL(string: target, relativeTo: base)?.absoluteURL
    }
}

/// A cursor over the header's characters.
private struct Scanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var isAtEnd: Bool { index >= scalars.count }

    private var current: Unicode.Scalar? { isAtEnd ? nil : scalars[index] }

    /// One link starting here, or nil when it is malformed.
    mutating func link() -> Link? {
        skipWhitespace()
        guard current == "<" else { return nil }
        index += 1
        guard let end = scalars[index...].firstIndex(of: ">") else {
            index = scalars.count
            return nil
        }
        let target = String(String.UnicodeScalarView(scalars[index..<end])).trimmingCharacters(in: .whitespaces)
        index = end + 1
        var parameters: [String: String] = [:]
        while true {
            skipWhitespace()
            guard current == ";" else { break }
            index += 1
            guard let (name, value) = parameter() else { continue }
            if parameters[name] == nil { parameters[name] = value }
        }
        return LinkHeader.Link(target: target, parameters: parameters)
    }

    /// Moves past the comma that ends this link (commas in quotes or `<…>` do not count).
    mutating func skipToNextLink() {
        while let scalar = current {
            index += 1
            switch scalar {
            case ",": return
            case "\"": _ = quotedString()
            default: continue
            }
        }
    }

    /// `name[=value]` after a `;`; a value may be a token or a quoted string.
    private mutating func parameter() -> (String, String)? {
        skipWhitespace()
        let name = token().lowercased()
        skipWhitespace()
        var value = ""
        if current == "=" {
            index += 1
            skipWhitespace()
            if current == "\"" {
                index += 1
                value = quotedString()
            } else {
                value = token()
            }
        }
        return name.isEmpty ? nil : (name, value)
    }

    private mutating func token() -> String {
        let start = index
        while let scalar = current, !Self.isDelimiter(scalar) { index += 1 }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    /// The unescaped content of a quoted string whose opening quote was consumed.
    private mutating func quotedString() -> String {
        var value = String.UnicodeScalarView()
        while let scalar = current {
            index += 1
            if scalar == "\"" { break }
            if scalar == "\\", let escaped = current {
                index += 1
                value.append(escaped)
            } else {
                value.append(scalar)
            }
        }
        return String(value)
    }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar == " " || scalar == "\t" { index += 1 }
    }

    private static func isDelimiter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ";" || scalar == "," || scalar == "=" || scalar == " " || scalar == "\t" || scalar == "\""
    }
}

private typealias Link = LinkHeader.Link
