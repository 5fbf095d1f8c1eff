import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Resumable downloads, download progress, and servers that die mid-transfer, against the
/// loopback server's `/stream/file` (ETag, `Range`, `If-Range`, cut connections) and `/upload`.
@Suite struct DownloadResumeIntegrationTests {
    private struct FileRequest: Decodable {
        let range: String?
        let ifRange: String?
        let status: Int?

        private enum CodingKeys: String, CodingKey {
            case range, status
            case ifRange = "if_range"
        }
    }

    private struct FileStats: Decodable {
        let requests: [FileRequest]
    }

    private func isTransport(_ error: NetworkError) -> Bool {
        if case .transport = error { return true }
        return false
    }

    private func server() async throws -> ServerConfig {
        ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
    }

    private func file(_ query: KeyValuePairs<String, String>, over transport: TransportUnderTest) async throws -> NetCall {
        NetCall(server: try await server(), endpoint: .get("/stream/file", query: query), firingFunction: transport.firing)
    }

    private func requests(for key: String) async throws -> [FileRequest] {
        try await NetCall(server: try await server(), endpoint: .get("/stream/file/stats", query: ["key": key])).value(as: FileStats.self).requests
    }

    /// Whether `url` holds exactly `count` bytes of the loopback server's pattern (byte i is i % 251).
    private func holdsPattern(_ url: URL, count: Int) throws -> Bool {
        let data = try Data(contentsOf: url)
        guard data.count == count else { return false }
        return data.enumerated().allSatisfy { Int($0.element) == $0.offset % 251 }
    }

    private func interruptedDownload(_ call: NetCall, to destination: URL) async throws -> NetworkError? {
        do {
            let file = try await call.download(to: destination, resumable: true)
            Issue.record("the first download is cut short, got \(file.byteCount) bytes")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anInterruptedDownloadResumesFromTheBytesItSaved(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("pattern.bin")
        let key = UUID().uuidString
        let call = try await file(["n": "3000000", "key": key, "cut_after": "1000000"], over: transport)

        let error = try #require(try await interruptedDownload(call, to: destination))
        #expect(isTransport(error), "a dying server is a transport failure: \(error)")
        #expect(try folder.fileNames() == [".pattern.bin.salvo-partial", ".pattern.bin.salvo-partial.json"], "the bytes wait, hidden, for a resume")

        let file = try await call.download(to: destination, resumable: true)
        #expect(file.resumedBytes > 0 && file.resumedBytes <= 1_000_000)
        #expect(file.byteCount == 3_000_000)
        #expect(file.head.statusCode == 206)
        #expect(try holdsPattern(destination, count: 3_000_000), "the saved part and the rest join without a gap or a repeat")
        #expect(try folder.fileNames() == ["pattern.bin"])

        let sent = try await requests(for: key)
        #expect(sent.count == 2)
        #expect(sent.last?.range == "bytes=\(file.resumedBytes)-")
        #expect(sent.last?.ifRange == "\"pattern-3000000\"")
    }

    @Test(arguments: TransportUnderTest.all)
    func aFileChangedMeanwhileIsFetchedWhole(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("report.bin")
        let key = UUID().uuidString
        let call = try await file(["n": "2000000", "key": key, "cut_after": "500000", "changes": "1"], over: transport)

        _ = try #require(try await interruptedDownload(call, to: destination))
        let file = try await call.download(to: destination, resumable: true)
        #expect(file.resumedBytes == 0, "If-Range names the old version, so the server sends the new one whole")
        #expect(file.head.statusCode == 200)
        #expect(try holdsPattern(destination, count: 2_000_000))
        #expect(try await requests(for: key).last?.status == 200)
    }

    @Test(arguments: TransportUnderTest.all)
    func aFileThatShrankBelowTheSavedBytesIsFetchedAgain(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("shrunk.bin")
        let key = UUID().uuidString
        let call = try await file(["n": "2000000", "key": key, "cut_after": "1500000", "shrink_to": "100000"], over: transport)

        _ = try #require(try await interruptedDownload(call, to: destination))
        let file = try await call.download(to: destination, resumable: true)
        #expect(file.resumedBytes == 0)
        #expect(file.byteCount == 100_000)
        #expect(try holdsPattern(destination, count: 100_000))
        #expect(try await requests(for: key).map(\.status) == [200, 416, 200], "a 416 for the saved range, then the whole file")
        #expect(try folder.fileNames() == ["shrunk.bin"])
    }

    @Test(arguments: TransportUnderTest.all)
    func aDownloadThatIsNotResumableLeavesNothingWhenTheServerDies(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("cut.bin")
        try Data("previous".utf8).write(to: destination)
        let call = try await file(["n": "2000000", "cut_after": "700000"], over: transport)
        do {
            _ = try await call.download(to: destination)
            Issue.record("a body cut short of its Content-Length is not saved")
        } catch {
            #expect(isTransport(error), "\(error)")
            #expect(error.description.contains("/stream/file"), "\(error.description)")
        }
        #expect(try Data(contentsOf: destination) == Data("previous".utf8), "the destination is as it was")
        #expect(try folder.fileNames() == ["cut.bin"])
    }

    @Test(arguments: TransportUnderTest.all)
    func aCancelledResumableDownloadKeepsItsBytesForTheNextOne(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("slow.bin")
        let key = UUID().uuidString
        // 16 pieces 1 s apart: 15 s, so a loaded machine (TSan in CI) still cancels mid-body.
        let call = try await file(["n": "1000000", "key": key, "delay": "1"], over: transport)
        let partial = folder.url.appendingPathComponent(".slow.bin.salvo-partial")
        let download = Task { try await call.download(to: destination, resumable: true) }
        let started = await eventually(within: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.intValue ?? 0 > 0
        }
        #expect(started, "the first bytes reach the partial file")
        download.cancel()
        guard case .failure(let error as NetworkError) = await download.result else {
            Issue.record("the download was cancelled before it ended")
            return
        }
        #expect(error.isCancelled)
        #expect(FileManager.default.fileExists(atPath: partial.path))
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        let fast = try await file(["n": "1000000", "key": key], over: transport)
        // Another query is another URL: the saved bytes are not resumed by it.
        let other = try await fast.download(to: destination, resumable: true)
        #expect(other.resumedBytes == 0)
        #expect(try holdsPattern(destination, count: 1_000_000))
    }

    @Test(arguments: TransportUnderTest.all)
    func progressCountsFromTheResumedBytesAndEndsAtOneHundredPercentOnce(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("progress.bin")
        let key = UUID().uuidString
        let call = try await file(["n": "2000000", "key": key, "cut_after": "1000000"], over: transport)
        _ = try #require(try await interruptedDownload(call, to: destination))

        let reports = Locked<[TransferProgress]>([])
        let file = try await call.download(to: destination, resumable: true) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(reports.withLock { $0.last?.fractionCompleted == 1 }, "100% arrives before download returns")
        let seen = reports.withLock { $0 }
        #expect(seen.allSatisfy { $0.direction == .download && $0.expectedBytes == 2_000_000 })
        #expect(seen.first.map { $0.completedBytes > file.resumedBytes } == true, "progress starts from the bytes already saved")
        #expect(seen.map(\.completedBytes) == seen.map(\.completedBytes).sorted())
        #expect(seen.filter { $0.fractionCompleted == 1 }.count == 1)
        #expect(seen.last?.completedBytes == 2_000_000)
    }

    @Test(arguments: TransportUnderTest.all)
    func aBodyShortOfItsContentLengthFailsNamingTheURL(over transport: TransportUnderTest) async throws {
        // The server promises 900,000 bytes and closes after 300,000.
        let call = try await file(["n": "900000", "cut_after": "300000"], over: transport)
        do {
            _ = try await call.response()
            Issue.record("a truncated body is an error")
        } catch {
            #expect(isTransport(error), "\(error)")
            #expect(error.description.contains("/stream/file"), "\(error.description)")
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aServerThatClosesMidUploadFailsTheUploadClearly(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let upload = folder.url.appendingPathComponent("big.bin")
        try Data(count: 8_000_000).write(to: upload)
        let key = UUID().uuidString
        let call = NetCall(server: try await server(), endpoint: Endpoint.post("/upload/raw/\(key)", query: ["close_after": "200000"], body: .file(upload)).timeout(15), firingFunction: transport.firing)
        do {
            let response = try await call.response()
            Issue.record("an upload the server hung up on is not a success: \(response.statusCode ?? 0)")
        } catch {
            // Usually the connection error names the URL at once; under a loaded machine Linux
            // URLSession has once missed the server's close and run into the timeout instead
            // (still a transport error, never a success).
            #expect(isTransport(error), "\(error)")
            #expect(error.description.contains("/upload/raw/\(key)"), "\(error.description)")
        }
    }

    /// Linux's `/dev/full` fails every write with `ENOSPC`. A resumable download's partial file has
    /// a fixed name, so once an interrupted download has left one, putting a link to `/dev/full`
    /// in its place makes the resumed download write to a full disk through the real write path.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"), arguments: TransportUnderTest.all)
    func aFullDiskFailsNamingTheDestinationAndLeavesItAsItWas(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("full.bin")
        let partial = folder.url.appendingPathComponent(".full.bin.salvo-partial")
        let call = try await file(["n": "2000000", "key": UUID().uuidString, "cut_after": "500000"], over: transport)
        _ = try #require(try await interruptedDownload(call, to: destination))
        try FileManager.default.removeItem(at: partial)
        try FileManager.default.createSymbolicLink(atPath: partial.path, withDestinationPath: "/dev/full")
        defer { unlink(partial.path) }

        do {
            let file = try await call.download(to: destination, resumable: true)
            Issue.record("a download to a full disk fails, got \(file.byteCount) bytes")
        } catch {
            guard case .transport(let failure) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(failure.code == .cannotWriteToFile)
            #expect(error.description.contains(destination.path), "\(error.description)")
            #expect(error.description.contains("/stream/file"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test(arguments: TransportUnderTest.all)
    func aDestinationThatIsAFolderFailsBeforeAnythingIsSent(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let call = try await file(["n": "10"], over: transport)
        do {
            _ = try await call.download(to: folder.url)
            Issue.record("a folder is not a download destination")
        } catch {
            guard case .invalidRequest(let problem) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(problem.reason.contains("is a directory"))
        }
        #expect(try folder.fileNames().isEmpty)
    }
}
