import Foundation
import SalvoWorkloads

/// Benchmark 8b: peak resident memory growth while a body streams, each measurement in a fresh
/// process of its own (this tool run again with `--memory-probe`), so no run inherits another's
/// heap, and with a private `TMPDIR`, so the backlog file Salvo spills to can be watched.
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
            var results: [Measurement] = []
            for _ in 0..<runs {
                results.append(try run(probe, server: server, byteCount: byteCount))
            }
            let growths = results.map(\.growth).sorted()
            let growth = growths[growths.count / 2]
            let heap = results.first { $0.growth == growth }?.heapAtPeak ?? 0
            let backlog = results.map(\.backlog).max() ?? 0
            let seconds = results.map(\.seconds).sorted()[results.count / 2]
            let cells = [
                probe.label,
                "\(megabytes(growth)) (\(megabytes(growths.first ?? 0))–\(megabytes(growths.last ?? 0)))",
                megabytes(heap),
                probe.side == "salvo" ? megabytes(backlog) : "—",
                String(format: "%.2f s", seconds),
                probe.target.map { "≤ \(megabytes($0))" } ?? "none (context)",
                probe.target.map { growth <= $0 ? "yes" : "**no**" } ?? "—",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private struct Measurement {
        let growth: Int
        let backlog: Int
        let seconds: Double
        /// Heap growth (malloc's live blocks) when the resident set was largest.
        let heapAtPeak: Int
    }

    /// One probe in a child process with a temporary directory of its own.
    private static func run(_ probe: Probe, server: LoopbackServer, byteCount: Int) throws -> Measurement {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        process.arguments = [
            "--memory-probe", probe.side, server.baseURL.absoluteString, String(byteCount),
            probe.bytesPerSecond.map { String($0) } ?? "0",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let fields = Dictionary(uniqueKeysWithValues: text.split(whereSeparator: \.isWhitespace).compactMap { pair -> (String, String)? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        guard process.terminationStatus == 0, let growth = fields["growth"].flatMap(Int.init),
              let backlog = fields["backlog"].flatMap(Int.init), let seconds = fields["seconds"].flatMap(Double.init),
              let heapAtPeak = fields["heapAtPeak"].flatMap(Int.init)
        else {
            throw WorkloadError("memory probe \(probe.side) failed (status \(process.terminationStatus)): \(text)")
        }
        FileHandle.standardError.write(Data("  \(probe.side) \(probe.bytesPerSecond.map { "\(Int($0) >> 20) MiB/s" } ?? "fast"): \(text)".utf8))
        return Measurement(growth: growth, backlog: backlog, seconds: seconds, heapAtPeak: heapAtPeak)
    }

    /// The child's side: `--memory-probe salvo|raw BASE_URL BYTES BYTES_PER_SECOND` (0: no pace).
    ///
    /// Streams 1 MiB first so sessions, connections and threads exist, starts the kernel's peak
    /// over, streams the body and prints `growth=` (peak RSS minus RSS before, bytes), `backlog=`
    /// (the largest `salvo-stream-*` file seen in `TMPDIR`), `seconds=`, and from samples every
    /// 10 ms: `heapAtPeak=` (heap growth when the resident set was largest), `heapPeak=` (the
    /// largest heap growth) and `sampledResidentPeak=`.
    static func probe(_ arguments: [String]) async throws {
        guard arguments.count == 4, let url = URL(string: arguments[1]), let byteCount = Int(arguments[2]),
              let pace = Double(arguments[3]), ["salvo", "raw"].contains(arguments[0])
        else { throw WorkloadError("usage: --memory-probe salvo|raw BASE_URL BYTES BYTES_PER_SECOND") }
        let streaming = try ByteStreaming(baseURL: url, byteCount: byteCount)
        let isSalvo = arguments[0] == "salvo"
        let bytesPerSecond = pace > 0 ? pace : nil
        let warmUp = 1 << 20
        _ = isSalvo ? try await streaming.salvo(consumingAtMost: nil, byteCount: warmUp) : try await streaming.raw(consumingAtMost: nil, byteCount: warmUp)

        guard ResidentMemory.resetPeak(), let before = ResidentMemory.current() else {
            throw WorkloadError("cannot reset or read the resident set size (/proc/self/clear_refs, /proc/self/status)")
        }
        let heapBefore = heapBytesInUseWithMapped() ?? 0
        let watcher = MemoryWatcher(directory: FileManager.default.temporaryDirectory) {
            streaming.queuedDelegateCallbacks(isSalvo: isSalvo)
        }
        let start = ContinuousClock.now
        _ = isSalvo ? try await streaming.salvo(consumingAtMost: bytesPerSecond) : try await streaming.raw(consumingAtMost: bytesPerSecond)
        let elapsed = ContinuousClock.now - start
        guard let peak = ResidentMemory.peak() else { throw WorkloadError("cannot read VmHWM") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let samples = watcher.stop()
        print("growth=\(peak - before) backlog=\(samples.largestBacklog) seconds=\(seconds) "
            + "heapAtPeak=\(samples.heapAtLargestResident - heapBefore) heapPeak=\(samples.largestHeap - heapBefore) "
            + "sampledResidentPeak=\(samples.largestResident - before) queuedCallbacks=\(samples.mostQueuedCallbacks)")
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// Samples, every 10 ms on a thread of its own, the resident set, the heap in use and the size
/// of the stream backlog files in a directory.
private final class MemoryWatcher: @unchecked Sendable {
    struct Samples {
        /// The heap in use (mapped blocks included) when the resident set was at its largest.
        var heapAtLargestResident = 0
        var largestResident = 0
        var largestHeap = 0
        var largestBacklog = 0
        var mostQueuedCallbacks = 0
    }

    // Safe: `samples` and `isStopped` are only touched under `lock`.
    private let lock = NSLock()
    private var samples = Samples()
    private var isStopped = false
    private let done = DispatchSemaphore(value: 0)

    init(directory: URL, queuedCallbacks: @escaping @Sendable () -> Int) {
        Thread { [self] in
            while !lock.withLock({ isStopped }) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                var backlog = 0
                for name in names where name.hasPrefix("salvo-stream-") {
                    let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                    backlog += (attributes?[.size] as? NSNumber)?.intValue ?? 0
                }
                let resident = ResidentMemory.current() ?? 0
                let heap = heapBytesInUseWithMapped() ?? 0
                let queued = queuedCallbacks()
                lock.withLock {
                    if resident > samples.largestResident {
                        samples.largestResident = resident
                        samples.heapAtLargestResident = heap
                    }
                    samples.largestHeap = max(samples.largestHeap, heap)
                    samples.largestBacklog = max(samples.largestBacklog, backlog)
                    samples.mostQueuedCallbacks = max(samples.mostQueuedCallbacks, queued)
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling and returns what it saw.
    func stop() -> Samples {
        lock.withLock { isStopped = true }
        done.wait()
        return lock.withLock { samples }
    }
}
