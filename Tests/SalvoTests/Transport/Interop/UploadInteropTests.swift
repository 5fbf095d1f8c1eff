import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Multipart and file uploads as httpbin's `/anything` (Werkzeug's form parser) reads them,
/// through the public API only.
@Suite(.requiresHTTPBin) struct UploadInteropTests {
    /// What `/anything` says about a multipart body: its text fields and its files (text, or a
    /// `data:` URL when not UTF-8), each a list when the name repeats.
    private struct FormEcho: Decodable, Sendable {
        let form: [String: OneOrMany]
        let files: [String: OneOrMany]
        let headers: [String: String]
        let data: String?
    }

    private func temporaryFile(_ name: String, _ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    @Test(arguments: TransportUnderTest.all)
    func aStreamedFormArrivesAsFieldsAndFiles(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let notes = try temporaryFile("notes.txt", Data("line one\nline two\n".utf8))
        let photo = try temporaryFile("photo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10]))
        defer { [notes, photo].forEach { try? FileManager.default.removeItem(at: $0.deletingLastPathComponent()) } }
        let body = RequestBody.multipart([
            .field("title", "Sunset over Åland"),
            .field("tag", "one"),
            .field("tag", "two"),
            .file(notes, name: "notes"),
            .file(photo, name: "photo"),
        ])
        let echo = try await withTimeout { try await httpbin.call(.post("/anything", body: body)).value(as: FormEcho.self) }
        #expect(echo.form["title"] == "Sunset over Åland")
        #expect(echo.form["tag"] == ["one", "two"])
        #expect(echo.files["notes"] == "line one\nline two\n")
        #expect(echo.files["photo"] == .one("data:image/png;base64," + Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10]).base64EncodedString()))
        #expect(echo.headers["Content-Type"] == (try httpbin.call(.post("/anything", body: body)).urlRequest()).value(forHTTPHeaderField: "Content-Type"))
    }

    @Test(arguments: TransportUnderTest.all)
    func anInMemoryFormArrivesWithItsLength(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let body = RequestBody.multipart([.field("a", "1"), .data(Data("hello".utf8), name: "b", fileName: "b.txt", contentType: "text/plain")])
        let echo = try await withTimeout { try await httpbin.call(.post("/anything", body: body)).value(as: FormEcho.self) }
        #expect(echo.form["a"] == "1")
        #expect(echo.files["b"] == "hello")
        #expect(echo.headers["Content-Length"] == String(httpbin.call(.post("/anything", body: body)).sentBody?.count ?? -1))
    }

    @Test(arguments: TransportUnderTest.all)
    func aRawFileArrivesAsTheBody(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let file = try temporaryFile("payload.json", Data(#"{"answer":42}"#.utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let echo = try await withTimeout { try await httpbin.call(.put("/anything", body: .file(file))).value(as: HTTPBinEcho.self) }
        #expect(echo.data == #"{"answer":42}"#)
        #expect(echo.header("Content-Type") == "application/json")
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyMadeWhileSentArrivesAsTheBody(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let lines = (1...50).map { "line \($0) of a body made while it is sent\n" }
        let body = RequestBody.stream(contentType: "text/plain") {
            AsyncStream { continuation in
                for line in lines { continuation.yield(Data(line.utf8)) }
                continuation.finish()
            }
        }
        let echo = try await withTimeout { try await httpbin.call(.put("/anything", body: body)).value(as: HTTPBinEcho.self) }
        #expect(echo.data == lines.joined())
        #expect(echo.header("Content-Type") == "text/plain")
    }
}
