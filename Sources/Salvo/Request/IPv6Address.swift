/// Validation of IPv6 address text (RFC 4291 §2.2), for hosts given as IP literals.
///
/// Accepts the three text forms: eight groups of 1–4 hex digits (`2001:db8:0:0:0:0:0:1`), `::`
/// once in place of one or more zero groups (`2001:db8::1`, `::1`, `::`), and a dotted IPv4 tail in
/// place of the last two groups (`::ffff:192.0.2.1`). Zone IDs (`fe80::1%eth0`) are refused: a
/// zone only means something on the machine that sends, and URL layers disagree on its encoding.
enum IPv6Address {
    /// Whether `text` (without brackets) is a valid IPv6 address.
    static func isValid(_ text: Substring) -> Bool {
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        switch halves.count {
        case 1:
            return groupCount(halves[0], allowsIPv4Tail: true) == 8
        case 2:
            guard let before = groupCount(halves[0], allowsIPv4Tail: false),
                  let after = groupCount(halves[1], allowsIPv4Tail: true) else { return false }
            return before + after <= 7
        default:
            return false
        }
    }

    /// How many 16-bit groups `part` holds (an IPv4 tail counts two), or `nil` when it is malformed.
    private static func groupCount(_ part: Substring, allowsIPv4Tail: Bool) -> Int? {
        guard !part.isEmpty else { return 0 }
        let fields = part.split(separator: ":", omittingEmptySubsequences: false)
        var count = 0
        for (index, field) in fields.enumerated() {
            if allowsIPv4Tail, index == fields.count - 1, field.contains(".") {
                guard isIPv4(field) else { return nil }
                count += 2
            } else {
                guard (1...4).contains(field.utf8.count), field.utf8.allSatisfy(isHexDigit) else { return nil }
                count += 1
            }
        }
        return count
    }

    /// Four decimal octets 0–255 without leading zeros (RFC 3986 `dec-octet`).
    private static func isIPv4(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { octet in
            guard (1...3).contains(octet.utf8.count),
                  octet.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  octet.utf8.count == 1 || octet.utf8.first != UInt8(ascii: "0"),
                  let value = Int(octet) else { return false }
            return value <= 255
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
