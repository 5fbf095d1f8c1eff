import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo

// The code in Docs/Transfers.md, kept here so it cannot rot.

@Suite struct TransfersSamples {
    private let api = ServerConfig(host: "api.example.com")

    /// A file standing in for the user's photo.
    private func photo() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("sunset.jpg")
        try Data(repeating: 0xFF, count: 2048).write(to: url)
        return url
    }

    @Test func uploadingAPhotoWithFields() throws {
        let photoURL = try photo()
        defer { try? FileManager.default.removeItem(at: photoURL.deletingLastPathComponent()) }

        let upload = Endpoint.post("/photos", body: .multipart([
            .field("caption", "Sunset over the bay"),
            .field("album", "Holidays"),
            .file(photoURL, name: "photo"),                                   // "sunset.jpg", image/jpeg
            .data(Data("{\"iso\": 100}".utf8), name: "exif", contentType: "application/json"),
        ]))
        // POST is not retried by default; an upload the server handles idempotently can opt in.
        let retry = RetryPolicy(retryableMethods: RetryPolicy.idempotentMethods.union([.post]))
        let call = NetCall(server: api, endpoint: upload, actions: [retry])

        let request = try call.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=salvo-") == true)
        #expect(request.httpBodyStream != nil)  // the photo is read from disk while it is sent
    }

    @Test func uploadingAFileAsTheBody() throws {
        let photoURL = try photo()
        defer { try? FileManager.default.removeItem(at: photoURL.deletingLastPathComponent()) }

        let put = Endpoint.put("/avatars/me", body: .file(photoURL))                  // image/jpeg
        let heic = Endpoint.put("/avatars/me", body: .file(photoURL, contentType: "image/heic"))

        #expect(try NetCall(server: api, endpoint: put).urlRequest().value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(try NetCall(server: api, endpoint: heic).urlRequest().value(forHTTPHeaderField: "Content-Type") == "image/heic")
    }

    @Test func aMissingFileIsAnInvalidRequest() async {
        let gone = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        let call = NetCall(server: api, endpoint: .post("/photos", body: .multipart([.file(gone, name: "photo")])))

        do {
            _ = try await call.response()
        } catch .invalidRequest(let problem) {
            // "invalid body: there is no file at /nonexistent/photo.jpg" — nothing was sent.
            #expect(problem.part == .body && problem.reason.contains("/nonexistent/photo.jpg"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
