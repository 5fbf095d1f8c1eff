import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

// The stream code in Docs/Streaming.md, kept here so it cannot rot.
enum StreamingGuide {
    struct Price: Decodable {
        let symbol: String
    }

    final class Progress: Sendable {
        private let state = Locked((expected: Int64(0), received: 0, error: NetworkError?.none))

        var expected: Int64 {
            get { state.withLock { $0.expected } }
            set { state.withLock { $0.expected = newValue } }
        }
        var received: Int {
            get { state.withLock { $0.received } }
            set { state.withLock { $0.received = newValue } }
        }
        var error: NetworkError? { state.withLock { $0.error } }
        func finish(_ error: NetworkError?) { state.withLock { $0.error = error } }
    }

    static func download(_ call: NetCall, to file: FileHandle) async throws {
        let export = call.bytes()
        let head = try await export.head                // status and headers, before the first byte
        let expected = head.headers["Content-Length"].flatMap { Int64($0) }   // nil when the server did not say
        _ = expected
        for try await chunk in export {
            try file.write(contentsOf: chunk)
        }
    }

    static func tail(_ logCall: NetCall, _ pricesCall: NetCall) async throws -> [String] {
        var lines: [String] = []
        for try await line in logCall.lines() {
            lines.append(line)
        }
        var board = Board()
        for try await price in pricesCall.jsonLines(of: Price.self) {
            board.update(price)
        }
        return lines + board.symbols
    }

    /// What shows the prices.
    struct Board {
        private(set) var symbols: [String] = []

        mutating func update(_ price: Price) { symbols.append(price.symbol) }
    }

    static func callbacks(_ call: NetCall, progress: Progress) -> NetworkTask {
        call.stream(to: StreamResponder(
            head: { head in progress.expected = head.headers["Content-Length"].flatMap { Int64($0) } ?? -1 },
            chunk: { chunk in progress.received += chunk.count },
            completion: { error in progress.finish(error) }
        ))
    }

    struct TickerSession: NetworkSession {
        func start(_ request: URLRequest, options: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
            guard let url = request.url else {
                receiver.finish(URLError(.badURL))
                return FinishedSessionTask()
            }
            receiver.receive(ResponseHead(statusCode: 200, headers: ["Content-Type": "text/plain"], url: url))
            for tick in 1...3 { receiver.receive(Data("tick \(tick)\n".utf8)) }
            receiver.finish(nil)
            return FinishedSessionTask()
        }
    }
}

@Suite struct StreamingBodySamplesTests {
    private func call(_ session: any NetworkSession) -> NetCall {
        NetCall(server: ServerConfig(scheme: "https", host: "api.example"), endpoint: .get("/log"), callbackQueue: .queue(DispatchQueue(label: "samples")), firingFunction: .session(session))
    }

    @Test func theTickerSessionStreamsLines() async throws {
        var lines: [String] = []
        for try await line in call(StreamingGuide.TickerSession()).lines() { lines.append(line) }
        #expect(lines == ["tick 1", "tick 2", "tick 3"])
    }

    @Test func callbacksCountTheBody() async throws {
        let progress = StreamingGuide.Progress()
        let task = StreamingGuide.callbacks(call(StreamingGuide.TickerSession()), progress: progress)
        #expect(await eventually { task.isFinished && progress.received == 21 })
        // The completion has no flag to await: give a late chunk or error time to show.
        try await Task.sleep(for: .milliseconds(50))
        #expect(progress.received == 21)
        #expect(progress.error == nil)
    }
}
