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

    @Test func keepsEveryFieldButTheFramingAndHiddenOnes() throws {
        for head in try Self.heads() {
            let fields = HeadFields(head, hiding: Redaction.default.headers).fields
            #expect(Set(fields.map { $0.name.lowercased() }) == ["content-type", "cache-control", "etag"])
            #expect(ResponseHead.value(of: "cache-control", in: fields) == "max-age=60")
        }
    }

    @Test func looksUpAFieldTheSameBeforeAndAfterTheFieldsAreRead() throws {
        for head in try Self.heads() {
            let kept = HeadFields(head, hiding: Redaction.default.headers)
            let names = ["cache-control", "ETAG", "Set-Cookie", "content-length", "Expires"]
            let before = names.map { kept.value(forField: $0) }
            #expect(before == ["max-age=60", "\"7\"", nil, nil, nil])
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
}
