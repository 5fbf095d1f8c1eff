import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// What a response stored on a miss keeps of the network's head, read only when first needed.
@Suite struct HeadFieldsTests {
    static let url = URL(string: "https://api.example.com/item")!
    static let sent = [
        "Content-Type": "application/json", "Content-Length": "42", "Set-Cookie": "session=secret",
        "Cache-Control": "max-age=60", "ETag": "\"7\"",
    ]

    /// A head as `URLSession` reports it, and the same fields as a transport parses them.
    static func heads() throws -> [ResponseHead] {
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: sent))
        let reported = try #require(ResponseHead(response))
        let parsed = ResponseHead(statusCode: 200, fields: sent.map { HTTPHeaders.Field(name: $0.key, value: $0.value) }, url: url)
        return [reported, parsed]
    }

    @Test func keepsEveryFieldButTheHiddenOnes() throws {
        for head in try Self.heads() {
            let fields = HeadFields(head, hiding: Redaction.default.headers).fields
            #expect(Set(fields.map { $0.name.lowercased() }) == ["content-type", "content-length", "cache-control", "etag"])
            #expect(ResponseHead.value(of: "cache-control", in: fields) == "max-age=60")
        }
    }

    @Test func looksUpAFieldTheSameBeforeAndAfterTheFieldsAreRead() throws {
        for head in try Self.heads() {
            let kept = HeadFields(head, hiding: Redaction.default.headers)
            let names = ["cache-control", "ETAG", "Set-Cookie", "content-length", "Expires"]
            let before = names.map { kept.value(forField: $0) }
            #expect(before == ["max-age=60", "\"7\"", nil, "42", nil])
            _ = kept.fields
            #expect(names.map { kept.value(forField: $0) } == before)
        }
    }

    @Test func countsParsedFieldsAndAFoundationResponsesUnreadOnesAsAKibibyte() throws {
        let heads = try Self.heads()
        let reported = HeadFields(heads[0], hiding: Redaction.default.headers)
        #expect(reported.byteCount == HeadFields.unreadByteCount)
        let read = reported.fields
        #expect(reported.byteCount == CachedResponse.byteCount(of: read))
        let parsed = try #require(heads[1].parsedFields)
        #expect(HeadFields(heads[1], hiding: []).byteCount == CachedResponse.byteCount(of: parsed))
    }

    @Test func aResponseStoredFromAHeadEqualsOneStoredWithTheSameFields() throws {
        for head in try Self.heads() {
            let kept = HeadFields(head, hiding: Redaction.default.headers)
            let now = Date(timeIntervalSince1970: 1_000)
            let lazy = CachedResponse(statusCode: 200, head: kept, url: Self.url, requestTime: now, responseTime: now, variant: [:], body: Data("{}".utf8))
            let given = CachedResponse(statusCode: 200, fields: kept.fields, url: Self.url, requestTime: now, responseTime: now, variant: [:], body: Data("{}".utf8))
            #expect(lazy == given)
            #expect(lazy.hashValue == given.hashValue)
            #expect(lazy.value(forField: "etag") == "\"7\"")
        }
    }

    /// RFC 9111 §3.1 and RFC 9110 §7.6.1: what a stored response never keeps, one row per rule.
    struct Dropped: Sendable, CustomTestStringConvertible {
        let rule: String
        let fields: [String: String]
        let kept: Set<String>
        var testDescription: String { rule }
    }

    static let dropped: [Dropped] = [
        Dropped(rule: "§3.1 Content-Length is kept", fields: ["Content-Length": "42", "ETag": "\"7\""], kept: ["content-length", "etag"]),
        Dropped(rule: "§3.1 Proxy-Authenticate and Proxy-Authentication-Info are never kept",
                fields: ["Proxy-Authenticate": "Basic realm=\"p\"", "Proxy-Authentication-Info": "nextnonce=\"n\"", "ETag": "\"7\""], kept: ["etag"]),
        Dropped(rule: "§3.1 the fields Connection names are never kept, nor Connection",
                fields: ["Connection": "X-Hop, x-other", "X-Hop": "1", "X-Other": "2", "ETag": "\"7\""], kept: ["etag"]),
        Dropped(rule: "§3.1 hop-by-hop fields are never kept",
                fields: ["Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked", "Upgrade": "h2c", "ETag": "\"7\""], kept: ["etag"]),
        Dropped(rule: "Set-Cookie is never kept, whatever the redaction (a deliberate deviation from §3.1)",
                fields: ["Set-Cookie": "session=secret", "ETag": "\"7\""], kept: ["etag"]),
        Dropped(rule: "a decoded body's Content-Length (of the encoded bytes) and Content-Encoding are not kept",
                fields: ["Content-Encoding": "gzip", "Content-Length": "50", "ETag": "\"7\""], kept: ["etag"]),
    ]

    @Test(arguments: dropped)
    func neverKeeps(_ row: Dropped) throws {
        let response = try #require(HTTPURLResponse(url: Self.url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: row.fields))
        let reported = try #require(ResponseHead(response))
        let parsed = ResponseHead(statusCode: 200, fields: row.fields.map { HTTPHeaders.Field(name: $0.key, value: $0.value) }, url: Self.url)
        for head in [reported, parsed] {
            // No redaction: what a stored response never keeps does not depend on one.
            let kept = HeadFields(head, hiding: [])
            let names = row.fields.keys.map { $0.lowercased() }
            #expect(Set(names.filter { kept.value(forField: $0) != nil }) == row.kept, "looked up before they are read")
            #expect(Set(kept.fields.map { $0.name.lowercased() }) == row.kept)
            #expect(Set(names.filter { kept.value(forField: $0) != nil }) == row.kept, "looked up once read")
        }
    }

    /// RFC 9111 §3.2: a `304` updates the stored fields but `Content-Length` and what is never stored.
    @Test func a304MergesItsFieldsButContentLengthAndHopByHopOnes() throws {
        let now = Date(timeIntervalSince1970: 1_000)
        let stored = CachedResponse(statusCode: 200, fields: [.init(name: "Content-Length", value: "2"), .init(name: "ETag", value: "\"7\"")],
                                    url: Self.url, requestTime: now, responseTime: now, variant: [:], body: Data("{}".utf8))
        let notModified = ResponseHead(statusCode: 304, fields: [
            .init(name: "Content-Length", value: "999"), .init(name: "ETag", value: "\"8\""), .init(name: "Proxy-Authenticate", value: "Basic"),
            .init(name: "Connection", value: "X-Hop"), .init(name: "X-Hop", value: "1"), .init(name: "Cache-Control", value: "max-age=5"),
        ], url: Self.url)
        let updated = stored.updated(by: notModified, requestTime: now, responseTime: now, hiding: Redaction.default.headers)
        #expect(updated.fields.map(\.name) == ["Content-Length", "ETag", "Cache-Control"])
        #expect(updated.value(forField: "Content-Length") == "2")
        #expect(updated.value(forField: "ETag") == "\"8\"")
    }
}
