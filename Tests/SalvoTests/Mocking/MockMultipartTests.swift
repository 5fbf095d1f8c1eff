import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// A mock request's multipart form read part by part, and routes that match on its parts.
@Suite struct MockMultipartTests {
    private let api = ServerConfig(host: "api.example.com")

    private func request(_ body: RequestBody) throws -> MockRequest {
        MockRequest(try NetCall(server: api, endpoint: .post("/photos", body: body)).urlRequest())
    }

    @Test func aFormReadsAsItsPartsWithNamesFileNamesTypesHeadersAndContent() throws {
        let photo = try TemporaryFile(named: "bay.jpg", contents: Data(repeating: 0x5A, count: 3000))
        let request = try request(.multipart([
            .field("caption", "Bay at dusk"),
            .data(Data([0, 1, 2]), name: "thumb", fileName: "thumb.png", contentType: "image/png"),
            .file(photo.url, name: "photo"),
        ]))
        let parts = try #require(request.parts)
        #expect(parts.map(\.name) == ["caption", "thumb", "photo"])
        #expect(parts.map(\.fileName) == [nil, "thumb.png", "bay.jpg"])
        #expect(parts.map(\.contentType) == [nil, "image/png", "image/jpeg"])
        #expect(parts[0].text == "Bay at dusk")
        #expect(parts[1].body == Data([0, 1, 2]))
        #expect(parts[2].body == Data(repeating: 0x5A, count: 3000))
        #expect(parts[1].headers["content-disposition"] == #"form-data; name="thumb"; filename="thumb.png""#)
    }

    @Test func namesWithQuotesAndLineBreaksReadAsTheyWereGiven() throws {
        let parts = try #require(try request(.multipart([.data(Data("x".utf8), name: "a\"b\r\nc", fileName: "say \"hi\".txt")])).parts)
        #expect(parts.first?.name == "a\"b\r\nc")
        #expect(parts.first?.fileName == "say \"hi\".txt")
    }

    @Test func aPartWhoseContentHoldsCRLFKeepsItAndAnEmptyFieldIsEmpty() throws {
        let parts = try #require(try request(.multipart([.field("note", "one\r\n\r\ntwo\r\n"), .field("empty", "")])).parts)
        #expect(parts.map(\.text) == ["one\r\n\r\ntwo\r\n", ""])
    }

    @Test func aBodyThatIsNotACompleteFormHasNoParts() throws {
        #expect(try request(.json(["a": 1])).parts == nil)
        var truncated = URLRequest(url: try #require(URL(string: "https://api.example.com/photos")))
        truncated.setValue("multipart/form-data; boundary=B", forHTTPHeaderField: "Content-Type")
        truncated.httpBody = Data("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1".utf8)
        #expect(MockRequest(truncated).parts == nil)
        truncated.httpBody = Data("--B\r\nno colon here\r\n\r\n1\r\n--B--\r\n".utf8)
        #expect(MockRequest(truncated).parts == nil)
        truncated.httpBody = Data("preamble\r\n--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B--\r\nepilogue".utf8)
        #expect(MockRequest(truncated).parts?.map(\.text) == ["1"], "a preamble and an epilogue are ignored")
    }

    @Test func theBoundaryInsideALineOfContentIsContentAndPaddingAfterADelimiterIsAllowed() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/photos")))
        request.setValue(#"multipart/form-data; boundary="B""#, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("--B \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--Bx\r\n--B\r\n\r\nno headers\r\n--B--".utf8)
        let parts = try #require(MockRequest(request).parts)
        #expect(parts.map(\.text) == ["x\r\n--Bx", "no headers"])
        #expect(parts.map(\.name) == ["a", nil])
    }

    private func status(of body: RequestBody, routes: MockRoutes) async -> Result<Int?, NetworkError> {
        var call = NetCall(server: api, endpoint: .post("/photos", body: body), callbackQueue: .immediate)
        call.firingFunction = .mock(routes)
        do { return .success(try await call.response().head?.statusCode) } catch { return .failure(error) }
    }

    private let photoRoutes = MockRoutes([
        MockRoute.post("/photos", .status(201)).matching(
            .multipartFields(["caption": "*", "album": "Holiday"]),
            .multipartPart(named: "photo", fileName: "bay.jpg", contentType: "image/jpeg", body: Data("jpeg".utf8))
        ),
    ])

    @Test func aRouteMatchesOnTheFormsFieldsAndFilePart() async throws {
        let body = RequestBody.multipart([
            .field("album", "Holiday"), .field("caption", "Bay"),
            .data(Data("jpeg".utf8), name: "photo", fileName: "bay.jpg", contentType: "image/jpeg"),
        ])
        #expect(try await status(of: body, routes: photoRoutes).get() == 201)
    }

    @Test(arguments: [
        (RequestBody.multipart([.field("album", "Work"), .field("caption", "c"), .data(Data("jpeg".utf8), name: "photo", fileName: "bay.jpg", contentType: "image/jpeg")]),
         "its form has album=Work"),
        (RequestBody.multipart([.field("album", "Holiday"), .field("caption", "c"), .data(Data("jpeg".utf8), name: "photo", fileName: "bay.png", contentType: "image/jpeg")]),
         "its part photo has file name bay.png"),
        (RequestBody.multipart([.field("album", "Holiday"), .field("caption", "c")]),
         "its form has no part photo"),
        (RequestBody.form(["album": "Holiday"]),
         "its body is not a multipart form"),
    ])
    func aFormThatDiffersFailsNamingThePartThatDiffers(body: RequestBody, reason: String) async throws {
        guard case .failure(.incompleteSetup(let problem)) = await status(of: body, routes: photoRoutes) else {
            Issue.record("expected no route to match")
            return
        }
        #expect(problem.description.contains(reason), "\(problem)")
    }
}
