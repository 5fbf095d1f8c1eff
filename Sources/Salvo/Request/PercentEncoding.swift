/// Percent-encoding of user text for URLs and form bodies.
///
/// Everything but RFC 3986 "unreserved" characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so
/// `&`, `=`, `+`, `/`, `%`, spaces and emoji in a path segment or query value reach the server
/// exactly as the user wrote them.
enum PercentEncoding {
    /// Encodes one path segment or one query name or value.
    static func component(_ text: String) -> String {
        encode(text, spaceAsPlus: false)
    }

    /// Encodes one path segment: like `component`, but a segment of only dots becomes `%2E`
    /// or `%2E%2E`, which URL layers do not resolve, so user text never moves a request up the path.
    static func segment(_ text: String) -> String {
        switch text {
        case ".": return "%2E"
        case "..": return "%2E%2E"
        default: return component(text)
        }
    }

    /// Encodes path text whose `/` separate segments: like `component` on each segment, in one pass.
    static func path(_ text: String) -> String {
        encode(text, spaceAsPlus: false, keepingSlashes: true)
    }

    /// Encodes a form field name or value: like `component`, but a space becomes `+`.
    static func formField(_ text: String) -> String {
        encode(text, spaceAsPlus: true)
    }

    private static func encode(_ text: String, spaceAsPlus: Bool, keepingSlashes: Bool = false) -> String {
        let utf8 = text.utf8
        let slash: UInt8? = keepingSlashes ? UInt8(ascii: "/") : nil
        if utf8.allSatisfy({ isUnreserved($0) || $0 == slash }) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) || byte == slash {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
