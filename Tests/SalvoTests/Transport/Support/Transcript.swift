@_spi(Transport) @testable import Salvo

/// Lines collected from many threads, e.g. a logging sink or an action's trace.
final class Transcript: Sendable {
    private let lines = Locked<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    var text: String { all.joined(separator: "\n") }
}
