import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import Testing

/// `download(to:)` against httpbin: `/bytes` saved whole, and `/range` resumed after a cancel.
@Suite(.requiresHTTPBin) struct DownloadInteropTests {
    private let httpbin: HTTPBin

    init() async throws {
        httpbin = try await HTTPBin()
    }

    @Test func randomBytesAreSavedAsSent() async throws {
        let destination = try temporaryFolder("salvo-interop-downloads").appendingPathComponent("random.bin")
        let file = try await httpbin.call(.get("/bytes/65536", query: ["seed": "7"])).download(to: destination)
        let again = try await httpbin.call(.get("/bytes/65536", query: ["seed": "7"])).response()
        #expect(file.byteCount == 65536)
        #expect(try Data(contentsOf: destination) == again.data, "the same seed gives the same bytes")
    }

    @Test func aCancelledRangeDownloadResumesWhereItStopped() async throws {
        let folder = try temporaryFolder("salvo-interop-downloads")
        let destination = folder.appendingPathComponent("letters.txt")
        let partial = folder.appendingPathComponent(".letters.txt.salvo-partial")
        // httpbin spreads the 100 KiB over 3 seconds, 1 KiB at a time, and answers Range with 206.
        let call = httpbin.call(.get("/range/102400", query: ["duration": "3", "chunk_size": "1024"]))
        let first = Task { try await call.download(to: destination, resumable: true) }
        let started = await eventually(within: 10) {
            ((try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber)?.intValue ?? 0 >= 4096
        }
        #expect(started)
        first.cancel()
        _ = await first.result

        let file = try await call.download(to: destination, resumable: true)
        #expect(file.resumedBytes >= 4096)
        #expect(file.response.statusCode == 206)
        #expect(file.byteCount == 102_400)
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let saved = try Data(contentsOf: destination)
        #expect(saved.count == 102_400)
        #expect(saved.enumerated().allSatisfy { $0.element == letters[$0.offset % 26] }, "no gap and no repeat where the two parts meet")
    }
}
