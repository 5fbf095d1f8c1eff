import Foundation
import SalvoWorkloads

/// Benchmarks 9b and 10b: peak resident memory growth while a body is downloaded to a file or a
/// file is uploaded as a multipart part, each run in a process of its own (this tool run again
/// with `--transfer-probe`; see ``MemoryProbe``).
enum TransferMemory {
    /// The name of benchmark 9's memory section, which `--only` matches.
    static func downloadName(byteCount: Int) -> String {
        "9b Transfer: download \(byteCount >> 20) MiB to a file, memory: peak RSS growth"
    }

    /// The name of benchmark 10's memory section, which `--only` matches.
    static func uploadName(byteCount: Int) -> String {
        "10b Transfer: multipart upload of a \(byteCount >> 20) MiB file, memory: peak RSS growth"
    }

    /// What one probe measures: a side of benchmark 9 (`download`) or 10 (`upload`).
    struct Probe {
        let label: String
        let kind: String
        /// `salvo`, or the raw method's name.
        let side: String
        let target: Int?
    }

    /// The bound both transfers are held to (issue 12): 32 MB.
    static let target = 32_000_000

    static let downloadProbes = [
        Probe(label: "Salvo `download(to:)`", kind: "download", side: "salvo", target: target),
        Probe(label: "raw `downloadTask(with:completionHandler:)`", kind: "download", side: FileDownload.RawMethod.downloadTask.rawValue, target: nil),
        Probe(label: "raw data delegate writing to a `FileHandle`", kind: "download", side: FileDownload.RawMethod.dataDelegate.rawValue, target: nil),
    ]

    static let uploadProbes = [
        Probe(label: "Salvo `.multipart` with a file part", kind: "upload", side: "salvo", target: target),
        Probe(label: "raw data task, `httpBodyStream` of the form file", kind: "upload", side: MultipartUpload.RawMethod.bodyStream.rawValue, target: nil),
        Probe(label: "raw `uploadTask(with:fromFile:)` of the form file", kind: "upload", side: MultipartUpload.RawMethod.uploadFromFile.rawValue, target: nil),
    ]

    /// Runs each of `probes` `runs` times against `server` and returns the Markdown table; an
    /// upload sends the files in `uploadFolder` (written once by the caller).
    static func report(_ probes: [Probe], server: LoopbackServer, byteCount: Int, uploadFolder: URL?, runs: Int) throws -> String {
        guard ResidentMemory.current() != nil else {
            return "resident memory is not available on this platform (/proc/self/status), memory not checked"
        }
        let verb = probes.first?.kind == "upload" ? "uploaded" : "downloaded"
        var lines = [
            "| \(byteCount >> 20) MiB \(verb) by | peak RSS growth, median of \(runs) runs (min–max) | heap in use at that peak | largest stream backlog file | time | target | met |",
            "|---|---|---|---|---|---|---|",
        ]
        for probe in probes {
            var arguments = ["--transfer-probe", probe.kind, probe.side, server.baseURL.absoluteString, String(byteCount)]
            if probe.kind == "upload", let uploadFolder { arguments.append(uploadFolder.path) }
            let results = try (0..<runs).map { _ in try MemoryProbe.inChild(arguments, label: "\(probe.kind) \(probe.side)") }
            lines.append(MemoryProbe.row(probe.label, results, showsBacklog: probe.side == "salvo", target: probe.target))
        }
        return lines.joined(separator: "\n")
    }

    /// The child's side: `--transfer-probe download|upload SIDE BASE_URL BYTES [FOLDER]`, SIDE
    /// `salvo` or a raw method's name; an upload sends the files already in FOLDER.
    ///
    /// Transfers 1 MiB the same way first (so sessions, connections and threads exist), then
    /// measures one transfer of `BYTES` (see ``MemoryProbe/measure(queuedCallbacks:_:)``).
    static func probe(_ arguments: [String]) async throws {
        let usage = "usage: --transfer-probe download|upload salvo|RAW_METHOD BASE_URL BYTES [FOLDER]"
        guard arguments.count >= 4, let url = URL(string: arguments[2]), let byteCount = Int(arguments[3]) else {
            throw WorkloadError(usage)
        }
        let side = arguments[1]
        let isSalvo = side == "salvo"
        let warmUp = 1 << 20
        switch arguments[0] {
        case "download":
            let download = try FileDownload(baseURL: url, byteCount: byteCount)
            defer { download.removeFolder() }
            let method = FileDownload.RawMethod(rawValue: side)
            guard isSalvo || method != nil else { throw WorkloadError(usage) }
            let once: (Int?) async throws -> Void = { size in
                if let method { try await download.raw(method, byteCount: size) } else { try await download.salvo(byteCount: size) }
            }
            try await once(warmUp)
            try await MemoryProbe.measure(queuedCallbacks: { download.queuedDelegateCallbacks(isSalvo: isSalvo) }) {
                try await once(nil)
            }
        case "upload":
            guard arguments.count == 5 else { throw WorkloadError(usage) }
            let files = try MultipartUpload.Files(byteCount: byteCount, in: URL(fileURLWithPath: arguments[4]), isWritten: true)
            let small = try MultipartUpload.Files(byteCount: warmUp)
            defer { small.remove() }
            let upload = try MultipartUpload(baseURL: url, files: files)
            let method = MultipartUpload.RawMethod(rawValue: side)
            guard isSalvo || method != nil else { throw WorkloadError(usage) }
            let once: (MultipartUpload.Files) async throws -> Void = { files in
                if let method { try await upload.raw(method, files) } else { try await upload.salvo(files) }
            }
            try await once(small)
            try await MemoryProbe.measure(queuedCallbacks: { upload.queuedDelegateCallbacks(isSalvo: isSalvo) }) {
                try await once(files)
            }
        default:
            throw WorkloadError(usage)
        }
    }
}
