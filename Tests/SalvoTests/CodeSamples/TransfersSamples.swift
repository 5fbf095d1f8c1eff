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
        var retry = RetryAction()
        retry.retryableMethods.insert(.post)
        let call = NetCall(server: api, endpoint: upload, actions: [retry])

        let request = try call.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=salvo-") == true)
        #expect(request.httpBodyStream != nil)  // the photo is read from disk while it is sent
    }

    /// What the photos endpoint answers.
    private struct Photo: Decodable {
        let id: Int
    }

    /// The guide's lines that fire at a server or write to the app's documents, as an app writes
    /// them (compiled; the tests here run the same calls offline).
    private static func asAnAppWritesThem(api: ServerConfig, upload: Endpoint, retry: RetryAction,
                                          photoCall: NetCall, reportCall: NetCall) async throws {
        let call = NetCall(server: api, endpoint: upload, actions: [retry])
        let saved = try await call.value(as: Photo.self)
        _ = saved
        let transfer = photoCall.transfer()
        for await progress in transfer.progress where progress.direction == .upload {
            print("\(progress.completedBytes) of \(progress.expectedBytes ?? 0)")
        }
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let file = try await reportCall.download(to: documents.appendingPathComponent("report.pdf"))
        print(file.byteCount, file.head.statusCode)
    }

    /// Stands in for an encoder that produces a recording's pages as they are ready.
    private struct Recorder: Sendable {
        func encodedPages() -> AsyncStream<Data> {
            AsyncStream { continuation in
                for page in 0..<3 { continuation.yield(Data(repeating: UInt8(page), count: 4096)) }
                continuation.finish()
            }
        }
    }

    @Test func uploadingABodyWhileItIsMade() async throws {
        let recorder = Recorder()
        let seen = MockRoute(.put, "/recordings/today") { request in .json(["received": request.body?.count ?? 0]) }

        let upload = Endpoint.put("/recordings/today", body: .stream(contentType: "audio/ogg") {
            recorder.encodedPages()  // called again for a retry, a token renewal or a 307/308 redirect
        })
        let call = NetCall(server: api, endpoint: upload, firingFunction: .mock(MockRoutes([seen])))

        #expect(try await call.value(as: [String: Int].self) == ["received": 3 * 4096])
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

    // MARK: - Progress and downloads (the samples in "Progress" and "Downloads")

    private final class Bar: Sendable {
        private let fraction = Locked(0.0)
        var value: Double {
            get { fraction.withLock { $0 } }
            set { fraction.withLock { $0 = newValue } }
        }
    }

    @Test func followingProgressOffline() async throws {
        let bar = Bar()
        var call = NetCall(server: api, endpoint: .post("/photos", body: .data(Data(count: 20_000), contentType: "image/jpeg")))
        call.firingFunction = .mock(.status(201), conditions: NetworkConditions(bandwidth: 200_000...200_000), clock: .immediate)
        call.responder.append(.onMainActor(progressHandler: { progress in
            bar.value = progress.fractionCompleted ?? 0      // nil while the total is unknown
        }))

        let photoCall = call
        let upload = photoCall.transfer()
        var lines: [String] = []
        for await progress in upload.progress where progress.direction == .upload {
            lines.append("\(progress.completedBytes) of \(progress.expectedBytes ?? 0)")
        }
        let response = try await upload.response
        #expect(response.statusCode == 201)
        #expect(lines.last == "20000 of 20000")
    }

    @Test func downloadingToAFile() async throws {
        let documents = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: documents) }
        var reportCall = NetCall(server: api, endpoint: .get("/report"))
        reportCall.firingFunction = .mock(.data(Data("%PDF".utf8), headers: ["Content-Type": "application/pdf"]))

        let file = try await reportCall.download(to: documents.appendingPathComponent("report.pdf"))
        #expect(file.byteCount == 4)
        #expect(file.head.statusCode == 200)
        #expect(try Data(contentsOf: file.url) == Data("%PDF".utf8))
    }

    @Test func downloadingWithProgressAndCancel() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("report.pdf")
        var reportCall = NetCall(server: api, endpoint: .get("/report"))
        // Offline, 64 KiB at 256 KiB/s: about a quarter of a second of progress.
        reportCall.firingFunction = .mock(.data(Data(count: 65_536)), conditions: NetworkConditions(bandwidth: 262_144...262_144))
        let screen = await ReportScreen(reportCall: reportCall, destination: destination)
        let file = try await screen.save()
        #expect(file.byteCount == 65_536)
        // The closure ran on the main actor, and 100% arrived before `download` returned.
        #expect(await screen.bar.value == 1)
    }

    @Test func resumingADownload() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("report.pdf")
        var reportCall = NetCall(server: api, endpoint: .get("/report"))
        reportCall.firingFunction = .mock(.data(Data("%PDF".utf8), headers: ["ETag": "\"v1\""]))

        let file = try await reportCall.download(to: destination, resumable: true)
        if file.resumedBytes > 0 { print("resumed after \(file.resumedBytes) bytes") }
        #expect(file.resumedBytes == 0, "nothing was saved before")
    }
}

/// Docs/Transfers.md's "Progress and cancel": a main-actor screen whose progress closure updates
/// its own state, with no annotation (the closure runs where `download` is awaited).
@MainActor final class ReportScreen {
    @MainActor final class ProgressBar { var value = 0.0 }
    @MainActor final class Button { var action: () -> Void = {} }

    let bar = ProgressBar()
    let cancelButton = Button()
    let reportCall: NetCall
    let destination: URL

    init(reportCall: NetCall, destination: URL) {
        self.reportCall = reportCall
        self.destination = destination
    }

    func save() async throws -> DownloadedFile {
        let reportCall = reportCall, destination = destination, bar = bar
        let download = Task {
            try await reportCall.download(to: destination) { progress in
                bar.value = progress.fractionCompleted ?? 0        // where download is awaited: the main actor here
            }
        }
        cancelButton.action = { download.cancel() }                // the destination stays as it was
        return try await download.value
    }
}
