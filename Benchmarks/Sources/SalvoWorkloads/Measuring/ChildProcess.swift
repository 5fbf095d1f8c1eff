import Foundation

/// A program, or this one again, run to its end in a process of its own: how the memory probes
/// get a fresh heap for every run and the callgrind driver counts one side per valgrind child.
public struct ChildProcess: Sendable {
    /// The stream of the child's that is read; the other goes where this process's goes.
    public enum Stream: Sendable {
        case standardOutput
        case standardError
    }

    /// The child's exit status.
    public let status: Int32
    /// What the child wrote to the stream read (empty when none was).
    public let output: String

    /// This executable, to run it again as a child.
    public static var thisExecutable: String {
        Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Runs `executable` with `arguments`, reads `stream` to its end and waits for the child to
    /// exit; with `temporaryDirectory`, that folder is the child's `TMPDIR`.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        reading stream: Stream? = nil,
        temporaryDirectory: URL? = nil
    ) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let temporaryDirectory {
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporaryDirectory.path
            process.environment = environment
        }
        let pipe = Pipe()
        switch stream {
        case .standardOutput: process.standardOutput = pipe
        case .standardError: process.standardError = pipe
        case nil: break
        }
        try process.run()
        let data = stream == nil ? Data() : pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ChildProcess(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
