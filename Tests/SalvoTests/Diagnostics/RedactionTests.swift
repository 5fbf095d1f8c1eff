import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct RedactionTests {
    @Test func defaultHidesCredentialHeadersInAnyCaseAndKeepsOthers() {
        let headers: HTTPHeaders = ["authorization": "Bearer s3cret", "Accept": "application/json", "COOKIE": "a=b", "Set-Cookie": "c=d"]
        let redacted = Redaction.default.redact(headers)
        #expect(redacted.fields.map(\.name) == ["authorization", "Accept", "COOKIE", "Set-Cookie"])
        #expect(redacted["Authorization"] == Redaction.placeholder)
        #expect(redacted["Cookie"] == Redaction.placeholder)
        #expect(redacted["set-cookie"] == Redaction.placeholder)
        #expect(redacted["Accept"] == "application/json")
    }

    @Test func configuredHeadersAreHiddenToo() {
        let redaction = Redaction.default.adding(headers: ["X-Api-Key"])
        #expect(redaction.redact(["x-api-key": "k"] as HTTPHeaders)["X-API-KEY"] == Redaction.placeholder)
        #expect(redaction.hidesHeader("Authorization"))
    }

    @Test func queryKeysAreHiddenAndEverythingElseIsKeptByteForByte() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/users?page=2&access_token=abc%2Fdef&q=a%20b&Access_Token=x&flag"))
        let redacted = Redaction(queryKeys: ["access_token"]).redact(url)
        #expect(redacted.absoluteString == "https://api.example.com/v1/users?page=2&access_token=%3Credacted%3E&q=a%20b&Access_Token=%3Credacted%3E&flag")
    }

    @Test func urlWithoutHiddenKeysIsUnchanged() throws {
        let url = try #require(URL(string: "https://api.example.com/a?b=c"))
        #expect(Redaction.default.redact(url) == url)
        #expect(Redaction(queryKeys: ["token"]).redact(url) == url)
    }

    @Test func requestHeadersAndURLAreHiddenButTheBodyIsKept() throws {
        var request = URLRequest(url: try #require(URL(string: "https://h.example/p?token=t1&x=1")))
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        request.setValue("v", forHTTPHeaderField: "X-Other")
        request.httpBody = Data("body".utf8)
        let redacted = Redaction.default.adding(queryKeys: ["token"]).redact(request)
        #expect(redacted.value(forHTTPHeaderField: "Authorization") == Redaction.placeholder)
        #expect(redacted.value(forHTTPHeaderField: "X-Other") == "v")
        #expect(redacted.url?.absoluteString == "https://h.example/p?token=%3Credacted%3E&x=1")
        #expect(redacted.httpBody == Data("body".utf8))
    }

    @Test(arguments: ["access_token", "Refresh_Token", "ID_TOKEN", "client_secret", "api_key", "ApiKey", "password", "token", "Signature"])
    func defaultHidesConventionalSecretKeysInAnyCase(_ key: String) throws {
        let url = try #require(URL(string: "https://api.example.com/x?page=2&\(key)=s3cr3t-value"))
        #expect(Redaction.default.redact(url).absoluteString == "https://api.example.com/x?page=2&\(key)=%3Credacted%3E")
        let form = Redaction.default.redact(Data("user=ann&\(key)=s3cr3t-value".utf8), contentType: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(String(decoding: form, as: UTF8.self) == "user=ann&\(key)=<redacted>")
    }

    @Test func jsonBodyFieldsAreHiddenAtAnyDepthAndOtherBodiesAreKeptByteForByte() throws {
        let body = Data(#"{"user":{"name":"ann","credentials":[{"Password":"hunter22"}]},"token":{"value":"t0k3n"}}"#.utf8)
        let redacted = String(decoding: Redaction.default.redact(body, contentType: "application/json"), as: UTF8.self)
        #expect(redacted == #"{"token":"<redacted>","user":{"credentials":[{"Password":"<redacted>"}],"name":"ann"}}"#)
        #expect(Set(Redaction.default.hiddenValues(inBody: body, contentType: nil)) == ["hunter22", "t0k3n"])
        let plain = Data(#"{ "name" : "ann" }"#.utf8)
        #expect(Redaction.default.redact(plain, contentType: "application/json") == plain)
        #expect(Redaction().redact(body, contentType: "application/json") == body)
    }
}
