import Foundation

/// The project's Python loopback server (`Tests/SalvoTests/Transport/Support/Servers/loopback_server.py`), started
/// by the benchmark process itself on an ephemeral 127.0.0.1 port.
///
/// The server exits when its stdin reaches EOF, i.e. when this process ends and the pipe closes.
public final class LoopbackServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: Process
    private let stdin: Pipe

    /// The script: `$SALVO_LOOPBACK_SERVER` if set, else the repository's copy next to this package.
    public static var scriptPath: String {
        if let path = ProcessInfo.processInfo.environment["SALVO_LOOPBACK_SERVER"], !path.isEmpty {
            return path
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Servers
            .deletingLastPathComponent()  // SalvoWorkloads
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // repository root
            .appendingPathComponent("Tests/SalvoTests/Transport/Support/Servers/loopback_server.py").path
    }

    /// Starts the server and waits (at most 10 s) for the `PORT n` line it prints once listening.
    public init() throws {
        let script = Self.scriptPath
        guard FileManager.default.fileExists(atPath: script) else {
            throw WorkloadError("loopback server script not found at \(script); set SALVO_LOOPBACK_SERVER")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port", "0"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()

        let port = Self.readPort(from: stdout.fileHandleForReading, timeout: 10)
        guard let port, let url = URL(string: "http://127.0.0.1:\(port)") else {
            try? stdin.fileHandleForWriting.close()
            process.terminate()
            throw WorkloadError("the loopback server did not print its port within 10 s")
        }
        self.baseURL = url
        self.process = process
        self.stdin = stdin
    }

    /// Stops the server by closing its stdin, and waits for it to exit.
    public func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private static func readPort(from handle: FileHandle, timeout: TimeInterval) -> Int? {
        let found = PortBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var text = ""
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
                   text.contains("\n") {
                    found.port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces))
                    break
                }
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return found.port
    }
}

/// The port read by the reader thread; published to the waiter by the semaphore.
private final class PortBox: @unchecked Sendable {
    // Safe: written once by the reader thread before it signals, read after the wait returns.
    var port: Int?
}
