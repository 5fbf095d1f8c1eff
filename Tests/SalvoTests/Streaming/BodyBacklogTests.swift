import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// A stream's spill file never outlives its process: its name is gone as soon as it is open, so
/// even a process killed with SIGKILL mid-stream leaves nothing in the temporary directory.
@Suite struct BodyBacklogTests {
    /// Set in the child process this suite starts: the child spills a stream and waits to be killed.
    static let childVariable = "SALVO_SPILL_CHILD"
    static let readyLine = "salvo-spill-child: spilling"

    @Test func theFileHasNoNameOnceOpenAndStaysReadableThroughItsDescriptors() throws {
        let backlog = try BodyBacklog()
        #expect(!FileManager.default.fileExists(atPath: backlog.url.path))
        try backlog.append([Data("hello, ".utf8), Data("world".utf8)])
        #expect(try backlog.read(5, at: 7) == Data("world".utf8))
        #expect(try backlog.read(7, at: 0) == Data("hello, ".utf8))
    }

    /// Runs the test binary again as a child, with a private `TMPDIR`: the child fills a stream's
    /// buffer past its memory limit, says so once its spill file is open, and is killed with
    /// SIGKILL. Its descriptors show the spill file was in the private folder; the folder must
    /// then hold no `salvo-stream-*` file.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe"), "reads the child's descriptors from /proc"), .timeLimit(.minutes(1)))
    func aProcessKilledWithSIGKILLMidStreamLeavesNoSpillFile() async throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil { return try await spillAndWaitToBeKilled() }
        let folder = try TemporaryFolder()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "BodyBacklogTests/aProcessKilledWithSIGKILLMidStreamLeavesNoSpillFile"]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.url.path
        environment[Self.childVariable] = "1"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }

        let said = await Self.lines(of: output.fileHandleForReading, until: Self.readyLine)
        try #require(said.contains(Self.readyLine), "the child never spilled: \(said)")
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.processIdentifier)/fd")) ?? []
        let spills = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.processIdentifier)/fd/\($0)") }
            .filter { $0.contains(SpillFiles.prefix) }
        #expect(!spills.isEmpty && spills.allSatisfy { $0.hasPrefix(folder.url.path) }, "the child spills into its own TMPDIR: \(spills)")

        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(SpillFiles.prefix) }
        #expect(left.isEmpty, "spill files outlived their process: \(left)")
    }

    /// The child's part: a buffer nobody reads, filled past its memory limit, so the rest waits
    /// in a spill file; then it says so and waits for the parent's SIGKILL.
    private func spillAndWaitToBeKilled() async throws {
        let buffer = BodyBuffer(memoryLimit: 1_000)
        for index in 0..<50 { buffer.receive(Data(repeating: UInt8(index), count: 1_000)) }
        try #require(buffer.backlogFile != nil)
        FileHandle.standardOutput.write(Data("\(Self.readyLine)\n".utf8))
        try await Task.sleep(for: .seconds(600))
        Issue.record("the child was not killed")
    }

    /// What `handle` says until a line equal to `line` arrives or it ends.
    private static func lines(of handle: FileHandle, until line: String) async -> [String] {
        await withCheckedContinuation { continuation in
            let text = Locked((text: "", isDone: false))
            handle.readabilityHandler = { handle in
                let data = handle.availableData
                let finished: [String]? = text.withLock { state in
                    guard !state.isDone else { return nil }
                    state.text += String(decoding: data, as: UTF8.self)
                    let lines = state.text.split(separator: "\n").map(String.init)
                    guard data.isEmpty || lines.contains(line) else { return nil }
                    state.isDone = true
                    return lines
                }
                if let finished {
                    handle.readabilityHandler = nil
                    continuation.resume(returning: finished)
                }
            }
        }
    }
}
