import CCallgrind
import Foundation
import SalvoWorkloads

/// The child: `--child WORKLOAD SIDE COUNT [BASE_URL]`, under callgrind.
func child(_ arguments: [String]) throws {
    guard arguments.count >= 3, let count = Int(arguments[2]) else { throw WorkloadError("usage: --child WORKLOAD SIDE COUNT [BASE_URL]") }
    guard salvo_running_on_valgrind() != 0 else {
        throw WorkloadError("not running under valgrind, or built without its headers (valgrind/callgrind.h): install valgrind and rebuild")
    }
    let list = try workloads(baseURL: arguments.count > 3 ? URL(string: arguments[3]) : nil)
    guard let side = list.first(where: { $0.name == arguments[0] })?.sides.first(where: { $0.name == arguments[1] }) else {
        throw WorkloadError("no side \(arguments[1]) of \(arguments[0])")
    }
    let warmUp = max(count / 10, 20)
    try side.prepare(warmUp)
    try side.prepare(count)
    try side.run(warmUp)
    salvo_callgrind_zero_stats()
    try side.run(count)
    salvo_callgrind_dump_stats("measured")
}

/// A copy of this executable without debug information, which valgrind 3.19 cannot read in the
/// DWARF 5 that Swift 6.3 writes ("Possibly corrupted debuginfo file"); symbols stay.
func strippedCopy(in directory: URL) throws -> String {
    let copy = directory.appendingPathComponent("salvo-bench-instructions").path
    let objcopy = try ChildProcess.run("/usr/bin/env", ["objcopy", "--strip-debug", ChildProcess.thisExecutable, copy])
    guard objcopy.status == 0 else { throw WorkloadError("objcopy --strip-debug failed") }
    return copy
}

/// Runs one side in a child under callgrind; returns the instructions its `count` operations took.
func countInstructions(executable: String, workload: String, side: String, count: Int, baseURL: URL?) throws -> Int {
    try withTemporaryFolder(named: "salvo-callgrind") { directory in
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let valgrind = try ChildProcess.run("/usr/bin/env", [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=\(directory.path)/out", "--dump-line=no",
            executable, "--child", workload, side, String(count),
        ] + (baseURL.map { [$0.absoluteString] } ?? []), reading: .standardError, temporaryDirectory: temporary)
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
