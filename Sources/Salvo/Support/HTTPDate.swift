import Foundation

/// HTTP dates (RFC 9110 §5.6.7), as `Retry-After`, `Date`, `Expires` and `Last-Modified` carry
/// them: the IMF-fixdate form read from its bytes, the two obsolete forms through a formatter.
enum HTTPDate {
    /// The date in an HTTP date field: the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`, what
    /// servers send, RFC 9110 §5.6.7) read directly from its bytes, the obsolete forms through
    /// `formatted(_:)`; `nil` when unreadable.
    ///
    /// The cache reads `Date` (and often `Expires` or `Last-Modified`) on every hit, 304 and
    /// store: a `DateFormatter` made for each read cost ~0.3 ms on Linux, more than the rest of
    /// a memory hit many times over.
    static func date(_ text: String) -> Date? {
        fixdate(text) ?? formatted(text)
    }

    /// The IMF-fixdate `text` (29 bytes, `GMT`), or `nil` when it is not exactly one.
    static func fixdate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "), bytes[7] == UInt8(ascii: " "),
                  bytes[11] == UInt8(ascii: " "), bytes[16] == UInt8(ascii: " "), bytes[19] == UInt8(ascii: ":"),
                  bytes[22] == UInt8(ascii: ":"), bytes[25] == UInt8(ascii: " "),
                  bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"), bytes[28] == UInt8(ascii: "T"),
                  dayNames.contains(where: { $0.elementsEqual(bytes[0..<3]) }),
                  let monthIndex = monthNames.firstIndex(where: { $0.elementsEqual(bytes[8..<11]) }),
                  let day = number(bytes, 5, 2), let year = number(bytes, 12, 4), let hour = number(bytes, 17, 2),
                  let minute = number(bytes, 20, 2), let second = number(bytes, 23, 2),
                  (1...daysIn(month: monthIndex + 1, of: year)).contains(day), hour < 24, minute < 60, second < 61
            else { return nil }
            let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
            let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

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

    /// `text` in any of the three forms, through `DateFormatter`; `nil` when unreadable.
    static func formatted(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            // DateFormatter is not Sendable; a fresh one per read is fine for the forms servers no longer send.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
