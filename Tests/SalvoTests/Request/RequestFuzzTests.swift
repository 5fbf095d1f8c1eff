import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo

/// Generated hostile input: building never crashes, every refusal is an `invalidRequest` with a
/// message, and nothing accepted puts CR, LF or NUL on the wire — checked by the loopback server.
///
/// The seed is printed with every failure; rerun one with `SALVO_FUZZ_SEED=<seed> swift test --filter RequestFuzzTests`.
@Suite struct RequestFuzzTests {
    static let buildCount = 30_000
    static let firedCount = 250

    let seed: UInt64 = ProcessInfo.processInfo.environment["SALVO_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)

    @Test func generatedRequestsAreRefusedCleanlyOrSentClean() async throws {
        var generator = RequestGenerator(seed: seed)
        var accepted: [Endpoint] = []
        var refusals = 0
        for index in 0..<Self.buildCount {
            // The cooperative pool has one thread per core: yield so timed tests elsewhere keep running.
            if index % 200 == 0 { await Task.yield() }
            let (server, endpoint) = generator.next()
            switch NetCall.build(server, endpoint) {
            case .success(let request):
                checkClean(request, index: index)
                accepted.append(endpoint)
            case .failure(.invalidRequest(let problem)):
                refusals += 1
                #expect(!problem.reason.isEmpty, "seed \(seed), case \(index): empty reason for \(problem.part)")
                let isOneLine = !problem.reason.contains { $0.isNewline }
                #expect(isOneLine, "seed \(seed), case \(index): message spans lines: \(problem.reason)")
            case .failure(let other):
                Issue.record("seed \(seed), case \(index): \(other) is not invalidRequest")
            }
        }
        #expect(refusals > Self.buildCount / 10, "seed \(seed): the generator should produce plenty of hostile input")
        #expect(accepted.count > Self.firedCount, "seed \(seed): the generator should produce plenty of valid input")
        try await fireAtTheWireRoute(accepted, generator: &generator)
    }

    /// A built request holds nothing that could split a line on the wire.
    private func checkClean(_ request: URLRequest, index: Int) {
        let context = "seed \(seed), case \(index)"
        let method = request.httpMethod ?? "GET"
        #expect(!method.isEmpty && !method.contains(where: { $0.isWhitespace || $0.isNewline }), "\(context): method \(method.debugDescription)")
        let url = request.url?.absoluteString ?? ""
        #expect(!url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value >= 0x7F }), "\(context): URL \(url.debugDescription)")
        let segments = (request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedPath } ?? "").split(separator: "/")
        #expect(!segments.contains { $0 == "." || $0 == ".." }, "\(context): dot segment in \(url)")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            #expect(!(name + value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }, "\(context): header \(name.debugDescription): \(value.debugDescription)")
        }
    }

    /// Fires a sample of the accepted endpoints at `/wire` and checks what the server read.
    private func fireAtTheWireRoute(_ accepted: [Endpoint], generator: inout RequestGenerator) async throws {
        let server = try await ServerConfig.loopback(basePath: "wire")
        let stride = max(1, accepted.count / Self.firedCount)
        let sample = Swift.stride(from: 0, to: accepted.count, by: stride).prefix(Self.firedCount).map { index in
            var endpoint = accepted[index]
            // HEAD answers without a body and CONNECT means a tunnel to libcurl: neither can report back.
            if ["HEAD", "CONNECT"].contains(endpoint.method.rawValue.uppercased()) { endpoint.method = .post }
            endpoint.basePath = nil
            endpoint.timeout = 10
            return (index, endpoint)
        }
        let seed = self.seed
        // Its own session, so the sample neither queues behind nor slows other suites' timed calls on URLSession.shared.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for (index, endpoint) in sample {
                if running == 4 { try await group.next(); running -= 1 }
                running += 1
                group.addTask {
                    let call = NetCall(server: server, endpoint: endpoint, callbackQueue: .immediate, firingFunction: .session(session))
                    let context = "seed \(seed), case \(index), \(endpoint.method) \(endpoint.path)"
                    do {
                        let response = try await call.response()
                        let report = try JSONDecoder().decode(WireReport.self, from: response.data)
                        #expect(report.problems.isEmpty, "\(context): \(report.problems)")
                        #expect(report.requestLine.hasPrefix(endpoint.method.rawValue.uppercased() + " ") || report.requestLine.hasPrefix(endpoint.method.rawValue + " "), "\(context): \(report.requestLine)")
                        let sent = Set(endpoint.headers.map { $0.name.lowercased() })
                        let unexpected = report.headers.map { $0[0].lowercased() }.filter { !sent.contains($0) && !WireReport.transportHeaders.contains($0) }
                        #expect(unexpected.isEmpty, "\(context): headers nobody set arrived: \(unexpected)")
                    } catch {
                        Issue.record("\(context): \(error)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// What `/wire` read: the request line, the header lines, and what was wrong with them.
private struct WireReport: Decodable {
    let requestLine: String
    let headers: [[String]]
    let problems: [String]

    enum CodingKeys: String, CodingKey {
        case requestLine = "request_line", headers, problems
    }

    /// Headers URLSession and libcurl add on their own (cookies other tests stored for 127.0.0.1 included).
    static let transportHeaders: Set<String> = [
        "cookie", "host", "user-agent", "accept", "accept-encoding", "accept-language", "content-length", "content-type",
        "connection", "expect", "transfer-encoding",
    ]
}

/// Hosts, ports, paths, methods, headers and query items drawn from valid, near-valid and hostile pieces.
private struct RequestGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private static let hostile: [String] = [
        "\r", "\n", "\r\n", "\0", " ", "\t", "/", "?", "#", "%", "%0D%0A", ":", "[", "]", "@", "\\", "\"", "é", "😀",
        "\u{301}", "\u{202E}", "..", ".", "\r\nX-Injected: 1", " HTTP/1.1\r\nX-Injected: 1\r\n", "\u{85}", "\u{2028}",
    ]
    private static let tokenCharacters = Array("abcxyzABCXYZ0189!#$%&'*+-.^_`|~")
    private static let hosts = ["api.example.com", "localhost", "127.0.0.1", "::1", "[::1]", "2001:db8::1", "::ffff:10.0.0.1", "[]", "cafe:8080", "1:2:3:4:5:6:7:8:9", "[fe80::1%eth0]", "x_y.test", ""]
    private static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, "OPTIONS", "TRACE", "CONNECT", "PURGE", "get"]

    private mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    private mutating func text(maxPieces: Int = 4) -> String {
        var result = ""
        for _ in 0..<int(maxPieces + 1) {
            switch int(3) {
            case 0: result += pick(Self.hostile)
            case 1: result += String((0..<(1 + int(6))).map { _ in pick(Self.tokenCharacters) })
            default: result += String(UnicodeScalar(UInt8(int(128))))
            }
        }
        return result
    }

    private mutating func token() -> String {
        String((0..<(1 + int(8))).map { _ in pick(Self.tokenCharacters) })
    }

    private mutating func host() -> String {
        switch int(4) {
        case 0: return pick(Self.hosts)
        case 1: return pick(Self.hosts) + text(maxPieces: 1)
        case 2: return (0..<(1 + int(9))).map { _ in String(random.next() % 0x10000, radix: 16) }.joined(separator: pick([":", "::", "."]))
        default: return text()
        }
    }

    private mutating func path() -> EndpointPath {
        var builder = EndpointPath.StringInterpolation(literalCapacity: 16, interpolationCount: 2)
        for _ in 0..<(1 + int(3)) {
            builder.appendLiteral(chance(70) ? "/" + token() + "/" : text(maxPieces: 2))
            builder.appendInterpolation(text())
        }
        return EndpointPath(stringInterpolation: builder)
    }

    mutating func next() -> (ServerConfig, Endpoint) {
        var server = ServerConfig(scheme: chance(95) ? "http" : text(maxPieces: 1), host: host())
        server.port = chance(50) ? nil : pick([0, -1, 1, 80, 8080, 65_535, 65_536, Int.max, Int.min, int(70_000)])
        var headers: HTTPHeaders = [:]
        for _ in 0..<int(4) {
            headers[chance(80) ? "X-" + token() : text(maxPieces: 2)] = chance(75) ? token() + " " + token() : text()
        }
        let query = (0..<int(4)).map { _ in URLQueryItem(name: text(), value: chance(80) ? text() : nil) }
        let method = chance(85) ? pick(Self.methods) : HTTPMethod(chance(50) ? token() : text(maxPieces: 2))
        let body: RequestBody = chance(20) ? .text(text()) : .none
        return (server, Endpoint(method: method, path: path(), query: query, headers: headers, body: body))
    }
}
