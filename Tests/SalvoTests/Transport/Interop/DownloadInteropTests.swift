import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// `download(to:)` against httpbin: `/bytes` saved whole, and `/range` resumed after a cancel.
@Suite(.requiresHTTPBin) struct DownloadInteropTests {
    @Test(arguments: TransportUnderTest.all)
    func aWholeFileIsSavedAsSent(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        // Not /bytes: httpbin draws those from one process-wide generator, so a download of them
        // running beside StreamingInteropTests' seeded /stream-bytes would change its bytes.
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("letters.txt")
        let file = try await httpbin.call(.get("/range/65536")).download(to: destination)
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let saved = try Data(contentsOf: destination)
        #expect(file.byteCount == 65536)
        #expect(file.resumedBytes == 0)
        #expect(saved.count == 65536 && saved.enumerated().allSatisfy { $0.element == letters[$0.offset % 26] })
    }

    @Test(arguments: TransportUnderTest.all)
    func aCancelledRangeDownloadResumesWhereItStopped(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let folder = try TemporaryFolder()
        let destination = folder.url.appendingPathComponent("letters.txt")
        let partial = folder.url.appendingPathComponent(".letters.txt.salvo-partial")
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
        #expect(file.head.statusCode == 206)
        #expect(file.byteCount == 102_400)
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let saved = try Data(contentsOf: destination)
        #expect(saved.count == 102_400)
        #expect(saved.enumerated().allSatisfy { $0.element == letters[$0.offset % 26] }, "no gap and no repeat where the two parts meet")
    }
}
