import Foundation
import SalvoWorkloads

/// Benchmark 8b: peak resident memory growth while a body streams, each measurement in a
/// process of its own (this tool run again with `--memory-probe`; see ``MemoryProbe``).
enum StreamingMemory {
    /// The section's name, which `--only` matches.
    static func name(byteCount: Int) -> String {
        "8b Streaming \(byteCount >> 20) MiB memory: peak RSS growth"
    }

    /// The pace of the slow reader: far below what the loopback transfer runs at (row 8).
    static let slowBytesPerSecond = 64.0 * 1_048_576

    /// What one probe measures.
    struct Probe {
        let label: String
        let side: String
        let bytesPerSecond: Double?
        let target: Int?
    }

    static let probes = [
        Probe(label: "Salvo `bytes()`, reader at 64 MiB/s", side: "salvo", bytesPerSecond: slowBytesPerSecond, target: 32_000_000),
        Probe(label: "raw data delegate, sleeping in `didReceive` to 64 MiB/s", side: "raw", bytesPerSecond: slowBytesPerSecond, target: nil),
        Probe(label: "Salvo `bytes()`, reader as fast as it comes", side: "salvo", bytesPerSecond: nil, target: nil),
        Probe(label: "raw data delegate, as fast as it comes", side: "raw", bytesPerSecond: nil, target: nil),
    ]

    /// Runs every probe `runs` times against `server` and returns the Markdown table.
    static func report(server: LoopbackServer, byteCount: Int, runs: Int) throws -> String {
        guard ResidentMemory.current() != nil else {
            return "resident memory is not available on this platform (/proc/self/status), memory not checked"
        }
        var lines = [
            "| \(byteCount >> 20) MiB streamed by | peak RSS growth, median of \(runs) runs (min–max) | heap in use at that peak | largest backlog file | reader's time | target | met |",
            "|---|---|---|---|---|---|---|",
        ]
        for probe in probes {
            let arguments = [
                "--memory-probe", probe.side, server.baseURL.absoluteString, String(byteCount),
                probe.bytesPerSecond.map { String($0) } ?? "0",
            ]
            let label = "\(probe.side) \(probe.bytesPerSecond.map { "\(Int($0) >> 20) MiB/s" } ?? "fast")"
            let results = try (0..<runs).map { _ in try MemoryProbe.inChild(arguments, label: label) }
            lines.append(MemoryProbe.row(probe.label, results, showsBacklog: probe.side == "salvo", target: probe.target))
        }
        return lines.joined(separator: "\n")
    }

    /// The child's side: `--memory-probe salvo|raw BASE_URL BYTES BYTES_PER_SECOND` (0: no pace).
    ///
    /// Streams 1 MiB first so sessions, connections and threads exist, then measures one stream
    /// of the whole body (see ``MemoryProbe/measure(queuedCallbacks:_:)``).
    static func probe(_ arguments: [String]) async throws {
        guard arguments.count == 4, let url = URL(string: arguments[1]), let byteCount = Int(arguments[2]),
              let pace = Double(arguments[3]), ["salvo", "raw"].contains(arguments[0])
        else { throw WorkloadError("usage: --memory-probe salvo|raw BASE_URL BYTES BYTES_PER_SECOND") }
        let streaming = try ByteStreaming(baseURL: url, byteCount: byteCount)
        let isSalvo = arguments[0] == "salvo"
        let bytesPerSecond = pace > 0 ? pace : nil
        let warmUp = 1 << 20
        _ = isSalvo ? try await streaming.salvo(consumingAtMost: nil, byteCount: warmUp) : try await streaming.raw(consumingAtMost: nil, byteCount: warmUp)
        try await MemoryProbe.measure(queuedCallbacks: { streaming.queuedDelegateCallbacks(isSalvo: isSalvo) }) {
            _ = isSalvo ? try await streaming.salvo(consumingAtMost: bytesPerSecond) : try await streaming.raw(consumingAtMost: bytesPerSecond)
        }
    }
}
