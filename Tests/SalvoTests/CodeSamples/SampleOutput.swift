import Salvo

/// What the guides' samples print. A sample prints as a reader's code would (`print(book.title)`);
/// under `swift test` its lines go here instead of into the test output, kept only while a test
/// asks for them with ``capturing(_:)``.
enum SampleOutput {
    @TaskLocal static var lines: Locked<[String]>?

    /// The value `body` returns and the lines it printed, in order.
    static func capturing<T>(_ body: () async throws -> T) async rethrows -> (value: T, lines: [String]) {
        let lines = Locked<[String]>([])
        let value = try await $lines.withValue(lines) { try await body() }
        return (value, lines.withLock { $0 })
    }
}

/// Shadows `Swift.print` in this test target so that samples run by tests print nothing; a test
/// that must print says `Swift.print`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    SampleOutput.lines?.withLock { $0.append(items.map { "\($0)" }.joined(separator: separator)) }
}
