import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// Item 6 of issue 15: HAR 1.2 captures become fixtures, and fixtures export as HAR, redacted.
@Suite struct HTTPArchiveTests {
    /// A capture shaped like a browser's export: HTTP/2 pseudo-headers, gzip already decoded,
    /// a repeated request, a binary body and a secret in a header and a query item.
    static let capture = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [],
      "entries": [
        {"startedDateTime": "2026-11-20T10:00:00.000Z", "time": 12,
         "request": {"method": "GET", "url": "https://shop.example/api/cart?api_key=s3cret", "httpVersion": "h2",
                     "headers": [{"name": ":authority", "value": "shop.example"}, {"name": "authorization", "value": "Bearer live"}],
                     "queryString": [{"name": "api_key", "value": "s3cret"}], "cookies": [], "headersSize": -1, "bodySize": 0},
         "response": {"status": 200, "statusText": "", "httpVersion": "h2",
                      "headers": [{"name": "content-type", "value": "application/json"}, {"name": "content-encoding", "value": "gzip"}],
                      "cookies": [], "content": {"size": 12, "mimeType": "application/json", "text": "{\"items\":[]}"},
                      "redirectURL": "", "headersSize": -1, "bodySize": 40},
         "cache": {}, "timings": {"send": 1, "wait": 10, "receive": 1}},
        {"startedDateTime": "2026-11-20T10:00:01.000Z", "time": 9,
         "request": {"method": "POST", "url": "https://shop.example/api/cart/items", "headers": [],
                     "postData": {"mimeType": "application/json", "text": "{\"sku\":\"tea\"}"}},
         "response": {"status": 201, "headers": [], "content": {"size": 0, "mimeType": "x-unknown"}}},
        {"request": {"method": "GET", "url": "https://shop.example/api/cart?api_key=s3cret", "headers": []},
         "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
                      "content": {"text": "{\"items\":[\"tea\"]}"}}},
        {"request": {"method": "GET", "url": "https://shop.example/logo.png", "headers": []},
         "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "image/png"}],
                      "content": {"text": "iVBORw0KGgo=", "encoding": "base64"}}}
      ]}}
    """#

    static func fire(_ endpoint: Endpoint, _ firing: FiringFunction) async throws -> NetworkResponse {
        try await NetCall(server: ServerConfig(host: "shop.example"), endpoint: endpoint, callbackQueue: .immediate, firingFunction: firing).response()
    }

    @Test func aBrowserCaptureReplaysInOrderWithSecretsRedacted() async throws {
        let folder = try TemporaryFolder()
        let written = try HTTPArchive.importFixtures(from: Data(Self.capture.utf8), into: folder.url)
        #expect(written.count == 4)
        #expect(written[2] == FixtureOccurrences.fileName(written[0], occurrence: 2))
        let replay = FiringFunction.replaying(from: folder.url)
        let cart = Endpoint.get("/api/cart", query: ["api_key": "s3cret"])
        #expect(String(decoding: try await Self.fire(cart, replay).data, as: UTF8.self) == #"{"items":[]}"#)
        #expect(try await Self.fire(.post("/api/cart/items", body: .json(["sku": "tea"])), replay).statusCode == 201)
        #expect(String(decoding: try await Self.fire(cart, replay).data, as: UTF8.self) == #"{"items":["tea"]}"#)
        #expect(try await Self.fire(.get("/logo.png"), replay).data == Data(base64Encoded: "iVBORw0KGgo="))
        for name in written {
            let text = try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("s3cret") && !text.contains("Bearer live") && !text.contains(":authority") && !text.lowercased().contains("gzip"))
        }
    }

    @Test func exportWritesHAR12ThatImportsBackToTheSameFixtures() throws {
        let folder = try TemporaryFolder(), again = try TemporaryFolder()
        try HTTPArchive.importFixtures(from: Data(Self.capture.utf8), into: folder.url)
        let har = try HTTPArchive.exportData(fixturesIn: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: har) as? [String: Any])
        let log = try #require(object["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 4)
        for entry in entries {
            for key in ["startedDateTime", "time", "request", "response", "cache", "timings"] { #expect(entry[key] != nil, "HAR 1.2 requires \(key)") }
        }
        #expect(try HTTPArchive.exportData(fixturesIn: folder.url) == har, "the same fixtures give the same bytes")
        try HTTPArchive.importFixtures(from: har, into: again.url)
        #expect(try again.fileNames() == folder.fileNames())
        for name in try folder.fileNames() {
            let original = try Fixture.load(from: folder.url.appendingPathComponent(name))
            let roundTripped = try Fixture.load(from: again.url.appendingPathComponent(name))
            #expect(original.response == roundTripped.response)
            #expect(original.request.url == roundTripped.request.url)
        }
    }

    @Test func exportRedactsAgainSoAHandEditedSecretDoesNotLeak() throws {
        let folder = try TemporaryFolder(), har = try TemporaryFolder()
        let fixture = #"{"version": 1, "request": {"method": "GET", "url": "https://h.example/x?token=abc", "headers": {"Authorization": "Bearer hand-edited"}},"#
            + #" "response": {"status": 200, "headers": {"Set-Cookie": "s=1", "Content-Type": "application/json"}, "body": {"text": "{\"access_token\":\"leak\"}"}}}"#
        try Data(fixture.utf8).write(to: folder.url.appendingPathComponent("GET_x_000000000000.json"))
        let file = har.url.appendingPathComponent("out.har")
        try HTTPArchive.export(fixturesIn: folder.url, to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("hand-edited") && !text.contains("abc") && !text.contains("leak") && !text.contains("s=1"))
        #expect(text.contains("&lt;redacted&gt;") || text.contains("<redacted>"))
    }

    @Test(arguments: [
        ("not json", "is not an HTTP Archive"),
        (#"{"log": {}}"#, "is not an HTTP Archive"),
        (#"{"log": {"entries": [{"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200}}]}}"#, "entry 1 of HAR data has a request url \"/relative\" that is not an absolute URL"),
        (#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://h.example/"}, "response": {"status": 42}}]}}"#, "entry 1 of HAR data has status 42"),
        (#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://h.example/"}, "response": {"status": 200, "content": {"text": "%%", "encoding": "base64"}}}]}}"#, "not valid base64"),
    ])
    func badArchivesFailWithAMessageAndNeverCrash(document: String, message: String) throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: NetworkError.self) { try HTTPArchive.importFixtures(from: Data(document.utf8), into: folder.url) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error?.description))")
    }
}
