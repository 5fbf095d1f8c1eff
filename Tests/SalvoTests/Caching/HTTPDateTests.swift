import Foundation
import Testing
@testable import Salvo

/// The HTTP-date reader of `Date`, `Expires`, `Last-Modified` and `Retry-After`: exactly the three
/// forms of RFC 9110 §5.6.7, read from their bytes (it runs on every hit), and nothing else.
@Suite struct HTTPDateTests {
    /// What `DateFormatter` reads `text` as in the IMF-fixdate form, the reference for the byte reader.
    static func formatted(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    /// Every month's first and last day across leap and common years, the epoch, and dates past 2038.
    static let fixdates: [String] = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        var dates: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_800_000_000), Date(timeIntervalSince1970: 4_102_444_799)]
        for year in [1994, 2000, 2024, 2100] {
            for month in 1...12 {
                for (day, time) in [(1, (0, 0, 0)), (28, (23, 59, 59)), (29, (12, 30, 7))] {
                    let components = DateComponents(year: year, month: month, day: day, hour: time.0, minute: time.1, second: time.2)
                    if let date = calendar.date(from: components), calendar.component(.month, from: date) == month { dates.append(date) }
                }
            }
        }
        return dates.map(formatter.string(from:))
    }()

    @Test("an IMF-fixdate reads as the DateFormatter reads it", arguments: fixdates)
    func fixdateMatchesFormatter(text: String) throws {
        let expected = try #require(Self.formatted(text))
        #expect(HTTPDate.fixdate(text) == expected)
        #expect(HTTPDate.date(text) == expected)
    }

    @Test("the RFC's example reads as 6 November 1994, 08:49:37 UTC")
    func rfcExample() {
        #expect(HTTPDate.fixdate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("the two obsolete forms read as the RFC's example", arguments: [
        "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func obsoleteForms(text: String) {
        #expect(HTTPDate.fixdate(text) == nil)
        #expect(HTTPDate.date(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("asctime with a two-digit day")
    func asctimeTwoDigitDay() {
        #expect(HTTPDate.date("Wed Nov 16 08:49:37 1994") == Date(timeIntervalSince1970: 784_111_777 + 10 * 86_400))
    }

    /// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the most recent past year
    /// with those digits; `50` is 2050 (24 years ahead in 2026) and `94` is 1994 until 2044.
    @Test("an RFC 850 two-digit year within 50 years ahead is this century's")
    func rfc850Century() {
        #expect(HTTPDate.date("Saturday, 01-Jan-50 00:00:00 GMT") == Date(timeIntervalSince1970: 2_524_608_000))
        #expect(HTTPDate.date("Sunday, 06-Nov-94 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    /// The pivot against a fixed moment, 2026-11-28: 76 is 2076 (50 years ahead), 77 is 1977.
    @Test("an RFC 850 year more than 50 years ahead is the past century's", arguments: [(0, 2000), (26, 2026), (50, 2050), (76, 2076), (77, 1977), (99, 1999)])
    func rfc850Pivot(twoDigits: Int, year: Int) {
        #expect(HTTPDate.year(ofTwoDigits: twoDigits, now: Date(timeIntervalSince1970: 1_795_824_000)) == year)
    }

    /// Lenient spellings `DateFormatter` accepted: each is no HTTP date, so an `Expires` that
    /// carries one means already expired (RFC 9111 §5.3).
    @Test("anything but the three forms is invalid", arguments: [
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun 06 Nov 1994 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
        "Sun, 06-Nov-1994 08:49:37 GMT", "Sun, 06.Nov.1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 +0000",
        "sun, 06 nov 1994 08:49:37 gmt", "Sunday, 06-Nov-94 08:49:37 UTC", "Sunday, 6-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sunday, 06-Nov-94 8:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994", "Sun Nov  6 08:49:37 1994 GMT", "Sun Nov 06 08:49:37 94", "Sun Nov  6 8:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT ", " Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 31-Feb-94 08:49:37 GMT",
    ])
    func rejectsLenientForms(text: String) {
        #expect(HTTPDate.date(text) == nil)
    }

    @Test("what is not a valid IMF-fixdate is not read as one", arguments: [
        "0", "-1", "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Xyz 1994 08:49:37 GMT", "Abc, 06 Nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT ", "Sun, 0a Nov 1994 08:49:37 GMT", "Sun,_06 Nov 1994 08:49:37 GMT",
    ])
    func rejectsMalformed(text: String) {
        #expect(HTTPDate.fixdate(text) == nil)
    }
}
