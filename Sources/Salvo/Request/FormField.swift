import Foundation

/// One `name=value` field of a form body or a URL query (`application/x-www-form-urlencoded`),
/// kept as sent so that code that rewrites one field leaves every other byte as it was.
///
/// Form bodies, query redaction, mock form matchers and `Link` next-page queries all read fields
/// through it.
package struct FormField {
    /// The name as sent: percent-encoded, `+` for a space.
    let rawName: Substring
    /// The value as sent, `nil` when the field has no `=`.
    let rawValue: Substring?
    /// The whole field as sent.
    let raw: Substring

    /// The name, decoded.
    package var name: String { Self.decode(rawName) }
    /// The value, decoded; `nil` when the field has no `=`.
    package var value: String? { rawValue.map(Self.decode) }

    /// The fields of `text` (`a=1&b=2`), in order; empty fields between `&&` are kept unless
    /// `omittingEmpty`, so a rewritten query keeps its shape.
    package static func fields(in text: Substring, omittingEmpty: Bool = false) -> [FormField] {
        text.split(separator: "&", omittingEmptySubsequences: omittingEmpty).map { field in
            guard let equals = field.firstIndex(of: "=") else { return FormField(rawName: field, rawValue: nil, raw: field) }
            return FormField(rawName: field[..<equals], rawValue: field[field.index(after: equals)...], raw: field)
        }
    }

    /// A name or value decoded as a form is: `+` is a space, then percent-decoding (the raw text
    /// when it is not valid percent-encoding).
    static func decode(_ raw: Substring) -> String {
        guard raw.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(raw) }
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
