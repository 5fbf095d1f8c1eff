import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// How `curl` output and logs show multipart and file bodies: by parts and paths, secrets hidden.
@Suite struct StreamedBodyDescriptionTests {
    private let redaction = Redaction.default.adding(queryKeys: ["password"])

    private func request(_ body: RequestBody) throws -> URLRequest {
        try NetCall(server: ServerConfig(host: "example.com"), endpoint: .post("/upload", body: body)).urlRequest()
    }

    @Test func curlSendsAStreamedFormByPartsWithSecretsHidden() throws {
        let file = try TemporaryFile(named: "photo.jpg", contents: Data(count: 10))
        let request = try request(.multipart([
            .field("title", "Sunset"), .field("password", "hunter22"), .file(file.url, name: "photo"),
        ]))
        let command = request.curlCommand(redaction: redaction)
        #expect(command.contains("--form-string 'title=Sunset'"))
        #expect(command.contains("--form-string 'password=<redacted>'"))
        #expect(command.contains("-F 'photo=@\"\(file.url.path)\";filename=\"photo.jpg\";type=image/jpeg'"))
        #expect(!command.contains("hunter22"))
        #expect(!command.contains("boundary="))
        #expect(command.hasPrefix("curl -X POST "))
    }

    @Test func curlSendsAFileBodyByPath() throws {
        let file = try TemporaryFile(named: "backup.zip", contents: Data(count: 10))
        let command = try request(.file(file.url)).curlCommand()
        #expect(command.contains("--data-binary '@\(file.url.path)'"))
        #expect(command.contains("-H 'Content-Type: application/zip'"))
    }

    @Test func curlHidesSecretFieldsOfAnInMemoryForm() throws {
        let request = try request(.multipart([.field("user", "ann"), .field("password", "hunter22")], boundary: "B"))
        let command = request.curlCommand(redaction: redaction)
        #expect(!command.contains("hunter22"))
        #expect(command.contains("name=\"password\"\r\n\r\n<redacted>\r\n--B--"))
        #expect(command.contains("\r\nann\r\n"))
    }

    @Test func theLogDescribesAStreamedFormWithoutReadingIt() throws {
        let file = try TemporaryFile(named: "photo.jpg", contents: Data(count: 10))
        let request = try request(.multipart([.field("password", "hunter22"), .file(file.url, name: "photo")], boundary: "B"))
        let lines = Transcript()
        let message = LoggingAction(includesBodies: true, redaction: redaction, sink: lines.append).requestMessage(request)
        #expect(message.contains("→ POST https://example.com/upload (streamed, 2 parts, "))
        #expect(message.contains("    password = <redacted>"))
        #expect(message.contains("    photo ← \(file.url.path) as \"photo.jpg\" (image/jpeg)"))
        #expect(!message.contains("hunter22"))
    }

    @Test func theLogNamesARawFileBody() throws {
        let file = try TemporaryFile(named: "notes.txt", contents: Data(count: 42))
        let message = LoggingAction(sink: { _ in }).requestMessage(try request(.file(file.url)))
        #expect(message == "→ POST https://example.com/upload (streamed from \(file.url.path), 42 B)")
    }

    @Test func curlAndTheLogShowABodyMadeWhileSentWithoutMakingIt() throws {
        let made = Locked(0)
        let body = RequestBody.stream(length: 5) {
            made.withLock { $0 += 1 }
            return AsyncStream { $0.yield(Data("hello".utf8)); $0.finish() }
        }
        let request = try request(body)
        #expect(request.curlCommand().contains("--data-binary '<streamed body>'"))
        #expect(LoggingAction(sink: { _ in }).requestMessage(request) == "→ POST https://example.com/upload (<streamed body>, 5 B)")
        #expect(made.withLock { $0 } == 0)
    }
}
