import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct URLRequestHeaderFieldsTests {
    static let names = [
        "accept", "Content-Type", "x-b3-traceid", "WWW-Authenticate", "ETag", "x-request-ID", "a1b", "1a",
        "-a", "X_Custom", "x.y", "it's", "x~y", "straße", "X-Ünicode", "",
    ]

    @Test func headerFieldsMatchSettingEachFieldOnItsOwn() throws {
        var headers = HTTPHeaders()
        for (index, name) in Self.names.enumerated() where !name.isEmpty {
            headers[name] = "value \(index)"
        }
        let url = try #require(URL(string: "https://api.example.com/x"))
        var expected = URLRequest(url: url)
        for field in headers { expected.setValue(field.value, forHTTPHeaderField: field.name) }
        var built = URLRequest(url: url)
        built.setHeaderFields(headers)
        #expect(built.allHTTPHeaderFields == expected.allHTTPHeaderFields)
        #expect(built.value(forHTTPHeaderField: "CONTENT-TYPE") == "value 1")
    }

    @Test func noHeadersLeaveTheRequestWithout() throws {
        let url = try #require(URL(string: "https://api.example.com/x"))
        var built = URLRequest(url: url)
        built.setHeaderFields([:])
        #expect(built.allHTTPHeaderFields == URLRequest(url: url).allHTTPHeaderFields)
    }

    #if canImport(FoundationNetworking)
    @Test(arguments: names)
    func namesAreCapitalizedAsFoundationDoes(_ name: String) {
        #expect(URLRequest.capitalizedName(name) == name.capitalized)
    }
    #endif

    @Test(arguments: [("Accept", "accept", true), ("X-Trace", "x-trace", true), ("ETag", "etag", true),
                      ("Accept", "Accepts", false), ("X-A", "X_A", false), ("a[", "A{", false),
                      ("Straße", "STRASSE", "Straße".caseInsensitiveCompare("STRASSE") == .orderedSame),
                      ("Ünicode", "üNICODE", true)])
    func headerNamesCompareIgnoringCase(_ first: String, _ second: String, _ isSame: Bool) {
        var headers: HTTPHeaders = [first: "1"]
        headers[second] = "2"
        #expect(headers.fields.count == (isSame ? 1 : 2))
        #expect(headers.contains(second))
    }
}
