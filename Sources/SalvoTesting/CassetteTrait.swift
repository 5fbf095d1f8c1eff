import Foundation
@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

extension Cassette {
    /// The cassette of the running test, set by the `.cassette(…)` trait; nil outside one.
    @TaskLocal public static var current: Cassette?

    /// A cassette for one test in `Fixtures/<file>/<test>` next to the test file, for XCTest or
    /// code without the trait: `Cassette.forTest("checkout", mode: .recordMissing)`.
    ///
    /// - Parameters:
    ///   - name: the test's folder name (unsafe characters become `_`).
    ///   - mode: the mode unless `SALVO_FIXTURE_MODE` overrides it.
    ///   - options: naming, matching and redaction.
    ///   - directory: the fixtures root; by default `Fixtures/<test file name>` next to the test file.
    ///   - filePath: the test file, to find the default root.
    public static func forTest(
        _ name: String,
        mode: FixtureMode = .replay,
        options: FixtureOptions = FixtureOptions(),
        in directory: URL? = nil,
        filePath: String = #filePath
    ) -> Cassette {
        Cassette(at: folder(for: name, in: directory, filePath: filePath), mode: mode, options: options)
    }

    /// `directory/<name>`, or `Fixtures/<file>/<name>` next to `filePath`, with `name` made safe for a path.
    static func folder(for name: String, in directory: URL?, filePath: String) -> URL {
        let file = URL(fileURLWithPath: filePath)
        let root = directory ?? file.deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
            .appendingPathComponent(file.deletingPathExtension().lastPathComponent)
        let safe = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        return root.appendingPathComponent(safe.isEmpty ? "_" : safe)
    }
}

#if canImport(Testing)
/// Gives a test its own `Cassette`: its own fixture folder and mode, available as
/// `Cassette.current` while the test runs, so parallel tests never share fixtures or counts.
///
/// ```swift
/// @Test(.cassette()) func checkoutShowsTheTotal() async throws {   // replays; record with SALVO_FIXTURE_MODE=record-missing
///     let api = ShopAPI(firing: try #require(Cassette.current).firingFunction)
///     …
/// }
/// ```
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    /// The folder name; the test's name when nil.
    public let name: String?
    /// The mode unless `SALVO_FIXTURE_MODE` overrides it.
    public let mode: FixtureMode
    /// Naming, matching and redaction.
    public let options: FixtureOptions
    /// The fixtures root; `Fixtures/<test file name>` next to the test file when nil.
    public let directory: URL?
    /// The file the trait was written in.
    public let filePath: String

    /// Applied to a suite, every test in it gets its own cassette.
    public var isRecursive: Bool { true }

    /// Runs `function` with `Cassette.current` set to a fresh cassette for `test`.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let testName = test.name.hasSuffix("()") ? String(test.name.dropLast(2)) : test.name
        let cassette = Cassette.forTest(name ?? testName, mode: mode, options: options, in: directory, filePath: filePath)
        try await Cassette.$current.withValue(cassette) {
            try await function()
        }
    }
}

extension Trait where Self == CassetteTrait {
    /// Gives the test its own `Cassette` in `Fixtures/<test file>/<name or test name>`, or under
    /// `directory`, used in `mode` unless `SALVO_FIXTURE_MODE` says otherwise.
    public static func cassette(
        _ name: String? = nil,
        mode: FixtureMode = .replay,
        options: FixtureOptions = FixtureOptions(),
        in directory: URL? = nil,
        filePath: String = #filePath
    ) -> CassetteTrait {
        CassetteTrait(name: name, mode: mode, options: options, directory: directory, filePath: filePath)
    }
}
#endif
