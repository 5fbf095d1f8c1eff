import Foundation
import SalvoWorkloads

/// Peak resident memory growth of one piece of work, measured in a fresh process of its own (this
/// tool run again with a probe flag), so no run inherits another's heap, and with a private
/// `TMPDIR`, so the backlog files a stream spills to can be watched. Rows 8b, 9b and 10b.
struct MemoryProbe {
    /// Peak RSS minus RSS before the work, in bytes.
    let growth: Int
    /// The largest total size of `salvo-stream-*` backlog files seen in `TMPDIR`, in bytes.
    let backlog: Int
    /// How long the work took.
    let seconds: Double
    /// Heap growth (malloc's live blocks) when the resident set was largest.
    let heapAtPeak: Int

    /// Runs this tool with `arguments` in a child process whose `TMPDIR` is a new folder, and
    /// reads the measurement it prints; `label` names the run in the line echoed to stderr.
    static func inChild(_ arguments: [String], label: String) throws -> MemoryProbe {
        let child = try withTemporaryFolder(named: "salvo-bench") { temporary in
            try ChildProcess.run(ChildProcess.thisExecutable, arguments, reading: .standardOutput, temporaryDirectory: temporary)
        }
        let text = child.output
        let fields = Dictionary(text.split(whereSeparator: \.isWhitespace).compactMap { pair -> (String, String)? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { _, last in last })
        guard child.status == 0, let growth = fields["growth"].flatMap(Int.init),
              let backlog = fields["backlog"].flatMap(Int.init), let seconds = fields["seconds"].flatMap(Double.init),
              let heapAtPeak = fields["heapAtPeak"].flatMap(Int.init)
        else {
            throw WorkloadError("memory probe \(label) failed (status \(child.status)): \(text)")
        }
        FileHandle.standardError.write(Data("  \(label): \(text)".utf8))
        return MemoryProbe(growth: growth, backlog: backlog, seconds: seconds, heapAtPeak: heapAtPeak)
    }

    /// The child's side: starts the kernel's peak over, runs `work` while sampling every 10 ms,
    /// and prints `growth=` (peak RSS minus RSS before, bytes), `backlog=` (the largest
    /// `salvo-stream-*` total in `TMPDIR`), `seconds=`, and from the samples `heapAtPeak=` (heap
    /// growth when the resident set was largest), `heapPeak=` (the largest heap growth),
    /// `sampledResidentPeak=` and `queuedCallbacks=` (the most `queuedCallbacks` returned).
    ///
    /// Run a small piece of the same work first, so sessions, connections and threads exist.
    static func measure(queuedCallbacks: @escaping @Sendable () -> Int, _ work: () async throws -> Void) async throws {
        guard ResidentMemory.resetPeak(), let before = ResidentMemory.current() else {
            throw WorkloadError("cannot reset or read the resident set size (/proc/self/clear_refs, /proc/self/status)")
        }
        let heapBefore = heapBytesInUseWithMapped() ?? 0
        let watcher = MemoryWatcher(directory: FileManager.default.temporaryDirectory, queuedCallbacks: queuedCallbacks)
        let start = ContinuousClock.now
        try await work()
        let elapsed = ContinuousClock.now - start
        guard let peak = ResidentMemory.peak() else { throw WorkloadError("cannot read VmHWM") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let samples = watcher.stop()
        print("growth=\(peak - before) backlog=\(samples.largestBacklog) seconds=\(seconds) "
            + "heapAtPeak=\(samples.heapAtLargestResident - heapBefore) heapPeak=\(samples.largestHeap - heapBefore) "
            + "sampledResidentPeak=\(samples.largestResident - before) queuedCallbacks=\(samples.mostQueuedCallbacks)")
    }

    /// A Markdown row: the median growth of `probes` with its range, the heap at that peak, the
    /// largest backlog (`nil`: the column shows a dash), the median time, and the verdict
    /// against `target` bytes (`nil`: context).
    static func row(_ label: String, _ probes: [MemoryProbe], showsBacklog: Bool, target: Int?) -> String {
        let growths = probes.map(\.growth).sorted()
        let growth = growths[growths.count / 2]
        let heap = probes.first { $0.growth == growth }?.heapAtPeak ?? 0
        let seconds = probes.map(\.seconds).sorted()[probes.count / 2]
        let cells = [
            label,
            "\(megabytes(growth)) (\(megabytes(growths.first ?? 0))–\(megabytes(growths.last ?? 0)))",
            megabytes(heap),
            showsBacklog ? megabytes(probes.map(\.backlog).max() ?? 0) : "—",
            String(format: "%.2f s", seconds),
            target.map { "≤ \(megabytes($0))" } ?? "none (context)",
            target.map { growth <= $0 ? "yes" : "**no**" } ?? "—",
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    static func megabytes(_ bytes: Int) -> String {
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
