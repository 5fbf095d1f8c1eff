import Foundation
import SalvoWorkloads

/// Benchmarks 9 and 10 (issue 12): a large download to a file and a large multipart file upload,
/// one whole transfer per batch and side. The judged row's target is the issue's "at least 0.9×
/// the raw task's throughput": time ≤ 1 / 0.9; the `c` rows put the same Salvo transfer next to
/// the other ways of doing it with raw URLSession, for context.
extension Comparisons {
    /// The raw download benchmark 9 is judged against, then the others (see Docs/Performance.md for why).
    static let downloadMethods: [FileDownload.RawMethod] = [.downloadTask, .dataDelegate, .dataDelegateSynchronized, .downloadDelegate]

    /// The raw upload benchmark 10 is judged against, then the other.
    static let uploadMethods: [MultipartUpload.RawMethod] = [.bodyStream, .bodyStreamWithTaskDelegate, .uploadFromFile]

    /// The names of benchmark 9's rows, one per raw method in ``downloadMethods`` order, known
    /// before the server is started.
    static func downloadNames(byteCount: Int) -> [String] {
        names("9 Transfer: download \(byteCount >> 20) MiB to a file", context: "9c Transfer: same download", downloadMethods.map(name))
    }

    /// The names of benchmark 10's rows, one per raw method in ``uploadMethods`` order.
    static func uploadNames(byteCount: Int) -> [String] {
        names("10 Transfer: multipart upload of a \(byteCount >> 20) MiB file", context: "10c Transfer: same upload", uploadMethods.map(name))
    }

    /// Benchmark 9: Salvo's `download(to:)` against each raw method, after checking they all save the same file.
    static func download(_ download: FileDownload) async throws -> [Comparison] {
        try await download.checkEquivalence()
        return rows(downloadNames(byteCount: download.byteCount), downloadMethods, baselineName: name,
                    salvo: { sink(try await download.salvo()) }, raw: { sink(try await download.raw($0)) })
    }

    /// Benchmark 10: Salvo's multipart upload against each raw method, after checking they all send the same form.
    static func upload(_ upload: MultipartUpload) async throws -> [Comparison] {
        try await upload.checkEquivalence()
        return rows(uploadNames(byteCount: upload.files.byteCount), uploadMethods, baselineName: name,
                    salvo: { sink(try await upload.salvo()) }, raw: { sink(try await upload.raw($0)) })
    }

    private static func names(_ judged: String, context: String, _ baselines: [String]) -> [String] {
        [judged] + baselines.dropFirst().map { "\(context), against \($0)" }
    }

    /// The first method's row is judged, the others are context.
    private static func rows<Method: Sendable>(
        _ names: [String],
        _ methods: [Method],
        baselineName: (Method) -> String,
        salvo: @escaping @Sendable () async throws -> Void,
        raw: @escaping @Sendable (Method) async throws -> Void
    ) -> [Comparison] {
        zip(names, methods).enumerated().map { index, row in
            let (name, method) = row
            return Comparison(
                name: name, baselineName: baselineName(method),
                target: index == 0 ? .ratio(atMost: 1.11) : .reportedOnly, judged: .wallClock, operationsPerBatch: 1,
                salvo: salvo, baseline: { try await raw(method) }
            )
        }
    }

    private static func name(_ method: FileDownload.RawMethod) -> String {
        switch method {
        case .downloadTask: "URLSession downloadTask(with:completionHandler:)"
        case .dataDelegate: "URLSession data delegate writing to a FileHandle"
        case .dataDelegateSynchronized: "the same data delegate, fsync before the rename"
        case .downloadDelegate: "URLSession downloadTask with a download delegate"
        }
    }

    private static func name(_ method: MultipartUpload.RawMethod) -> String {
        switch method {
        case .bodyStream: "URLSession data task, httpBodyStream of the form file"
        case .bodyStreamWithTaskDelegate: "the same data task with an idle task delegate"
        case .uploadFromFile: "URLSession uploadTask(with:fromFile:) of the form file"
        }
    }
}
