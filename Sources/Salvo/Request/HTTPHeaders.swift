import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ordered set of HTTP header fields whose names compare case-insensitively.
///
/// Setting a field replaces any field with the same name in any case, keeping its position.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["accept"] = "text/plain"      // replaces, one field remains
/// headers["X-Trace"] = "abc"
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One header field as it will be sent.
    public struct Field: Sendable, Hashable {
        /// The name, with the case it was given.
        public let name: String
        /// The value.
        public let value: String

        /// A field named `name` with `value`.
        @_spi(Transport) public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were first set; outside Salvo, the headers iterate them.
    private(set) var fields: [Field] = []

    /// No fields; `[:]` outside Salvo.
    init() {}

    /// Fields from `(name, value)` pairs, later pairs replacing earlier ones with the same name.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, String) {
        for (name, value) in pairs { self[name] = value }
    }

    /// Fields from a dictionary literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The response's header fields.
    @_spi(Transport) public init(_ response: HTTPURLResponse) {
        self.init(response.allHeaderFields.compactMap { key, value in
            (key as? String).map { ($0, "\(value)") }
        })
    }

    /// The value of the field named `name` in any case; setting `nil` removes it.
    public subscript(name: String) -> String? {
        get { index(of: name).map { fields[$0].value } }
        set {
            if let newValue {
                if let index = index(of: name) {
                    fields[index] = Field(name: name, value: newValue)
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else if let index = index(of: name) {
                fields.remove(at: index)
            }
        }
    }

    /// Whether a field named `name` (any case) is present.
    func contains(_ name: String) -> Bool { index(of: name) != nil }

    /// These fields with `other`'s fields set on top: `other` wins on a shared name.
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var merged = self
        for field in other.fields { merged[field.name] = field.value }
        return merged
    }

    /// Whether there are no fields.
    var isEmpty: Bool { fields.isEmpty }

    /// The fields as a dictionary, for APIs that want one.
    package var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private func index(of name: String) -> Int? {
        fields.firstIndex { Self.namesMatch($0.name, name) }
    }

    /// Whether two field names are equal ignoring case.
    ///
    /// Header names are ASCII tokens, so they are compared byte by byte with ASCII case folding;
    /// Foundation's `caseInsensitiveCompare`, many times slower on Linux, only decides for non-ASCII text.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case let (a?, b?) where a < 0x80 && b < 0x80:
                let folded = a | 0x20
                guard a == b || (folded == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(folded)) else {
                    return false
                }
            case (nil, let byte?) where byte < 0x80, (let byte?, nil) where byte < 0x80:
                return false
            default:
                return lhs.caseInsensitiveCompare(rhs) == .orderedSame
            }
        }
    }

    /// Equal when the same names (ignoring case) have the same values in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value }
    }

    /// Hashes names lowercased, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension HTTPHeaders: Sequence {
    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

extension String {
    /// Whether the text holds a CR, an LF or a NUL: in a header value it would end the line and
    /// let whatever follows pass as another header (header injection).
    var breaksHeaderLine: Bool {
        utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
