import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SalvoTesting
@_spi(Transport) @testable import Salvo

/// A ``ResponseReceiver`` that writes down every report a session makes, in order, with the test
/// clock's time when it has one, and notes any report that breaks the receiver's contract
/// (overlapping calls, anything after the end, a second end).
///
/// ```swift
/// let log = ReceiverLog()
/// _ = session.start(request, options: log.options, options: log.options, receiver: log)
/// #expect(await log.waitForFinish())
/// #expect(log.reports == [.head(status: 200), .chunk(Data("hi".utf8)), .finish(nil)])
/// ```
final class ReceiverLog: ResponseReceiver {
    /// One report, as a comparable value.
    enum Report: Equatable, Sendable, CustomStringConvertible {
        case head(status: Int)
        case chunk(Data)
        case sent(Int64, of: Int64?)
        /// The end: nil when the exchange succeeded, else the `URLError` code.
        case finish(URLError.Code?)
        /// The end with an error that is not a `URLError`, described.
        case failure(String)

        var description: String {
            switch self {
            case .head(let status): return "head(\(status))"
            case .chunk(let data): return "chunk(\(String(decoding: data, as: UTF8.self).debugDescription))"
            case .sent(let sent, let expected): return "sent(\(sent) of \(expected.map(String.init) ?? "?"))"
            case .finish(let code): return code.map { "finish(\($0.rawValue))" } ?? "finish"
            case .failure(let description): return "failure(\(description))"
            }
        }
    }

    private struct State {
        var reports: [Report] = []
        var times: [TimeInterval] = []
        var isInsideCall = false
        var violations: [String] = []
        var head: ResponseHead?
        var taskMetrics: [ObjectIdentifier] = []
    }

    /// The options to start the exchange with: read the body as it arrives unless told otherwise.
    let options: ExchangeOptions
    private let clock: TestClock?
    private let state = Locked(State())
    /// Runs inside each chunk report, before it returns (to cancel from within the receiver, say).
    private let onChunk: (@Sendable (Int) -> Void)?

    /// A log that reads the body as it arrives unless `streaming` is false; times come from `clock`.
    init(streaming: Bool = true, clock: TestClock? = nil, onChunk: (@Sendable (_ chunkNumber: Int) -> Void)? = nil) {
        options = ExchangeOptions(readsBodyAsItArrives: streaming)
        self.clock = clock
        self.onChunk = onChunk
    }

    /// Every report so far, in order.
    var reports: [Report] { state.withLock { $0.reports } }

    /// The clock's time at each report, in order (zeros without a clock).
    var times: [TimeInterval] { state.withLock { $0.times } }

    /// The body chunks so far.
    var chunks: [Data] {
        reports.compactMap { if case .chunk(let data) = $0 { data } else { nil } }
    }

    /// The clock's time at each chunk.
    var chunkTimes: [TimeInterval] {
        state.withLock { state in zip(state.reports, state.times).compactMap { if case .chunk = $0 { $1 } else { nil } } }
    }

    /// The chunks joined.
    var body: Data { chunks.reduce(into: Data()) { $0.append($1) } }

    /// The head, once reported.
    var head: HTTPURLResponse? { state.withLock { $0.head?.httpURLResponse } }

    /// The task metrics `URLSession` reported (Apple platforms), by identity: apart from
    /// ``reports`` so that the same reports are expected everywhere.
    var taskMetrics: [ObjectIdentifier] { state.withLock { $0.taskMetrics } }

    /// Every break of the receiver contract seen.
    var violations: [String] { state.withLock { $0.violations } }

    /// Whether the exchange has ended.
    var isFinished: Bool { reports.contains { $0.isEnd } }

    /// Waits (in real time, at most `timeout` seconds) for the end.
    ///
    /// - Returns: whether it came.
    func waitForFinish(timeout: TimeInterval = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !isFinished, Date() < deadline {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return isFinished
    }

    func receive(_ head: ResponseHead) {
        state.withLock { $0.head = head }
        begin(.head(status: head.statusCode))
        end()
    }

    func receive(_ chunk: Data) {
        let number = begin(.chunk(chunk))
        onChunk?(number)
        end()
    }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        begin(.sent(bytesSent, of: bytesExpected))
        end()
    }

    func didCollect(_ taskMetrics: URLSessionTaskMetrics) {
        state.withLock { state in
            if state.reports.contains(where: \.isEnd) { state.violations.append("task metrics came after the end") }
            state.taskMetrics.append(ObjectIdentifier(taskMetrics))
        }
    }

    func finish(_ error: (any Error)?) {
        switch error {
        case nil: begin(.finish(nil))
        case let error as URLError: begin(.finish(error.code))
        case let error?: begin(.failure("\(error)"))
        }
        end()
    }

    /// Writes `report` down as the report under way, checking it may come now; returns how many
    /// chunks there are with it.
    @discardableResult
    private func begin(_ report: Report) -> Int {
        let now = clock?.now ?? 0
        return state.withLock { state in
            if state.isInsideCall { state.violations.append("\(report) overlapped another report") }
            if state.reports.contains(where: \.isEnd) { state.violations.append("\(report) came after the end") }
            state.isInsideCall = true
            state.reports.append(report)
            state.times.append(now)
            return state.reports.filter { if case .chunk = $0 { true } else { false } }.count
        }
    }

    private func end() {
        state.withLock { $0.isInsideCall = false }
    }
}

extension ReceiverLog.Report {
    /// Whether this report ends the exchange.
    var isEnd: Bool {
        switch self {
        case .finish, .failure: return true
        default: return false
        }
    }
}
