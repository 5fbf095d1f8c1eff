import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `headers` on a request that has none yet; names are already unique ignoring case and
    /// values already validated by ``NetCall/urlRequest()``.
    ///
    /// The result is exactly what `setValue(_:forHTTPHeaderField:)` per field gives. On Linux that
    /// method re-validates the value, capitalises the name, searches the fields with a
    /// case-insensitive `NSString` compare and copies the dictionary, which made it a fifth of
    /// request building there (Docs/Performance.md); one assignment of names capitalised the same
    /// way does the same work without the repeats.
    mutating func setHeaderFields(_ headers: HTTPHeaders) {
        #if canImport(FoundationNetworking)
        guard !headers.isEmpty else { return }
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.fields.count)
        for field in headers {
            fields[Self.capitalizedName(field.name)] = field.value
        }
        allHTTPHeaderFields = fields
        #else
        for field in headers {
            setValue(field.value, forHTTPHeaderField: field.name)
        }
        #endif
    }

    #if canImport(FoundationNetworking)
    /// `name.capitalized`, as FoundationNetworking stores header names, without Foundation's
    /// Unicode machinery for names made of ASCII letters, digits and `-` (nearly all of them).
    ///
    /// Foundation upper-cases a letter that follows a non-letter and lower-cases one that follows a
    /// letter; `-` and digits are neither letters nor case-ignorable, so they start a new word.
    static func capitalizedName(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        var isAfterLetter = false
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                bytes.append(isAfterLetter ? byte : byte - 0x20)
                isAfterLetter = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes.append(isAfterLetter ? byte + 0x20 : byte)
                isAfterLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                bytes.append(byte)
                isAfterLetter = false
            default:
                return name.capitalized
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
