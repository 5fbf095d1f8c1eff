import Foundation
import Testing
@_spi(Transport) import Salvo

/// `lines()` and `jsonLines(of:)` over chunked text bodies from the loopback server.
@Suite(.leavesNoSpillFiles) struct ResponseLinesIntegrationTests {
    private func call(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], over transport: TransportUnderTest) async throws -> NetCall {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        return NetCall(server: server, endpoint: .get(path, query: query), firingFunction: transport.firing)
    }

    /// 2,500 lines go out in three chunks of up to 1,000, so line ends meet chunk ends.
    @Test(arguments: TransportUnderTest.all, ["lf", "crlf", "cr"])
    func linesArriveWithoutTheirEndings(over transport: TransportUnderTest, ending: String) async throws {
        let lines = try await call("/stream/lines", query: ["count": "2500", "ending": ending], over: transport).lines()
        let (received, error) = try await readAll(lines)
        #expect(received == (1...2500).map { "line \($0)" })
        #expect(error == nil)
    }

    /// The server holds the second line until released: the first one must arrive before that.
    @Test(arguments: TransportUnderTest.all)
    func aLineArrivesBeforeTheServerSendsTheNext(over transport: TransportUnderTest) async throws {
        let key = uniqueKey()
        let lines = try await call("/stream/lines", query: ["count": "2", "hold": key], over: transport).lines()
        var received: [String] = []
        for try await line in lines {
            received.append(line)
            if received.count == 1 {
                let release = try await call(EndpointPath("/stream/release/\(key)"), over: transport).response()
                #expect(release.head?.statusCode == 204, "the first line arrived only once the server stopped holding the second")
            }
        }
        #expect(received == ["line 1", "line 2"])
    }

    private struct Numbered: Decodable {
        let n: Int
    }

    @Test(arguments: TransportUnderTest.all, ["lf", "crlf"])
    func ndjsonDecodesLineByLine(over transport: TransportUnderTest, ending: String) async throws {
        let values = try await call("/stream/lines", query: ["count": "1500", "format": "ndjson", "ending": ending], over: transport).jsonLines(of: Numbered.self)
        let (received, error) = try await readAll(values)
        #expect(received.map(\.n) == Array(1...1500))
        #expect(error == nil)
    }

    @Test(arguments: TransportUnderTest.all)
    func aLineThatIsNotJSONEndsTheStreamWithIt(over transport: TransportUnderTest) async throws {
        let values = try await call("/stream/lines", query: ["count": "2"], over: transport).jsonLines(of: Numbered.self)
        let (received, error) = try await readAll(values)
        #expect(received.isEmpty)
        guard case .decoding(let failure) = error else {
            Issue.record("expected .decoding, got \(String(describing: error))")
            return
        }
        #expect(failure.body == Data("line 1".utf8))
    }
}
