import Foundation
import SalvoWorkloads

// salvo-bench-instructions: instructions per operation of each side of benchmarks 2, 5, 5v, 8, 9, 10, 11, 13e, ws1 and ws2,
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

func run() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--child" { return try child(Array(arguments.dropFirst())) }
    if arguments.first == "--serve-websocket" {
        // For profiling a side by hand: the echo server of ws1 and ws2 until stdin closes, e.g.
        // `SALVO_BENCH_WEBSOCKET_URL=<printed URL> valgrind --tool=callgrind … --child "ws1 …" "raw WSClient" 1000`.
        let server = try WebSocketEchoServer()
        FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        server.stop()
        return
    }
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
    let needsServer = ["5 HTTP, concurrency 1", "5v HTTP value(as:), concurrency 1", "13e cache miss, per request", "8 Streaming, per MiB", "9 Download to a file, per MiB", "10 Multipart upload, per MiB"].contains(where: isSelected)
    let server = needsServer ? try LoopbackServer() : nil
    defer { server?.stop() }
    // Benchmark 11 needs nginx; the children find it through the environment.
    let nginx = ["11 AsyncHTTPClient transport, per request", "11 AsyncHTTPClient transport, 16 concurrent, per request", "12 AsyncHTTPClient streaming 4 MiB, per stream"].contains(where: isSelected) && NginxServer.executable != nil ? try NginxServer() : nil
    defer { nginx?.stop() }
    if let nginx {
        try ServerSideFiring.serveFiles(on: nginx, byteCount: serverSideStreamBytes)
        setenv(serverSideURLVariable, nginx.baseURL.absoluteString, 1)
    }
    // Benchmarks ws1 and ws2: an echo server in this (uncounted) process, found by the children
    // through the environment.
    let webSocketServer = webSocketWorkloadNames.contains(where: isSelected) ? try WebSocketEchoServer() : nil
    defer { webSocketServer?.stop() }
    if let webSocketServer { setenv(webSocketURLVariable, webSocketServer.baseURL.absoluteString, 1) }
    try withTemporaryFolder(named: "salvo-bench-instructions") { directory in
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
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("salvo-bench-instructions: \(error)\n".utf8))
    exit(1)
}
