import Foundation
import Testing
@testable import Salvo

/// The cache's HTTP-date reader: IMF-fixdate straight from its bytes (it runs on every hit),
/// agreeing with the `DateFormatter` reading of RFC 9110 §5.6.7 it replaces on the hot path.
@Suite struct HTTPDateTests {
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
        let expected = try #require(HTTPDate.formatted(text))
        #expect(HTTPDate.fixdate(text) == expected)
        #expect(HTTPDate.date(text) == expected)
    }

    @Test("the RFC's example reads as 6 November 1994, 08:49:37 UTC")
    func rfcExample() {
        #expect(HTTPDate.fixdate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("the obsolete forms still read, through the formatter")
    func obsoleteForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.fixdate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.date("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.date("Sun Nov  6 08:49:37 1994") == expected)
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
