import Foundation
import SalvoWorkloads

/// One side of a counted workload.
struct Side {
    let name: String
    /// Runs `count` operations.
    let run: @Sendable (Int) throws -> Void
    /// Sets up for `count` operations before the counters are zeroed (writes an upload's files).
    var prepare: @Sendable (Int) throws -> Void = { _ in }
}

/// A workload whose sides are counted, the Salvo side first.
struct CountedWorkload {
    let name: String
    /// Operations per count relative to `--count` (HTTP requests are ~100× an in-process firing).
    let scale: Double
    let sides: [Side]
}

/// The workloads counted: the in-process ones always, benchmark 11's when the driver handed the
/// children nginx's URL, and the loopback ones when there is a `baseURL`.
func workloads(baseURL: URL?) throws -> [CountedWorkload] {
    let firing = MockFiring()
    let pipeline = MockFiring(firingFunction: .session(CannedSession(body: MockFiring.body)))
    var list = [
        CountedWorkload(name: "2 mock fire to dataHandler", scale: 1, sides: [
            Side(name: "Salvo: configure + fire") { count in for _ in 0..<count { firing.fire() } },
            Side(name: "baseline: configure") { count in for _ in 0..<count { sink(firing.configure()) } },
        ]),
        CountedWorkload(name: "2b same, canned session (pipeline only)", scale: 1, sides: [
            Side(name: "Salvo: configure + fire") { count in for _ in 0..<count { pipeline.fire() } },
            Side(name: "baseline: configure") { count in for _ in 0..<count { sink(pipeline.configure()) } },
        ]),
    ]
    if let nginx = ProcessInfo.processInfo.environment[serverSideURLVariable].flatMap(URL.init(string:)) {
        // Benchmark 11 at concurrency 1: the same small file from nginx through each client. As many
        // requests as in-process firings (scale 1): at a tenth, the work that does not recur per
        // request (connections, the pool's first timers, threads waking) was ~40% of each side's count.
        let serverSide = try ServerSideFiring(baseURL: nginx, byteCount: serverSideStreamBytes, maxConnections: 1)
        list.append(CountedWorkload(name: "11 AsyncHTTPClient transport, per request", scale: 1, sides: [
            Side(name: "Salvo over AsyncHTTPClient: NetCall.response()") { count in try blocking { for _ in 0..<count { try await serverSide.salvoOnce() } } },
            Side(name: "raw AsyncHTTPClient execute + collect") { count in try blocking { for _ in 0..<count { try await serverSide.rawAsyncHTTPClientOnce() } } },
            Side(name: "raw URLSession.data(for:)") { count in try blocking { for _ in 0..<count { try await serverSide.rawURLSessionOnce() } } },
        ]))
        // Benchmark 12 in small: a 4 MiB body streamed through each client, counted per stream.
        list.append(CountedWorkload(name: "12 AsyncHTTPClient streaming 4 MiB, per stream", scale: 0.016, sides: [
            Side(name: "Salvo: for try await chunk in call.bytes()") { count in try blocking { for _ in 0..<count { try await serverSide.salvoStream() } } },
            Side(name: "raw AsyncHTTPClient body sequence") { count in try blocking { for _ in 0..<count { try await serverSide.rawStream() } } },
        ]))
        // Benchmark 11 at concurrency 16, where the client is CPU-bound: the same file, 16 requests in flight.
        let serverSide16 = try ServerSideFiring(baseURL: nginx, byteCount: 1, maxConnections: 16)
        list.append(CountedWorkload(name: "11 AsyncHTTPClient transport, 16 concurrent, per request", scale: 1, sides: [
            Side(name: "Salvo over AsyncHTTPClient: NetCall.response()") { count in
                try blocking { try await runConcurrently(count: count, concurrency: 16) { try await serverSide16.salvoOnce() } }
            },
            Side(name: "raw AsyncHTTPClient execute + collect") { count in
                try blocking { try await runConcurrently(count: count, concurrency: 16) { try await serverSide16.rawAsyncHTTPClientOnce() } }
            },
            Side(name: "raw AsyncHTTPClient delegate API") { count in
                try blocking { try await runConcurrently(count: count, concurrency: 16) { try await serverSide16.rawDelegateOnce() } }
            },
        ]))
    }
    if let webSocket = ProcessInfo.processInfo.environment[webSocketURLVariable].flatMap(URL.init(string:)) {
        // Benchmarks ws1 and ws2 (issue 40): against the driver's echo server, each side's
        // connections opened in `prepare`, before the counters are zeroed.
        let echo = PreparedEcho(baseURL: webSocket, messageBytes: 1 << 10, isBinary: false, window: 1)
        list.append(CountedWorkload(name: webSocketWorkloadNames[0], scale: 1, sides: [
            Side(name: "Salvo: WebSocketConnection.send + messages", run: { count in try echo.run { try await $0.salvo(count: count) } }, prepare: echo.prepare),
            Side(name: "raw WSClient", run: { count in try echo.run { try await $0.raw(count: count) } }, prepare: echo.prepare),
        ]))
        let throughput = PreparedEcho(baseURL: webSocket, messageBytes: 1 << 20, isBinary: true, window: 4)
        list.append(CountedWorkload(name: webSocketWorkloadNames[1], scale: 0.016, sides: [
            Side(name: "Salvo: WebSocketConnection.send + messages", run: { count in try throughput.run { try await $0.salvo(count: count) } }, prepare: throughput.prepare),
            Side(name: "raw WSClient", run: { count in try throughput.run { try await $0.raw(count: count) } }, prepare: throughput.prepare),
        ]))
    }
    if let baseURL {
        let http = try HTTPFiring(baseURL: baseURL, maxConnections: 1)
        list.append(CountedWorkload(name: "5 HTTP, concurrency 1", scale: 0.1, sides: [
            Side(name: "Salvo: NetCall.response()") { count in try blocking { for _ in 0..<count { try await http.salvoOnce() } } },
            Side(name: "URLSession.data(for:)") { count in try blocking { for _ in 0..<count { try await http.rawOnce() } } },
            Side(name: "URLSession.dataTask(with:completionHandler:)") { count in
                try blocking { for _ in 0..<count { try await http.rawCompletionHandlerOnce() } }
            },
        ]))
        // Benchmark 13e (issue 30): what the cache adds to a miss, each request a URL of its own.
        let cache = try CacheFiring(baseURL: baseURL)
        list.append(CountedWorkload(name: "13e cache miss, per request", scale: 0.1, sides: [
            Side(name: "Salvo through the cache (memory store): a miss, stored") { count in
                try blocking { for _ in 0..<count { try await cache.missOnce() } }
            },
            Side(name: "Salvo without a cache: the same requests") { count in
                try blocking { for _ in 0..<count { try await cache.plainMissOnce() } }
            },
        ]))
        // Benchmark 5v (issue 28): value(as:) against data(for:) with the same decode; target ≤ 1.03×.
        let value = try ValueFiring(baseURL: baseURL, maxConnections: 1)
        list.append(CountedWorkload(name: "5v HTTP value(as:), concurrency 1", scale: 0.1, sides: [
            Side(name: "Salvo: value(as:)") { count in try blocking { for _ in 0..<count { try await value.valueOnce() } } },
            Side(name: "URLSession.data(for:) + JSONDecoder") { count in try blocking { for _ in 0..<count { try await value.rawOnce() } } },
        ]))
        let streaming = try ByteStreaming(baseURL: baseURL, byteCount: 1 << 20)
        list.append(CountedWorkload(name: "8 Streaming, per MiB", scale: 0.032, sides: [
            Side(name: "Salvo: for try await chunk in call.bytes()") { count in
                try blocking { _ = try await streaming.salvo(consumingAtMost: nil, byteCount: count << 20) }
            },
            Side(name: "URLSession session-level data delegate") { count in
                try blocking { _ = try await streaming.raw(consumingAtMost: nil, byteCount: count << 20) }
            },
        ]))
        let download = try FileDownload(baseURL: baseURL, byteCount: 1 << 20)
        list.append(CountedWorkload(name: "9 Download to a file, per MiB", scale: 0.032, sides: [
            Side(name: "Salvo: call.download(to:)") { count in try blocking { try await download.salvo(byteCount: count << 20) } },
        ] + [FileDownload.RawMethod.downloadTask, .dataDelegate].map { method in
            Side(name: "raw \(method.rawValue)") { count in try blocking { try await download.raw(method, byteCount: count << 20) } }
        }))
        let uploads = PreparedUploads(baseURL: baseURL)
        list.append(CountedWorkload(name: "10 Multipart upload, per MiB", scale: 0.032, sides: [
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

/// The environment variable that hands the children the nginx of benchmark 11.
let serverSideURLVariable = "SALVO_BENCH_NGINX_URL"

/// The environment variable that hands the children the WebSocket echo server of ws1 and ws2.
let webSocketURLVariable = "SALVO_BENCH_WEBSOCKET_URL"

/// The names of the WebSocket workloads, for the driver's selection before the server starts.
let webSocketWorkloadNames = ["ws1 WebSocket echo, 1 KiB text, per round trip", "ws2 WebSocket echo, 1 MiB binary, 4 in flight, per message"]

/// The size of the file benchmark 12 streams when counted: 4 MiB.
let serverSideStreamBytes = 4 << 20
