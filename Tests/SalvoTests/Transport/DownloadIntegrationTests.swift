import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// `download(to:)` against the loopback server: whole files, and nothing partial ever at the destination.
@Suite struct DownloadIntegrationTests {
    private func call(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], over transport: TransportUnderTest) async throws -> NetCall {
        NetCall(
            server: ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port()),
            endpoint: .get(path, query: query),
            firingFunction: transport.firing
        )
    }

    @Test(arguments: TransportUnderTest.all, [false, true])
    func aBodyIsSavedWholeAtTheDestination(over transport: TransportUnderTest, chunked: Bool) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("pattern.bin")
        let file = try await call("/stream/bytes", query: ["n": "6000000", "chunked": chunked ? "1" : "0"], over: transport).download(to: destination)
        #expect(file.url == destination)
        #expect(file.byteCount == 6_000_000)
        #expect(file.head.statusCode == 200)
        let saved = try Data(contentsOf: destination)
        #expect(saved.count == 6_000_000)
        #expect(saved.prefix(502) == Data((0..<502).map { UInt8($0 % 251) }))
        #expect(try folder.fileNames() == ["pattern.bin"], "no temporary file is left")
    }

    @Test(arguments: TransportUnderTest.all)
    func aRefusedStatusLeavesTheDestinationAsItWas(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("report.json")
        try Data("previous".utf8).write(to: destination)
        let notFound = try await call("/status/404", over: transport)
        do {
            _ = try await notFound.download(to: destination)
            Issue.record("a 404 is not saved")
        } catch {
            #expect(error.statusCode == 404)
        }
        #expect(try Data(contentsOf: destination) == Data("previous".utf8))
        #expect(try folder.fileNames() == ["report.json"])
    }

    @Test(arguments: TransportUnderTest.all)
    func aCancelledDownloadLeavesNoFile(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("slow.bin")
        let key = uniqueKey()
        // 100 bytes over 10 s, cancelled once the server has the request: always mid-flight.
        let download = Task { try await call("/stream/drip/\(key)", query: ["n": "100", "interval": "0.1"], over: transport).download(to: destination) }
        try await waitUntil(60) { try await LoopbackServer.count(path: "/stream/drip/\(key)") > 0 }
        download.cancel()
        let result = await download.result
        guard case .failure(let error as NetworkError) = result else {
            Issue.record("a cancelled download fails, got \(result)")
            return
        }
        #expect(error.isCancelled)
        #expect(try folder.fileNames().isEmpty)
    }

    @Test(arguments: TransportUnderTest.all)
    func aMissingFolderFailsBeforeAnythingIsSent(over transport: TransportUnderTest) async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID().uuidString)/file.bin")
        let small = try await call("/stream/bytes", query: ["n": "10"], over: transport)
        do {
            _ = try await small.download(to: destination)
            Issue.record("the download fails")
        } catch {
            guard case .invalidRequest(let problem) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(problem.reason.contains(destination.deletingLastPathComponent().path))
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anExistingFileIsKeptWhenItMayNotBeReplaced(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("keep.bin")
        try Data("mine".utf8).write(to: destination)
        let small = try await call("/stream/bytes", query: ["n": "10"], over: transport)
        do {
            _ = try await small.download(to: destination, replacingExisting: false)
            Issue.record("the download fails")
        } catch {
            guard case .invalidRequest(let problem) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(problem.reason.contains("already exists"))
        }
        #expect(try Data(contentsOf: destination) == Data("mine".utf8))

        _ = try await small.download(to: destination)
        #expect(try Data(contentsOf: destination).count == 10, "replaced by default")
    }

    @Test(arguments: TransportUnderTest.all, [false, true])
    func oneHundredPercentComesOnceTheFileIsInPlace(over transport: TransportUnderTest, chunked: Bool) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("done.bin")
        var call = try await call("/stream/bytes", query: ["n": "3000000", "chunked": chunked ? "1" : "0"], over: transport)
        // The handler runs where the report is made, so it sees the folder as it is at that moment.
        call.callbackQueue = .immediate
        let completions = Locked<[Bool]>([])
        let file = try await call.download(to: destination) { progress in
            if progress.fractionCompleted == 1 {
                let isInPlace = FileManager.default.fileExists(atPath: destination.path)
                completions.withLock { $0.append(isInPlace) }
            }
        }
        #expect(file.byteCount == 3_000_000)
        #expect(completions.withLock { $0 } == [true], "100% once, and only when the file is at the destination")
    }

    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder"), arguments: TransportUnderTest.all)
    func aFolderThatCannotBeWrittenFailsNamingTheDestination(over transport: TransportUnderTest) async throws {
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("locked.bin")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path) }
        let small = try await call("/stream/bytes", query: ["n": "10"], over: transport)
        do {
            let file = try await small.download(to: destination)
            Issue.record("a read-only folder takes no download, got \(file.byteCount) bytes")
        } catch {
            guard case .transport(let failure) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(failure.code == .cannotCreateFile)
            #expect(error.description.contains(destination.path), "\(error.description)")
        }
        #expect(try folder.fileNames().isEmpty)
    }
}
