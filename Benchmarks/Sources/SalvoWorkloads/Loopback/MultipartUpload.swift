import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 10: a large file uploaded as a `multipart/form-data` part over loopback HTTP, Salvo's
/// `RequestBody.multipart(...)` against a raw URLSession upload of the same bytes from disk.
///
/// The form is a text field and a file part of the loopback pattern (byte i is i % 251). Salvo
/// reads the part file while it sends; the raw side sends a file holding the whole form, written
/// once (with the same boundary) with the part file (``Files``), outside the timed region, so it
/// is charged for nothing but the transfer. Both post to `/upload/raw/<key>`, which
/// reads the body as it arrives and answers with the byte count; ``checkEquivalence()`` posts
/// both to `/upload/multipart/<key>` instead, which parses the form, to show the bytes are the same.
public struct MultipartUpload: Sendable {
    /// The file part's size the issue asks for: 256 MiB.
    public static let defaultByteCount = 256 << 20
    /// A fixed boundary, so the raw side's form file holds the very bytes Salvo sends.
    static let boundary = "salvo-bench-5f0c9e21a7d34b68"
    private static let fieldValue = "Salvo benchmark upload"
    private static let partFileName = "part.bin"

    /// How the raw side sends the form file.
    public enum RawMethod: String, Sendable, CaseIterable {
        /// `uploadTask(with:fromFile:)`: sent with a `Content-Length`, the file read by corelibs
        /// through `DispatchIO`.
        case uploadFromFile
        /// A data task whose request's `httpBodyStream` is `InputStream(url:)` of the form file:
        /// sent chunked, as Salvo's streamed bodies are on Linux.
        case bodyStream
        /// The same with a task delegate that does nothing, as Salvo's Linux transfer sets one on
        /// every data task (for challenges and redirects): corelibs then queues a
        /// `didSendBodyData` call on the session's delegate queue for every piece of body it sends.
        case bodyStreamWithTaskDelegate
    }

    /// A file part and the raw side's form file holding the same form, written once.
    public struct Files: Sendable {
        /// Bytes in the file part.
        public let byteCount: Int
        /// The folder holding both files.
        public let folder: URL
        /// The whole form's size in bytes.
        public let formLength: Int
        let part: URL
        let form: URL

        /// The files in `folder`: written there when `isWritten` is false (the folder is made),
        /// else checked to be those of a form with a `byteCount`-byte part.
        public init(byteCount: Int, in folder: URL, isWritten: Bool = false) throws {
            self.byteCount = byteCount
            self.folder = folder
            part = folder.appendingPathComponent(MultipartUpload.partFileName)
            form = folder.appendingPathComponent("form.multipart")
            let (head, tail) = MultipartUpload.formFrame()
            formLength = head.count + byteCount + tail.count
            if !isWritten {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try write(head: head, tail: tail)
            }
            guard try Self.size(of: part) == byteCount, try Self.size(of: form) == formLength else {
                throw WorkloadError("\(folder.path) does not hold a \(byteCount)-byte part and its form")
            }
        }

        /// New files in a new folder of the temporary directory.
        public init(byteCount: Int) throws {
            try self.init(byteCount: byteCount, in: FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-upload-\(UUID().uuidString)"))
        }

        /// Deletes the folder and the files in it.
        public func remove() {
            try? FileManager.default.removeItem(at: folder)
        }

        /// Writes the part file (the pattern) and the form file (the same bytes, framed), 1 MiB at a time.
        private func write(head: Data, tail: Data) throws {
            guard FileManager.default.createFile(atPath: part.path, contents: nil),
                  FileManager.default.createFile(atPath: form.path, contents: head)
            else { throw WorkloadError("cannot create the upload's files in \(folder.path)") }
            let partHandle = try FileHandle(forWritingTo: part)
            let formHandle = try FileHandle(forWritingTo: form)
            defer {
                try? partHandle.close()
                try? formHandle.close()
            }
            try formHandle.seekToEnd()
            let block = Data((0..<((1 << 20) + 251)).map { UInt8($0 % 251) })
            var written = 0
            while written < byteCount {
                let start = written % 251
                let piece = block[start..<(start + min(1 << 20, byteCount - written))]
                try partHandle.write(contentsOf: piece)
                try formHandle.write(contentsOf: piece)
                written += piece.count
            }
            try formHandle.write(contentsOf: tail)
        }

        private static func size(of file: URL) throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            guard let size = (attributes[.size] as? NSNumber)?.intValue else { throw WorkloadError("no size for \(file.path)") }
            return size
        }
    }

    /// The files uploaded unless a call names others.
    public let files: Files
    private let server: ServerConfig
    private let session: URLSession
    private let rawSession: URLSession

    /// A workload against the loopback server at `baseURL` uploading `files`.
    public init(baseURL: URL, files: Files) throws {
        self.files = files
        server = try ServerConfig(baseURL: baseURL.absoluteString)
        session = URLSession(configuration: .uncached())
        rawSession = URLSession(configuration: .uncached())
    }

    /// Delegate callbacks waiting on the delegate queue of Salvo's session (`isSalvo`) or the raw one.
    public func queuedDelegateCallbacks(isSalvo: Bool) -> Int {
        (isSalvo ? session : rawSession).delegateQueue.operationCount
    }

    /// The form Salvo sends: a text field, then the file part.
    private static func body(_ files: Files) -> RequestBody {
        .multipart([
            .field("title", fieldValue),
            .file(files.part, name: "file", fileName: partFileName, contentType: "application/octet-stream"),
        ], boundary: boundary)
    }

    /// The form's bytes before and after the file part's content, written out by hand as a raw
    /// URLSession user would (RFC 7578).
    private static func formFrame() -> (head: Data, tail: Data) {
        let head = "--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
            + "\(fieldValue)\r\n"
            + "--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"\(partFileName)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        return (Data(head.utf8), Data("\r\n--\(boundary)--\r\n".utf8))
    }

    private func call(_ path: String, _ files: Files) -> NetCall {
        NetCall(server: server, endpoint: .post(EndpointPath(path), body: Self.body(files)), firingFunction: .session(session))
    }

    /// One Salvo upload of `files` (by default ``files``): `call.response()` of a POST with the
    /// multipart body; returns the bytes the server received.
    @discardableResult
    public func salvo(_ files: Files? = nil) async throws -> Int {
        let files = files ?? self.files
        return try Self.received(in: try await salvoReport(path: "/upload/raw/salvo-bench", files), expected: files.formLength)
    }

    /// One raw upload of `files` (by default ``files``) by `method`; returns the bytes the server received.
    @discardableResult
    public func raw(_ method: RawMethod, _ files: Files? = nil) async throws -> Int {
        let files = files ?? self.files
        return try Self.received(in: try await rawReport(method, path: "/upload/raw/salvo-bench", files), expected: files.formLength)
    }

    private func salvoReport(path: String, _ files: Files) async throws -> [String: Any] {
        let response = try await call(path, files).response()
        return try Self.report(response.data, response.httpURLResponse)
    }

    /// The raw side's request is Salvo's (same URL, method and headers) without its body stream.
    private func rawReport(_ method: RawMethod, path: String, _ files: Files) async throws -> [String: Any] {
        var request = try call(path, files).urlRequest()
        request.httpBodyStream = nil
        let form = files.form
        let (data, response): (Data, URLResponse?) = try await withCheckedThrowingContinuation { continuation in
            let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), response))
                }
            }
            switch method {
            case .uploadFromFile:
                rawSession.uploadTask(with: request, fromFile: form, completionHandler: handler).resume()
            case .bodyStream, .bodyStreamWithTaskDelegate:
                guard let stream = InputStream(url: form) else {
                    continuation.resume(throwing: WorkloadError("cannot open \(form.path) as a stream"))
                    return
                }
                request.httpBodyStream = stream
                let task = rawSession.dataTask(with: request, completionHandler: handler)
                if method == .bodyStreamWithTaskDelegate { task.delegate = IdleTaskDelegate.shared }
                task.resume()
            }
        }
        return try Self.report(data, response)
    }

    /// The server's JSON answer, after checking the status.
    private static func report(_ data: Data, _ response: URLResponse?) throws -> [String: Any] {
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw WorkloadError("upload answered \(String(describing: response)): \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw WorkloadError("upload answered with something other than a JSON object")
        }
        return report
    }

    private static func received(in report: [String: Any], expected: Int) throws -> Int {
        guard let received = report["received"] as? Int, received == expected else {
            throw WorkloadError("the server received \(report["received"] ?? "nothing") of \(expected) bytes")
        }
        return received
    }

    /// Fails unless Salvo and every raw method send the same form: the server's parser sees the
    /// same parts (names, file name, content type, length, SHA-256, the pattern intact) and the
    /// same body (byte count and SHA-256), whatever the framing (chunked or `Content-Length`).
    public func checkEquivalence() async throws {
        let path = "/upload/multipart/salvo-bench-check"
        let salvo = try Self.summary(of: try await salvoReport(path: path, files))
        for method in RawMethod.allCases {
            let raw = try Self.summary(of: try await rawReport(method, path: path, files))
            guard raw == salvo else { throw WorkloadError("raw \(method.rawValue) sent \(raw), Salvo sent \(salvo)") }
        }
        guard salvo.received == files.formLength, salvo.parts.count == 2, salvo.parts.last?.length == files.byteCount,
              salvo.parts.last?.isPattern == true
        else { throw WorkloadError("the server did not receive the form as built: \(salvo)") }
    }

    private struct Summary: Equatable, CustomStringConvertible {
        struct Part: Equatable {
            let name: String?
            let fileName: String?
            let contentType: String?
            let length: Int
            let sha256: String
            let isPattern: Bool
        }

        let received: Int
        let sha256: String
        let parts: [Part]

        var description: String {
            "\(received) bytes (SHA-256 \(sha256)), parts " + parts.map { "\($0.name ?? "?")=\($0.length)" }.joined(separator: ", ")
        }
    }

    private static func summary(of report: [String: Any]) throws -> Summary {
        guard let received = report["received"] as? Int, let sha256 = report["sha256"] as? String,
              let parts = report["parts"] as? [[String: Any]]
        else { throw WorkloadError("the multipart route's answer lacks received, sha256 or parts: \(report)") }
        return Summary(received: received, sha256: sha256, parts: try parts.map { part in
            guard let length = part["length"] as? Int, let sha256 = part["sha256"] as? String else {
                throw WorkloadError("a part lacks its length or sha256: \(part)")
            }
            return Summary.Part(
                name: part["name"] as? String, fileName: part["filename"] as? String,
                contentType: part["content_type"] as? String, length: length, sha256: sha256,
                isPattern: part["is_pattern"] as? Bool ?? false
            )
        })
    }
}

/// A task delegate that answers nothing itself (every method has its default).
private final class IdleTaskDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    static let shared = IdleTaskDelegate()
}
