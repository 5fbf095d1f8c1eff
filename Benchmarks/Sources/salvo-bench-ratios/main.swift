import Foundation
import SalvoWorkloads

// salvo-bench-ratios: the paired Salvo/baseline ratios of Docs/Performance.md.
//
//   swift run --package-path Benchmarks -c release salvo-bench-ratios [--rounds N] [--batch N]
//       [--requests N] [--stream-bytes N] [--transfer-bytes N] [--memory-runs N] [--only SUBSTRING]

do {
    if CommandLine.arguments.dropFirst().first == "--memory-probe" {
        // A child of StreamingMemory: one measurement in a process of its own.
        try await StreamingMemory.probe(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    }
    if CommandLine.arguments.dropFirst().first == "--transfer-probe" {
        // A child of TransferMemory: one measurement in a process of its own.
        try await TransferMemory.probe(Array(CommandLine.arguments.dropFirst(2)))
        exit(0)
    }
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let timer = PairedTimer(rounds: options.rounds)
    var comparisons = try Comparisons.inProcess(batch: options.batch).filter { selected($0.name, options) }
    if selected("4 Pager, 1,000 pages, .object()", options) || selected("4b Pager, 1,000 pages, .decoding(struct)", options) {
        comparisons += try await Comparisons.paging(PagerWalk()).filter { selected($0.name, options) }
    }
    if selected("6 route matching, 1,000 routes", options) || selected("7 cassette replay, 1,000 exchanges", options) {
        comparisons += try Comparisons.mocking(batch: options.batch).filter { selected($0.name, options) }
    }
    if Comparisons.eventStreamNames.contains(where: { selected($0, options) }) {
        comparisons += try Comparisons.eventStream(small: EventStreamParsing(), padded: EventStreamParsing(padding: 180))
            .filter { selected($0.name, options) }
    }
    let streamingName = Comparisons.streamingName(byteCount: options.streamBytes)
    let isStreamingSelected = selected(streamingName, options)
    let isStreamingMemorySelected = selected(StreamingMemory.name(byteCount: options.streamBytes), options)
    let downloadNames = Comparisons.downloadNames(byteCount: options.transferBytes)
    let uploadNames = Comparisons.uploadNames(byteCount: options.transferBytes)
    let isDownloadSelected = downloadNames.contains { selected($0, options) }
    let isUploadSelected = uploadNames.contains { selected($0, options) }
    let isDownloadMemorySelected = selected(TransferMemory.downloadName(byteCount: options.transferBytes), options)
    let isUploadMemorySelected = selected(TransferMemory.uploadName(byteCount: options.transferBytes), options)
    let isTransferSelected = isDownloadSelected || isUploadSelected || isDownloadMemorySelected || isUploadMemorySelected
    var server: LoopbackServer?
    let isCacheSelected = Comparisons.cacheNames.contains { selected($0, options) }
    let isValueSelected = Comparisons.valueNames.contains { selected($0, options) }
    let isContextSwitchSelected = selected(ContextSwitchCheck.name, options)
    if isValueSelected || isContextSwitchSelected || isCacheSelected || Comparisons.httpNames.contains(where: { selected($0, options) }) || isStreamingSelected || isStreamingMemorySelected || isTransferSelected {
        server = try LoopbackServer()
    }
    if let server, Comparisons.httpNames.contains(where: { selected($0, options) }) {
        comparisons += try Comparisons.http(server: server, requests: options.requests, concurrencies: Comparisons.httpConcurrencies)
            .filter { selected($0.name, options) }
    }
    let valueFiring = try server.flatMap { isValueSelected || isContextSwitchSelected ? try ValueFiring(baseURL: $0.baseURL) : nil }
    if let valueFiring, isValueSelected {
        comparisons += try await Comparisons.value(valueFiring, requests: options.requests).filter { selected($0.name, options) }
    }
    let cacheFiring = try server.flatMap { isCacheSelected ? try CacheFiring(baseURL: $0.baseURL) : nil }
    defer { cacheFiring?.removeFolder() }
    if let cacheFiring {
        comparisons += try await Comparisons.caching(cacheFiring, requests: options.requests).filter { selected($0.name, options) }
    }
    if let server, isStreamingSelected {
        comparisons.append(try await Comparisons.streaming(ByteStreaming(baseURL: server.baseURL, byteCount: options.streamBytes)))
    }
    // The upload's files are written once per run, outside every timed region.
    let uploadFiles = isUploadSelected || isUploadMemorySelected ? try MultipartUpload.Files(byteCount: options.transferBytes) : nil
    defer { uploadFiles?.remove() }
    let download = try server.flatMap { isDownloadSelected ? try FileDownload(baseURL: $0.baseURL, byteCount: options.transferBytes) : nil }
    defer { download?.removeFolder() }
    if let download {
        comparisons += try await Comparisons.download(download).filter { selected($0.name, options) }
    }
    if let server, let uploadFiles, isUploadSelected {
        comparisons += try await Comparisons.upload(MultipartUpload(baseURL: server.baseURL, files: uploadFiles)).filter { selected($0.name, options) }
    }
    // Benchmarks 11 and 12 fire at nginx: the Python server is slower than every client.
    let serverSideNames = Comparisons.serverSideNames(byteCount: options.streamBytes)
    var nginx: NginxServer?
    var serverSide: ServerSideFiring?
    if serverSideNames.contains(where: { selected($0, options) }) {
        // Without nginx, a filter that also selects other rows (`--only HTTP`) skips these; one
        // that selects only these fails, saying what to install.
        if NginxServer.executable == nil, options.only == nil || !comparisons.isEmpty {
            print("(benchmarks 11 and 12 skipped: nginx not found; apt-get install nginx-light, or set SALVO_NGINX)")
        } else {
            let started = try NginxServer()
            nginx = started
            try ServerSideFiring.serveFiles(on: started, byteCount: options.streamBytes)
            let firing = try ServerSideFiring(baseURL: started.baseURL, byteCount: options.streamBytes)
            serverSide = firing
            comparisons += Comparisons.serverSide(firing, requests: options.requests).filter { selected($0.name, options) }
        }
    }
    // The WebSocket rows (issue 40) fire at an echo server in this process.
    let webSocketServer = try Comparisons.webSocketNames.contains { selected($0, options) } ? WebSocketEchoServer() : nil
    var webSocketEchoes: [WebSocketEcho] = []
    if let webSocketServer {
        let (rows, echoes) = try await Comparisons.webSocket(baseURL: webSocketServer.baseURL, requests: options.requests)
        comparisons += rows.filter { selected($0.name, options) }
        webSocketEchoes = echoes
    }
    if !comparisons.isEmpty { print(Report.header(rounds: options.rounds)) }
    var throughputs: [String] = []
    var references: [String] = []
    for comparison in comparisons {
        let result = try await timer.run(comparison)
        print(Report.row(result))
        if let line = Report.reference(result) { references.append(line) }
        if comparison.name == streamingName || comparison.name == Comparisons.serverSideStreamingName(byteCount: options.streamBytes) {
            throughputs.append(Report.throughput(result, byteCount: options.streamBytes))
        } else if downloadNames.contains(comparison.name) || uploadNames.contains(comparison.name) {
            throughputs.append(Report.throughput(result, byteCount: options.transferBytes))
        } else if comparison.name == Comparisons.webSocketThroughputName {
            throughputs.append(Report.throughput(result, byteCount: 1 << 20))
        }
    }
    for line in references + throughputs { print("\n" + line) }
    if let valueFiring, isContextSwitchSelected {
        print("\n\(ContextSwitchCheck.name), \(options.requests) requests per side per round:\n")
        print(try await ContextSwitchCheck.report(valueFiring, requests: options.requests, rounds: options.rounds))
    }
    for echo in webSocketEchoes { await echo.close() }
    webSocketServer?.stop()
    try await serverSide?.shutdown()
    nginx?.stop()
    if let server, isStreamingMemorySelected {
        print("\n\(StreamingMemory.name(byteCount: options.streamBytes)), each run in a process of its own:\n")
        print(try StreamingMemory.report(server: server, byteCount: options.streamBytes, runs: options.memoryRuns))
    }
    if let server, isDownloadMemorySelected {
        print("\n\(TransferMemory.downloadName(byteCount: options.transferBytes)), each run in a process of its own:\n")
        print(try TransferMemory.report(TransferMemory.downloadProbes, server: server, byteCount: options.transferBytes, uploadFolder: nil, runs: options.memoryRuns))
    }
    if let server, let uploadFiles, isUploadMemorySelected {
        print("\n\(TransferMemory.uploadName(byteCount: options.transferBytes)), each run in a process of its own:\n")
        print(try TransferMemory.report(TransferMemory.uploadProbes, server: server, byteCount: options.transferBytes, uploadFolder: uploadFiles.folder, runs: options.memoryRuns))
    }
    server?.stop()
    if selected(CacheMemory.name, options) {
        print("\n\(CacheMemory.name) (heap in use, glibc):\n")
        print(try await CacheMemory.report())
    }
    if selected("4 Pager, 1,000 pages, .object()", options) {
        print("\nMemory kept by a walk (benchmark 4):\n")
        print(try await PagingMemory.report(pageCounts: [250, 1_000]))
    }
} catch {
    FileHandle.standardError.write(Data("salvo-bench-ratios: \(error)\n".utf8))
    exit(1)
}
