import CCallgrind
import Foundation

/// One side of a counted workload: what it sets up once (outside the count) and the operations it
/// runs `count` times.
struct CountedSide {
    let name: String
    /// Sets up the side in its own process (bootstraps, builds the call) and returns the operations.
    let setUp: @Sendable (_ baseURL: URL?) throws -> @Sendable (_ count: Int) throws -> Void
}

/// A workload whose sides are counted, the baseline first: each row says what the others add to it.
struct CountedWorkload {
    let name: String
    /// Operations per count relative to `--count` (an HTTP request is ~100× an in-process firing).
    let scale: Double
    let sides: [CountedSide]
}

/// Counts instructions per operation of every side of `workloads` with callgrind, one child
/// process per side (so each side bootstraps its own handlers), and prints a Markdown table; exits
/// with status 1 and the error on standard error when that fails.
///
/// `CommandLine.arguments`: `[--count N] [--only SUBSTRING]`, or `--child WORKLOAD SIDE COUNT [BASE_URL]`
/// when this executable runs itself under valgrind. The driver starts the repository's loopback
/// server and hands its URL to every child.
func countInstructions(of workloads: [CountedWorkload]) {
    do {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--child" {
            arguments.removeFirst()
            guard arguments.count >= 3, let count = Int(arguments[2]) else { throw WorkloadError("usage: --child WORKLOAD SIDE COUNT [BASE_URL]") }
            guard let side = workloads.first(where: { $0.name == arguments[0] })?.sides.first(where: { $0.name == arguments[1] }) else {
                throw WorkloadError("no side \(arguments[1]) of \(arguments[0])")
            }
            return try runChild(side, count: count, baseURL: arguments.count > 3 ? URL(string: arguments[3]) : nil)
        }
        var count = 2_000
        var only: String?
        while let flag = arguments.first, arguments.count >= 2 {
            switch flag {
            case "--count": count = Int(arguments[1]) ?? count
            case "--only": only = arguments[1]
            default: throw WorkloadError("unknown option \(flag)")
            }
            arguments.removeFirst(2)
        }
        let selected = workloads.filter { workload in only.map { workload.name.localizedCaseInsensitiveContains($0) } ?? true }
        if ProcessInfo.processInfo.environment["SALVO_LOOPBACK_SERVER"] == nil {
            // This file is in Integrations/<package>/Sources/<tool>/; the script is in Salvo's tests.
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized
            setenv("SALVO_LOOPBACK_SERVER", root.appendingPathComponent("Tests/SalvoTests/Transport/Support/Servers/loopback_server.py").path, 1)
        }
        let server = try LoopbackServer()
        defer { server.stop() }
        try printCounts(of: selected, count: count, baseURL: server.baseURL)
    } catch {
        FileHandle.standardError.write(Data("\(CommandLine.arguments[0]): \(error)\n".utf8))
        exit(1)
    }
}

/// Counts every side of `workloads` in a child of its own and prints a row for each.
private func printCounts(of workloads: [CountedWorkload], count: Int, baseURL: URL) throws {
    try withTemporaryFolder(named: "salvo-instructions") { directory in
        let executable = try strippedCopy(in: directory)
        print("| workload | side | instructions per op | over the first side |")
        print("|---|---|---|---|")
        for workload in workloads {
            let operations = max(Int(Double(count) * workload.scale), 1)
            var first: Double?
            for side in workload.sides {
                let total = try countInChild(executable: executable, workload: workload.name, side: side.name, count: operations, baseURL: baseURL)
                let perOperation = Double(total) / Double(operations)
                let versus = first.map { String(format: "%+.0f (%+.1f%%)", perOperation - $0, (perOperation / $0 - 1) * 100) } ?? "—"
                first = first ?? perOperation
                print("| \(workload.name) | \(side.name) | \(String(format: "%.0f", perOperation)) | \(versus) |")
            }
        }
    }
}

/// The child: sets the side up, warms it up, then counts `count` operations between zeroing and
/// dumping callgrind's counters. The main thread waits while the operations run on the pool.
private func runChild(_ side: CountedSide, count: Int, baseURL: URL?) throws {
    guard salvo_running_on_valgrind() != 0 else {
        throw WorkloadError("not running under valgrind, or built without its headers (valgrind/callgrind.h)")
    }
    let operations = try side.setUp(baseURL)
    try operations(max(count / 10, 20))
    salvo_callgrind_zero_stats()
    try operations(count)
    salvo_callgrind_dump_stats("measured")
}

/// A copy of this executable without debug information, which valgrind 3.19 cannot read in the
/// DWARF 5 that Swift 6.3 writes; symbols stay.
private func strippedCopy(in directory: URL) throws -> String {
    let copy = directory.appendingPathComponent("counted").path
    let objcopy = try ChildProcess.run("/usr/bin/env", ["objcopy", "--strip-debug", ChildProcess.thisExecutable, copy])
    guard objcopy.status == 0 else { throw WorkloadError("objcopy --strip-debug failed") }
    return copy
}

/// Runs one side in a child under callgrind; returns the instructions its `count` operations took.
private func countInChild(executable: String, workload: String, side: String, count: Int, baseURL: URL?) throws -> Int {
    try withTemporaryFolder(named: "salvo-callgrind") { directory in
        let valgrind = try ChildProcess.run("/usr/bin/env", [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=\(directory.path)/out", "--dump-line=no",
            executable, "--child", workload, side, String(count),
        ] + (baseURL.map { [$0.absoluteString] } ?? []), reading: .standardError)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("out") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            guard text.contains("Client Request: measured") else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
                if let total = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return total }
            }
        }
        throw WorkloadError("no callgrind dump for \(workload) / \(side) (status \(valgrind.status)):\n" + String(valgrind.output.suffix(2_000)))
    }
}
