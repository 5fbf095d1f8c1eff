import CCallgrind
import Foundation
import SalvoWorkloads

// salvo-bench-instructions: instructions per operation of each side of benchmarks 2, 5, 8, 9 and 10,
// counted by valgrind's callgrind (every thread's), so two builds or two commits compare on a
// machine whose speed changes under other work.
//
//   swift build --package-path Benchmarks -c release --product salvo-bench-instructions
//   Benchmarks/.build/release/salvo-bench-instructions [--count N] [--only SUBSTRING]
//
// It runs itself under `valgrind --tool=callgrind` once per side: the child warms up, zeroes the
// counters, runs its operations (N = 2,000 in-process firings, N / 10 HTTP requests, N × 32 KiB
// streamed, downloaded or uploaded) and dumps the counters; the driver reads the dump's total.
// Each child's TMPDIR is a folder of its own, deleted after it. The main is synchronous,
// so zeroing, operations and dump run in order on the main thread while the operations' own
// tasks run on the cooperative pool.

/// One side of a counted workload.
struct Side {
    let name: String
    /// Runs `count` operations.
    let run: @Sendable (Int) throws -> Void
    /// Sets up for `count` operations before the counters are zeroed (writes an upload's files).
    var prepare: @Sendable (Int) throws -> Void = { _ in }
}

/// A workload whose sides are counted, the Salvo side first.
struct Counted {
    let name: String
    /// Operations per count relative to `--count` (HTTP requests are ~100× an in-process firing).
    let scale: Double
    let sides: [Side]
}

func workloads(baseURL: URL?) throws -> [Counted] {
    let firing = MockFiring()
    let pipeline = MockFiring(firingFunction: .session(CannedSession(body: MockFiring.body)))
    var list = [
        Counted(name: "2 mock fire to dataHandler", scale: 1, sides: [
            Side(name: "Salvo: configure + fire") { count in for _ in 0..<count { firing.fire() } },
            Side(name: "baseline: configure") { count in for _ in 0..<count { sink(firing.configure()) } },
        ]),
        Counted(name: "2b same, canned session (pipeline only)", scale: 1, sides: [
            Side(name: "Salvo: configure + fire") { count in for _ in 0..<count { pipeline.fire() } },
            Side(name: "baseline: configure") { count in for _ in 0..<count { sink(pipeline.configure()) } },
        ]),
    ]
    if let baseURL {
        let http = try HTTPFiring(baseURL: baseURL, maxConnections: 1)
        list.append(Counted(name: "5 HTTP, concurrency 1", scale: 0.1, sides: [
            Side(name: "Salvo: NetCall.response()") { count in try blocking { for _ in 0..<count { try await http.salvoOnce() } } },
            Side(name: "URLSession.data(for:)") { count in try blocking { for _ in 0..<count { try await http.rawOnce() } } },
            Side(name: "URLSession.dataTask(with:completionHandler:)") { count in
                try blocking { for _ in 0..<count { try await http.rawCompletionHandlerOnce() } }
            },
        ]))
        let streaming = try ByteStreaming(baseURL: baseURL, byteCount: 1 << 20)
        list.append(Counted(name: "8 Streaming, per MiB", scale: 0.032, sides: [
            Side(name: "Salvo: for try await chunk in call.bytes()") { count in
                try blocking { _ = try await streaming.salvo(consumingAtMost: nil, byteCount: count << 20) }
            },
            Side(name: "URLSession session-level data delegate") { count in
                try blocking { _ = try await streaming.raw(consumingAtMost: nil, byteCount: count << 20) }
            },
        ]))
        let download = try FileDownload(baseURL: baseURL, byteCount: 1 << 20)
        list.append(Counted(name: "9 Download to a file, per MiB", scale: 0.032, sides: [
            Side(name: "Salvo: call.download(to:)") { count in try blocking { try await download.salvo(byteCount: count << 20) } },
        ] + [FileDownload.RawMethod.downloadTask, .dataDelegate].map { method in
            Side(name: "raw \(method.rawValue)") { count in try blocking { try await download.raw(method, byteCount: count << 20) } }
        }))
        let uploads = PreparedUploads(baseURL: baseURL)
        list.append(Counted(name: "10 Multipart upload, per MiB", scale: 0.032, sides: [
            Side(name: "Salvo: .multipart with a file part", run: { count in
                try blocking { try await uploads.upload(count) { upload, files in try await upload.salvo(files) } }
            }, prepare: uploads.prepare),
            Side(name: "raw bodyStream", run: { count in
                try blocking { try await uploads.upload(count) { upload, files in try await upload.raw(.bodyStream, files) } }
            }, prepare: uploads.prepare),
        ]))
    }
    return list
}

/// Upload files of whole MiB, written by `prepare` before the counters are zeroed, and one
/// workload (sessions, connection) that sends all of them.
final class PreparedUploads: @unchecked Sendable {
    private let baseURL: URL
    // Safe: `upload` and `files` are only touched under `lock`.
    private let lock = NSLock()
    private var upload: MultipartUpload?
    private var files: [Int: MultipartUpload.Files] = [:]

    init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Writes the files for an upload of `count` MiB.
    func prepare(_ count: Int) throws {
        let files = try MultipartUpload.Files(byteCount: count << 20)
        try lock.withLock {
            upload = try upload ?? MultipartUpload(baseURL: baseURL, files: files)
            self.files[count] = files
        }
    }

    /// Runs `send` with the workload and the files prepared for `count` MiB.
    func upload(_ count: Int, _ send: @Sendable (MultipartUpload, MultipartUpload.Files) async throws -> Int) async throws {
        guard case let (upload?, files?) = lock.withLock({ (upload, files[count]) }) else {
            throw WorkloadError("no upload prepared for \(count) MiB")
        }
        _ = try await send(upload, files)
    }
}

/// Runs `work` on the cooperative pool and waits for it on this (the main) thread.
func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
        do { try await work() } catch { failure.error = error }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw error }
}

/// The error of a blocking run, published to the waiter by the semaphore.
final class FailureBox: @unchecked Sendable {
    // Safe: written by the task before it signals, read after the wait returns.
    var error: (any Error)?
}

/// The child: `--child WORKLOAD SIDE COUNT [BASE_URL]`, under callgrind.
func child(_ arguments: [String]) throws {
    guard arguments.count >= 3, let count = Int(arguments[2]) else { throw WorkloadError("usage: --child WORKLOAD SIDE COUNT [BASE_URL]") }
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["objcopy", "--strip-debug", Bundle.main.executablePath ?? CommandLine.arguments[0], copy]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw WorkloadError("objcopy --strip-debug failed") }
    return copy
}

/// Runs one side in a child under callgrind; returns the instructions its `count` operations took.
func countInstructions(executable: String, workload: String, side: String, count: Int, baseURL: URL?) throws -> Int {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-callgrind-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=\(directory.path)/out", "--dump-line=no",
        executable, "--child", workload, side, String(count),
    ] + (baseURL.map { [$0.absoluteString] } ?? [])
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    process.environment = environment
    let log = Pipe()
    process.standardError = log
    try process.run()
    let output = log.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("out") {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        guard text.contains("Client Request: measured") else { continue }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let total = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return total }
        }
    }
    throw WorkloadError("no callgrind dump for \(workload) / \(side) (status \(process.terminationStatus)):\n"
        + String(decoding: output.suffix(2_000), as: UTF8.self))
}

func run() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--child" { return try child(Array(arguments.dropFirst())) }
    var count = 2_000
    var only: String?
    while let flag = arguments.first {
        guard arguments.count >= 2 else { throw WorkloadError("\(flag) needs a value") }
        switch flag {
        case "--count": count = Int(arguments[1]) ?? count
        case "--only": only = arguments[1]
        default: throw WorkloadError("unknown option \(flag)")
        }
        arguments.removeFirst(2)
    }
    let isSelected = { (name: String) in only.map { name.localizedCaseInsensitiveContains($0) } ?? true }
    let needsServer = ["5 HTTP, concurrency 1", "8 Streaming, per MiB", "9 Download to a file, per MiB", "10 Multipart upload, per MiB"].contains(where: isSelected)
    let server = needsServer ? try LoopbackServer() : nil
    defer { server?.stop() }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-instructions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let executable = try strippedCopy(in: directory)
    print("| benchmark | side | instructions per op | Salvo over this side |")
    print("|---|---|---|---|")
    for workload in try workloads(baseURL: server?.baseURL) where isSelected(workload.name) {
        let operations = max(Int(Double(count) * workload.scale), 1)
        var salvo: Double?
        for side in workload.sides {
            let perOperation = Double(try countInstructions(executable: executable, workload: workload.name, side: side.name, count: operations, baseURL: server?.baseURL)) / Double(operations)
            let versus = salvo.map { String(format: "%+.0f (%.3f×)", $0 - perOperation, $0 / perOperation) } ?? "—"
            salvo = salvo ?? perOperation
            print("| \(workload.name) | \(side.name) | \(String(format: "%.0f", perOperation)) | \(versus) |")
        }
    }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("salvo-bench-instructions: \(error)\n".utf8))
    exit(1)
}
