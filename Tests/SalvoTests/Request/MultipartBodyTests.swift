import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// The `multipart/form-data` encoding (RFC 7578) and the file bodies, byte for byte, without a server.
@Suite struct MultipartBodyTests {
    private let server = ServerConfig(host: "example.com")

    private func request(_ body: RequestBody, method: HTTPMethod = .post) throws -> URLRequest {
        try NetCall(server: server, endpoint: Endpoint(method: method, path: "/upload", body: body)).urlRequest()
    }

    /// Every byte the request sends, read from its body or its stream.
    private func sentBytes(_ request: URLRequest, chunkSize: Int = 4096) throws -> Data {
        if let body = request.httpBody { return body }
        let stream = try #require(request.httpBodyStream)
        return try readAll(stream, chunkSize: chunkSize)
    }

    @Test func aSmallFormIsEncodedExactly() throws {
        let body = RequestBody.multipart([
            .field("title", "Holiday"),
            .data(Data([0, 1, 2]), name: "blob", fileName: "b.bin"),
        ], boundary: "XyZ")
        let expected = """
            --XyZ\r
            Content-Disposition: form-data; name="title"\r
            \r
            Holiday\r
            --XyZ\r
            Content-Disposition: form-data; name="blob"; filename="b.bin"\r
            Content-Type: application/octet-stream\r
            \r
            \u{0}\u{1}\u{2}\r
            --XyZ--\r

            """
        let request = try request(body)
        #expect(request.httpBody == Data(expected.utf8))
        #expect(request.httpBodyStream == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=XyZ")
        #expect(body.data == Data(expected.utf8))
    }

    @Test func namesAreQuotedWithQuotesAndLineBreaksPercentEncoded() throws {
        let body = RequestBody.multipart([.data(Data("x".utf8), name: "a\"b\r\nc", fileName: "say \"hi\".txt\n", contentType: "text/plain")], boundary: "B")
        let text = String(decoding: try #require(body.data), as: UTF8.self)
        #expect(text.contains(#"Content-Disposition: form-data; name="a%22b%0D%0Ac"; filename="say %22hi%22.txt%0A""#))
    }

    @Test func nonASCIINamesAreSentAsUTF8WithoutAnExtendedParameter() throws {
        let body = RequestBody.multipart([.data(Data("x".utf8), name: "фото", fileName: "Ünïcødé 写真.jpg", contentType: "image/jpeg")], boundary: "B")
        let data = try #require(body.data)
        let disposition = Data(#"Content-Disposition: form-data; name="фото"; filename="Ünïcødé 写真.jpg""#.utf8)
        #expect(data.range(of: disposition) != nil)
        #expect(data.range(of: Data("filename*".utf8)) == nil)
    }

    @Test func aRandomBoundaryIsFreshAndAbsentFromTheParts() throws {
        let parts: [MultipartPart] = [.field("a", "1")]
        let first = try #require(RequestBody.multipart(parts).contentType)
        let second = try #require(RequestBody.multipart(parts).contentType)
        #expect(first != second)
        let boundary = try #require(first.split(separator: "=").last)
        #expect(boundary.hasPrefix("salvo-") && boundary.count == 38)
    }

    @Test(arguments: [
        ("XyZ", "occurs in a part's content"),
        ("", "must be 1–70"),
        (String(repeating: "b", count: 71), "must be 1–70"),
        ("bad\r\nboundary", "must be 1–70"),
        ("ends in space ", "must be 1–70"),
    ])
    func aGivenBoundaryThatCannotWorkIsRefused(boundary: String, reason: String) throws {
        let body = RequestBody.multipart([.field("a", "--XyZ inside")], boundary: boundary)
        #expect(throws: NetworkError.self) { try request(body) }
        do {
            _ = try request(body)
        } catch {
            #expect("\(error)".contains(reason))
        }
    }

    @Test func aBoundaryWithSeparatorsIsQuotedInTheContentType() throws {
        let body = RequestBody.multipart([.field("a", "1")], boundary: "a b:c")
        #expect(body.contentType == #"multipart/form-data; boundary="a b:c""#)
    }

    @Test func aPartContentTypeWithALineBreakIsRefused() throws {
        let body = RequestBody.multipart([.data(Data(), name: "a", contentType: "text/plain\r\nX-Evil: 1")])
        #expect(throws: NetworkError.self) { try request(body) }
    }

    @Test func aFilePartStreamsWithItsNameAndInferredType() throws {
        let file = try TemporaryFile(named: "photo.JPG", contents: Data(repeating: 7, count: 10_000))
        let body = RequestBody.multipart([.field("caption", "Sunset"), .file(file.url, name: "photo")], boundary: "BND")
        let request = try request(body)
        #expect(request.httpBody == nil)
        let sent = try sentBytes(request)
        let head = Data("--BND\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nSunset\r\n--BND\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.JPG\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        let tail = Data("\r\n--BND--\r\n".utf8)
        #expect(sent == head + Data(repeating: 7, count: 10_000) + tail)
        #expect(Int64(sent.count) == (request.httpBodyStream as? BodyStream)?.length)
    }

    @Test func aFilePartTakesAFileNameAndTypeOverride() throws {
        let file = try TemporaryFile(named: "scan.bin", contents: Data("%PDF".utf8))
        let body = RequestBody.multipart([.file(file.url, name: "doc", fileName: "report.pdf", contentType: "application/x-custom")], boundary: "B")
        let sent = String(decoding: try sentBytes(try request(body)), as: UTF8.self)
        #expect(sent.contains("filename=\"report.pdf\"\r\nContent-Type: application/x-custom\r\n"))
    }

    @Test(arguments: [1, 3, 7, 4096, 65_537])
    func theStreamGivesTheSameBytesInAnyChunkSize(chunkSize: Int) throws {
        let contents = Data((0..<100_000).map { UInt8($0 % 251) })
        let file = try TemporaryFile(named: "pattern.bin", contents: contents)
        let empty = try TemporaryFile(named: "empty.txt", contents: Data())
        let body = RequestBody.multipart([
            .field("a", "1"), .file(file.url, name: "f"), .file(empty.url, name: "e"), .data(Data("z".utf8), name: "d"),
        ], boundary: "B")
        let request = try request(body)
        let whole = try sentBytes(request, chunkSize: 1 << 20)
        let stream = try #require(request.httpBodyStream as? BodyStream)
        #expect(try readAll(stream, chunkSize: chunkSize) == whole)
        #expect(Int64(whole.count) == stream.length)
        #expect(whole.range(of: contents) != nil)
    }

    @Test func reopeningTheStreamStartsTheBodyAgain() throws {
        let file = try TemporaryFile(named: "again.bin", contents: Data((0..<50_000).map { UInt8($0 % 199) }))
        let request = try request(.multipart([.file(file.url, name: "f")], boundary: "B"))
        let stream = try #require(request.httpBodyStream)
        let first = try readAll(stream, chunkSize: 1000)
        stream.open()
        var partial = [UInt8](repeating: 0, count: 777)
        #expect(stream.read(&partial, maxLength: 777) == 777)
        #expect(try readAll(stream, chunkSize: 4096) == first)
    }

    @Test func eachFiringGetsAStreamOfItsOwn() throws {
        let file = try TemporaryFile(named: "own.bin", contents: Data(count: 10))
        let call = NetCall(server: server, endpoint: .post("/upload", body: .file(file.url)))
        let first = try call.urlRequest().httpBodyStream
        let second = try call.urlRequest().httpBodyStream
        #expect(first != nil && second != nil && first !== second)
    }

    @Test func aRawFileBodyStreamsWithItsInferredType() throws {
        let file = try TemporaryFile(named: "data.json", contents: Data(#"{"a":1}"#.utf8))
        let request = try request(.file(file.url))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try sentBytes(request) == Data(#"{"a":1}"#.utf8))
        #expect(RequestBody.file(file.url, contentType: "text/plain").contentType == "text/plain")
    }

    @Test func theContentLengthIsSetOnApplePlatformsOnly() throws {
        let file = try TemporaryFile(named: "len.bin", contents: Data(count: 1234))
        let request = try request(.file(file.url))
        #if canImport(FoundationNetworking)
        // corelibs sends a stream chunked and would add chunked framing to a Content-Length.
        #expect(request.value(forHTTPHeaderField: "Content-Length") == nil)
        #else
        #expect(request.value(forHTTPHeaderField: "Content-Length") == "1234")
        #endif
        #expect((request.httpBodyStream as? BodyStream)?.length == 1234)
    }

    @Test(arguments: ["jpg", "JPEG", "png", "pdf", "json", "heic", "unknownext", ""])
    func contentTypesComeFromTheExtension(fileExtension: String) {
        let type = RequestBody.contentType(forFileExtension: fileExtension)
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": #expect(type == "image/jpeg")
        case "png": #expect(type == "image/png")
        case "pdf": #expect(type == "application/pdf")
        case "json": #expect(type == "application/json")
        case "heic": #expect(type == "image/heic")
        default: #expect(type == "application/octet-stream")
        }
    }

    // MARK: - Bad input

    @Test func aMissingFileIsRefusedBeforeTheWireNamingIt() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-missing-\(UUID().uuidString).jpg")
        let body = RequestBody.multipart([.file(missing, name: "photo")])
        let error = try #require(throws: NetworkError.self) { try request(body) }
        guard case .invalidRequest(let problem) = error else { Issue.record("\(error)"); return }
        #expect(problem.part == .body)
        #expect(problem.reason.contains(missing.path) && problem.reason.contains("no file"))
    }

    @Test func aDirectoryIsRefusedNamingIt() throws {
        let directory = try TemporaryFolder()
        for body in [RequestBody.file(directory.url), .multipart([.file(directory.url, name: "f")])] {
            let error = try #require(throws: NetworkError.self) { try request(body) }
            #expect("\(error)".contains("is a directory") && "\(error)".contains(directory.url.path), "\(error)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"))
    func anUnreadableFileIsRefusedNamingIt() throws {
        let file = try TemporaryFile(named: "secret.txt", contents: Data("x".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.url.path)
        let error = try #require(throws: NetworkError.self) { try request(.multipart([.file(file.url, name: "f")])) }
        #expect("\(error)".contains("cannot be read") && "\(error)".contains(file.url.path))
    }

    @Test func aWebURLIsRefusedAsAFile() throws {
        let url = try #require(URL(string: "https://example.com/a.jpg"))
        let error = try #require(throws: NetworkError.self) { try request(.file(url)) }
        #expect("\(error)".contains("not a file URL"))
    }

    @Test func aFileBodyOnAGETIsRefused() throws {
        let file = try TemporaryFile(named: "get.bin", contents: Data(count: 1))
        #expect(throws: NetworkError.self) { try request(.file(file.url), method: .get) }
    }

    @Test func aFileThatShrinksWhileUploadingFailsTheReadNamingIt() throws {
        let file = try TemporaryFile(named: "shrinks.bin", contents: Data(count: 100_000))
        let request = try request(.multipart([.file(file.url, name: "f")], boundary: "B"))
        let stream = try #require(request.httpBodyStream as? BodyStream)
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1000)
        #expect(stream.read(&buffer, maxLength: 1000) == 1000)
        try Data(count: 10).write(to: file.url)
        var result = 0
        while stream.hasBytesAvailable {
            result = stream.read(&buffer, maxLength: 1000)
            if result <= 0 { break }
        }
        #expect(result == -1)
        #expect(stream.streamStatus == .error)
        #expect(stream.failure?.contains(file.url.path) == true)
        #expect(stream.failure?.contains("shorter") == true)
    }

    @Test func aFileThatChangedSizeSinceTheRequestWasBuiltFailsTheRead() throws {
        let file = try TemporaryFile(named: "grew.bin", contents: Data(count: 10))
        let request = try request(.file(file.url))
        try Data(count: 20).write(to: file.url)
        let stream = try #require(request.httpBodyStream as? BodyStream)
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 100)
        #expect(stream.read(&buffer, maxLength: 100) == -1)
        #expect(stream.failure?.contains("changed size") == true)
    }
}
