import Foundation
import Testing

/// httpbin (PyPI `httpbin`) under gunicorn, started once per test process on an ephemeral
/// 127.0.0.1 port by `Servers/httpbin_server.py`, for the interop suites in `Tests/SalvoTests/Transport/Interop/`.
///
/// The Python comes from `SALVO_HTTPBIN_PYTHON`, else `.build-httpbin-venv/bin/python` in the
/// package root (`.ci/run` creates it). Without either the interop suites are skipped, unless
/// `SALVO_REQUIRE_HTTPBIN=1` (CI) makes them run and fail.
/// ```swift
/// @Suite(.requiresHTTPBin) struct StatusInteropTests {
///     @Test func teapot() async throws {
///         let url = try await HTTPBinServer.baseURL().appendingPathComponent("status/418")
///     }
/// }
/// ```
enum HTTPBinServer {
    /// Base URL like http://127.0.0.1:54321 ; starts the server on first use.
    static func baseURL() async throws -> URL {
        try await launcher.running().baseURL
    }

    /// The server's port; starts the server on first use.
    static func port() async throws -> Int {
        try await launcher.running().port
    }

    /// Whether the interop suites run: a Python was found, or CI requires them.
    static var isEnabled: Bool {
        python != nil || isRequired
    }

    /// Why a suite is skipped: short, since every skipped test repeats it; how to install httpbin
    /// is printed once (``isEnabledTellingHowToInstall()``).
    static let skipComment = Comment(rawValue: "httpbin is not installed (how to install it is printed once, above)")

    /// ``isEnabled``; when false, prints how to install httpbin to standard error, once per test process.
    static func isEnabledTellingHowToInstall() -> Bool {
        guard !isEnabled else { return true }
        _ = toldHowToInstall
        return false
    }

    private static let toldHowToInstall: Void = {
        let hint = "httpbin is not installed, so the httpbin interop suites are skipped: \(howToInstall)\n"
        FileHandle.standardError.write(Data(hint.utf8))
    }()

    private static let howToInstall = """
        run `bash .ci/run` once, or `python3 -m venv .build-httpbin-venv && \
        .build-httpbin-venv/bin/pip install -r .ci/httpbin-requirements.txt`, or point SALVO_HTTPBIN_PYTHON \
        at a Python that has httpbin and gunicorn
        """

    /// `SALVO_REQUIRE_HTTPBIN=1`: a missing httpbin fails the suites instead of skipping them.
    private static var isRequired: Bool {
        ProcessInfo.processInfo.environment["SALVO_REQUIRE_HTTPBIN"] == "1"
    }

    /// `SALVO_HTTPBIN_PYTHON`, else the package's `.build-httpbin-venv/bin/python`, if executable.
    private static let python: URL? = {
        // The real path: the packages that share this file reach it through a linked folder.
        let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent()   // Support
            .deletingLastPathComponent()   // Transport
            .deletingLastPathComponent()   // SalvoTests
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()
        let candidates = [
            ProcessInfo.processInfo.environment["SALVO_HTTPBIN_PYTHON"].map { URL(fileURLWithPath: $0) },
            packageRoot.appendingPathComponent(".build-httpbin-venv/bin/python"),
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Importing Flask and httpbin on a busy 2-core machine takes a few seconds.
    private static let startupTimeout: TimeInterval = 30

    private static let launcher = SharedServer {
        guard let python else {
            let variable = ProcessInfo.processInfo.environment["SALVO_HTTPBIN_PYTHON"].map { " (SALVO_HTTPBIN_PYTHON=\($0) is not executable)" } ?? ""
            throw TestServerError("SALVO_REQUIRE_HTTPBIN=1 but no Python with httpbin was found\(variable): \(howToInstall)")
        }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Servers/httpbin_server.py")
        return try await ServerProcess.launch(
            name: "httpbin (\(python.path) \(script.lastPathComponent))",
            executable: python,
            arguments: [script.path, "--port", "0"],
            startupTimeout: startupTimeout
        )
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only where httpbin can be started (see ``HTTPBinServer``); skips it elsewhere,
    /// printing the install instructions once per run rather than once per test.
    static var requiresHTTPBin: Self {
        .enabled(HTTPBinServer.skipComment) { HTTPBinServer.isEnabledTellingHowToInstall() }
    }
}
