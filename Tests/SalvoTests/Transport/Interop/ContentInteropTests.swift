import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// Response bodies: compressed (`/gzip`, `/deflate`, `/brotli`), binary (`/bytes`, `/range`,
/// `/stream-bytes`), streamed (`/stream`), text, and 10 MiB each way through `/anything`.
@Suite(.requiresHTTPBin) struct ContentInteropTests {
    @Test(arguments: TransportUnderTest.all, ["gzip", "deflate"])
    func aCompressedBodyArrivesDecompressed(over transport: TransportUnderTest, _ encoding: String) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get(EndpointPath("/\(encoding)"))).response() }
        let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: response.data)
        #expect(encoding == "gzip" ? echo.gzipped == true : echo.deflated == true)
        #expect(echo.method == "GET")
        #expect(echo.header("Accept-Encoding")?.contains(encoding) == true, "\(echo.headers)")
    }

    /// The session asks for what it can decode; a brotli body arrives decoded where it can.
    /// AsyncHTTPClient decodes gzip and deflate only (SwiftNIO has no brotli decoder): a brotli
    /// body it was asked for arrives compressed, so the echo does not decode (Docs/ServerSide.md).
    @Test(arguments: TransportUnderTest.all)
    func aBrotliBodyArrivesDecompressedWhenAskedFor(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/brotli", headers: ["Accept-Encoding": "br, gzip, deflate"]))
        try await withKnownIssue("\(transport.name) does not decode brotli") {
            let echo = try await withTimeout { try await call.value(as: HTTPBinEcho.self) }
            #expect(echo.brotli == true)
            #expect(echo.header("Accept-Encoding") == "br, gzip, deflate")
        } when: {
            transport.has(.noBrotli)
        } matching: { issue in
            // The body arrives still compressed, so it does not decode as the echo.
            guard case .decoding? = issue.error as? NetworkError else { return false }
            return true
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func theEndpointsAcceptEncodingIsSentAsWritten(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/headers", headers: ["Accept-Encoding": "identity"]))
        let echo = try await withTimeout { try await call.value(as: HTTPBinEcho.self) }
        #expect(echo.header("Accept-Encoding") == "identity")
    }

    /// httpbin caps `/bytes/n` at 100 KiB (102,400 bytes) whatever `n` asks for. (Its `seed` does
    /// not make them repeatable here: the generator is shared by gunicorn's threads.)
    @Test(arguments: TransportUnderTest.all)
    func randomBytesArriveWhole(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/bytes/10485760")).response() }
        #expect(response.data.count == 102_400)
        #expect(response.head?.headers["Content-Type"] == "application/octet-stream")
        #expect(response.head?.headers["Content-Length"] == "102400")
        #expect(Set(response.data).count > 200)
    }

    /// Where `received` first differs from `expected` (a length difference counts), or nil; a
    /// failed `#expect(a == b)` on 100 KB of bytes spends minutes rendering the difference, and
    /// walking 10 MiB byte by byte in a debug build stalls the other tests, so only a mismatch is walked.
    private func firstDifference(_ received: Data?, _ expected: Data) -> Int? {
        guard let received else { return 0 }
        guard received != expected else { return nil }
        return zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(received.count, expected.count)
    }

    /// `/range/n` serves `abc…xyzabc…`: byte i is `a` + i mod 26.
    private static func alphabet(_ range: Range<Int>) -> Data {
        Data(range.map { UInt8(ascii: "a") + UInt8($0 % 26) })
    }

    @Test(arguments: TransportUnderTest.all)
    func aWholeRangeResourceArrivesExactly(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/range/102400")).response() }
        #expect(response.head?.statusCode == 200)
        #expect(firstDifference(response.data, Self.alphabet(0..<102_400)) == nil)
    }

    @Test(arguments: TransportUnderTest.all(withPairs: [(header: "bytes=100-199", range: 100..<200), ("bytes=-10", 1014..<1024), ("bytes=1000-", 1000..<1024)]))
    func aRangeRequestGetsThatPartAs206(over transport: TransportUnderTest, header: String, range: Range<Int>) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/range/1024", headers: ["Range": header])).response() }
        #expect(response.head?.statusCode == 206)
        #expect(response.head?.headers["Content-Range"] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/1024")
        #expect(firstDifference(response.data, Self.alphabet(range)) == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func anUnsatisfiableRangeIs416(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let call = httpbin.call(.get("/range/1024", headers: ["Range": "bytes=5000-6000"]))
        let failure = await networkError { try await call.response() }
        #expect(failure?.statusCode == 416)
    }

    @Test(arguments: TransportUnderTest.all)
    func aChunkedBodyArrivesWhole(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/stream-bytes/102400", query: ["chunk_size": "1000", "seed": "1"])).response() }
        #expect(response.data.count == 102_400)
        #expect(response.head?.headers["Content-Length"] == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func streamedJSONLinesArriveInOrder(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/stream/20")).response() }
        struct Line: Decodable { let id: Int }
        let lines = response.data.split(separator: UInt8(ascii: "\n"))
        #expect(try lines.map { try JSONDecoder().decode(Line.self, from: Data($0)).id } == Array(0..<20))
    }

    @Test(arguments: TransportUnderTest.all)
    func utf8TextArrivesIntact(over transport: TransportUnderTest) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let response = try await withTimeout { try await httpbin.call(.get("/encoding/utf8")).response() }
        #expect(response.head?.headers["Content-Type"] == "text/html; charset=utf-8")
        let text = try #require(String(data: response.data, encoding: .utf8))
        #expect(text.contains("STARGΛ̊TE SG-1"))
    }

    /// 10 MiB of text lines, built by doubling (a byte loop takes seconds in a debug build).
    private static let tenMebibytes: Data = {
        var data = Data("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n".utf8)   // 64 bytes
        while data.count < 10_485_760 {
            data.append(data)
        }
        return data.prefix(10_485_760)
    }()

    @Test(arguments: TransportUnderTest.all, [HTTPMethod.post, .put])
    func tenMebibytesGoUpAndComeBack(over transport: TransportUnderTest, _ method: HTTPMethod) async throws {
        let httpbin = try await HTTPBin(over: transport)
        let body = Self.tenMebibytes
        let call = httpbin.call(Endpoint(method: method, path: "/anything", body: .data(body)).timeout(60))
        let response = try await withTimeout(60) { try await call.response() }
        #expect(response.data.count > 10_485_760)
        let echo = try JSONDecoder().decode(HTTPBinEcho.self, from: response.data)
        #expect(echo.header("Content-Length") == "10485760")
        #expect(firstDifference(echo.body, body) == nil)
    }
}
