import Foundation

/// HTTP dates (RFC 9110 §5.6.7), as `Retry-After`, `Date`, `Expires` and `Last-Modified` carry
/// them: exactly the three forms the RFC names, read from their bytes, and nothing else.
///
/// | form | example |
/// |---|---|
/// | IMF-fixdate (what servers send) | `Sun, 06 Nov 1994 08:49:37 GMT` |
/// | RFC 850 (obsolete) | `Sunday, 06-Nov-94 08:49:37 GMT` |
/// | asctime (obsolete) | `Sun Nov  6 08:49:37 1994` |
///
/// Names of days and months, `GMT`, the spaces and the digits' count are as the grammar spells
/// them (case included): `UTC` for `GMT`, a missing comma, two spaces, dashes or dots in an
/// IMF-fixdate, or a one-digit hour make no date. The cache reads an `Expires` that is no date
/// as already expired (RFC 9111 §5.3).
enum HTTPDate {
    /// The date in an HTTP date field, in any of the three forms; `nil` when it is none of them.
    ///
    /// - Parameters:
    ///   - text: the field's value.
    ///   - now: the moment an RFC 850 two-digit year is read against, the current time when `nil`:
    ///     one more than 50 years ahead of `now`'s year is the past century's (RFC 9110 §5.6.7).
    ///
    /// The cache reads `Date` (and often `Expires` or `Last-Modified`) on every hit, 304 and
    /// store: a `DateFormatter` made for each read cost ~0.3 ms on Linux, more than the rest of
    /// a memory hit many times over.
    static func date(_ text: String, now: Date? = nil) -> Date? {
        if let date = fixdate(text) { return date }
        var text = text
        return text.withUTF8 { bytes in rfc850(bytes, now: now ?? Date()) ?? asctime(bytes) }
    }

    /// The IMF-fixdate `text` (29 bytes: `Sun, 06 Nov 1994 08:49:37 GMT`), or `nil` when it is not exactly one.
    static func fixdate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 29, bytes[3] == comma, bytes[4] == space, bytes[7] == space, bytes[11] == space, bytes[16] == space,
                  isGMT(bytes, at: 26), isName(bytes, at: 0, in: dayNames),
                  let month = month(bytes, at: 8), let day = number(bytes, 5, 2), let year = number(bytes, 12, 4)
            else { return nil }
            return date(year: year, month: month, day: day, time: bytes, at: 17)
        }
    }

    /// The RFC 850 date in `bytes` (`Sunday, 06-Nov-94 08:49:37 GMT`), its two-digit year read
    /// against `now`.
    private static func rfc850(_ bytes: UnsafeBufferPointer<UInt8>, now: Date) -> Date? {
        guard let comma = bytes.firstIndex(of: Self.comma),
              longDayNames.contains(where: { $0.elementsEqual(bytes[0..<comma]) }),
              bytes.count == comma + 24, bytes[comma + 1] == space, bytes[comma + 4] == dash, bytes[comma + 8] == dash,
              bytes[comma + 11] == space, bytes[comma + 20] == space, isGMT(bytes, at: comma + 21),
              let day = number(bytes, comma + 2, 2), let month = month(bytes, at: comma + 5), let twoDigits = number(bytes, comma + 9, 2)
        else { return nil }
        return date(year: year(ofTwoDigits: twoDigits, now: now), month: month, day: day, time: bytes, at: comma + 12)
    }

    /// The asctime date in `bytes` (`Sun Nov  6 08:49:37 1994`, the day a space and a digit
    /// below 10), in GMT.
    private static func asctime(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 24, bytes[3] == space, bytes[7] == space, bytes[10] == space, bytes[19] == space,
              isName(bytes, at: 0, in: dayNames), let month = month(bytes, at: 4), let year = number(bytes, 20, 4)
        else { return nil }
        let day: Int
        if bytes[8] == space, let digit = number(bytes, 9, 1) {
            day = digit
        } else if let digits = number(bytes, 8, 2), digits >= 10 {
            day = digits
        } else {
            return nil
        }
        return date(year: year, month: month, day: day, time: bytes, at: 11)
    }

    /// The year a two-digit RFC 850 year stands for: this century's, unless that is more than 50
    /// years ahead of `now`'s year, then the century before (RFC 9110 §5.6.7).
    static func year(ofTwoDigits twoDigits: Int, now: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let currentYear = calendar.component(.year, from: now)
        let century = currentYear - currentYear % 100
        let candidate = century + twoDigits
        return candidate > currentYear + 50 ? candidate - 100 : candidate
    }

    /// The moment of `year`, `month`, `day` and the `HH:MM:SS` at `start` in `bytes`, or `nil`
    /// when any is out of range.
    private static func date(year: Int, month: Int, day: Int, time bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Date? {
        guard bytes[start + 2] == colon, bytes[start + 5] == colon,
              let hour = number(bytes, start, 2), let minute = number(bytes, start + 3, 2), let second = number(bytes, start + 6, 2),
              (1...daysIn(month: month, of: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let colon = UInt8(ascii: ":")
    private static let dash = UInt8(ascii: "-")
    private static let gmt = Array("GMT".utf8)
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    /// Whether the three bytes at `start` are one of `names`.
    private static func isName(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in names: [[UInt8]]) -> Bool {
        names.contains { $0.elementsEqual(bytes[start..<(start + 3)]) }
    }

    /// Whether `GMT` is at `start`.
    private static func isGMT(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        gmt.elementsEqual(bytes[start..<(start + 3)])
    }

    /// The month (1–12) named by the three bytes at `start`.
    private static func month(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        monthNames.firstIndex { $0.elementsEqual(bytes[start..<(start + 3)]) }.map { $0 + 1 }
    }

    /// The decimal number in `count` bytes at `start`; `nil` when one is not a digit.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
