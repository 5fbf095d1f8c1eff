import Foundation

/// A test server running as a child of the test process, kept for the life of that process:
/// its stdin is a pipe this object holds open (the server exits at EOF, so it dies with the
/// tests), and it is ready once it prints `PORT n` on stdout.
///
/// ```swift
/// let server = try await ServerProcess.launch(name: "the loopback server", executable: python, arguments: [script, "--port", "0"])
/// let url = server.baseURL.appendingPathComponent("echo")
/// ```
/// Foundation's exit monitoring expects the `Process` to outlive its child, hence a class held for good.
final class ServerProcess: Sendable {
    let port: Int
    /// `http://127.0.0.1:<port>`.
    let baseURL: URL
    private let process: Process
    private let stdinPipe: Pipe

    private init(port: Int, process: Process, stdinPipe: Pipe) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.process = process
        self.stdinPipe = stdinPipe
    }

    /// Starts `executable` and waits for its `PORT n` line.
    ///
    /// - Parameters:
    ///   - name: what the server is called in error messages, e.g. "the loopback server".
    ///   - executable: the program to run.
    ///   - arguments: its arguments.
    ///   - startupTimeout: seconds to wait for the port before killing it.
    ///   - explainExit: a message for an exit before the port that needs no stderr (a missing
    ///     interpreter), or nil for the generic one.
    /// - Throws: ``TestServerError`` saying why it did not start, with the end of its stderr.
    static func launch(
        name: String,
        executable: URL,
        arguments: [String],
        startupTimeout: TimeInterval = 10,
        explainExit: @escaping @Sendable (Process) -> String? = { _ in nil }
    ) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe

        let stderrText = OutputTail()
        let stderrDone = DispatchGroup()
        stderrDone.enter()
        let stderrHandle = stderrPipe.fileHandleForReading
        // Drained for the whole run (a full pipe would block the server), on its own thread
        // rather than a Dispatch worker it would occupy forever.
        Thread {
            while case let chunk = stderrHandle.availableData, !chunk.isEmpty {
                stderrText.append(chunk)
            }
            stderrDone.leave()
        }.start()

        do {
            try process.run()
        } catch {
            throw TestServerError("could not start \(name) (\(executable.path)): \(error)")
        }
        let stderr: @Sendable () -> String = {
            _ = stderrDone.wait(timeout: .now() + 2)
            return stderrText.text
        }
        // run() has closed our copies of the child's pipe ends, so EOF on stdout means the server is gone.
        let port = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let pending = PendingContinuation(continuation)
            let stdout = stdoutPipe.fileHandleForReading
            Thread {
                var buffer = Data()
                while true {
                    let chunk = stdout.availableData
                    if chunk.isEmpty {
                        process.waitUntilExit()
                        guard let continuation = pending.take() else { return }
                        let message = explainExit(process)
                            ?? "\(name) exited with status \(process.terminationStatus) before printing its port. stderr:\n\(stderr())"
                        continuation.resume(throwing: TestServerError(message))
                        return
                    }
                    buffer.append(chunk)
                    if let port = portLine(in: buffer), let continuation = pending.take() {
                        continuation.resume(returning: port)
                        return
                    }
                }
            }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + startupTimeout) {
                guard let continuation = pending.take() else { return }
                // The child inherits the Dispatch thread's blocked signal mask, so SIGTERM
                // (`terminate()`) may never arrive before it unblocks it; EOF on stdin
                // stops a running server, SIGKILL one stuck before that.
                try? stdinPipe.fileHandleForWriting.close()
                kill(process.processIdentifier, SIGKILL)
                continuation.resume(throwing: TestServerError(
                    "\(name) did not print its port within \(Int(startupTimeout)) s. stderr:\n\(stderr())"
                ))
            }
        }
        return ServerProcess(port: port, process: process, stdinPipe: stdinPipe)
    }

    /// The port from a complete `PORT n` line, if the output holds one yet.
    private static func portLine(in output: Data) -> Int? {
        let text = String(decoding: output, as: UTF8.self)
        guard let end = text.lastIndex(of: "\n") else { return nil }
        return text[..<end].split(separator: "\n").lazy
            .filter { $0.hasPrefix("PORT ") }
            .compactMap { Int($0.dropFirst("PORT ".count).trimmingCharacters(in: .whitespacesAndNewlines)) }
            .first
    }
}

/// Starts a server on first use only; a failed start is remembered so every test fails fast
/// with the same error.
actor SharedServer {
    private let launch: @Sendable () async throws -> ServerProcess
    private var start: Task<ServerProcess, any Error>?

    init(_ launch: @escaping @Sendable () async throws -> ServerProcess) {
        self.launch = launch
    }

    func running() async throws -> ServerProcess {
        if let start {
            return try await start.value
        }
        let task = Task { try await launch() }
        start = task
        return try await task.value
    }
}

/// Why a test server could not be used; the description says what to fix.
struct TestServerError: Error, CustomStringConvertible, LocalizedError {
    /// What went wrong, for a person.
    let description: String

    init(_ description: String) {
        self.description = description
    }

    var errorDescription: String? { description }
}

/// Hands a continuation to whichever racing callback (port read, exit, timeout) claims it first.
private final class PendingContinuation: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int, any Error>?

    init(_ continuation: CheckedContinuation<Int, any Error>) {
        self.continuation = continuation
    }

    /// The continuation for the first caller, nil for every later one.
    func take() -> CheckedContinuation<Int, any Error>? {
        lock.withLock {
            defer { continuation = nil }
            return continuation
        }
    }
}

/// The last few KB a server wrote to stderr, for startup error messages.
private final class OutputTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit = 16 * 1024

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            if data.count > limit {
                data = Data(data.suffix(limit))
            }
        }
    }

    var text: String {
        lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
