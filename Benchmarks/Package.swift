// swift-tools-version:6.1
import PackageDescription

// Salvo's benchmarks, a package of their own so the library stays dependency-free: one library of
// workloads and three tools that measure them. From this directory:
//   swift package benchmark                                 (time and mallocs, package-benchmark)
//   swift run -c release salvo-bench-ratios                 (paired ratios: the verdicts)
//   swift run -c release salvo-bench-instructions           (instructions per op, callgrind)
// See Docs/Performance.md for what they measure and the latest numbers.
let package = Package(
    name: "SalvoBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Salvo", path: ".."),
        // Benchmarks 11 and 12: Salvo over its AsyncHTTPClient transport.
        .package(name: "SalvoAsyncHTTPClient", path: "../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The WebSocket rows (ws1, ws2): Salvo over its WebSocket transport, paired with the WSClient under it.
        .package(name: "SalvoWebSocket", path: "../Transports/WebSocket"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The work measured, each Salvo side next to its baseline, and the servers it fires at.
        .target(
            name: "SalvoWorkloads",
            dependencies: [
                "CHeapUsage",
                .product(name: "Salvo", package: "Salvo"),
                // MockRouteLog, for benchmark 6's logged table.
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "SalvoAsyncHTTPClient", package: "SalvoAsyncHTTPClient"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "SalvoWebSocket", package: "SalvoWebSocket"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The WebSocket rows' echo server, in process.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // Heap bytes in use (glibc mallinfo2), for the memory checks.
        .target(name: "CHeapUsage"),
        // The package-benchmark suite: time and mallocs of each side (its path is the plugin's convention).
        .executableTarget(
            name: "SalvoBenchmarks",
            dependencies: [
                "SalvoWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SalvoBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Paired ratios: both sides timed alternately in rounds, median of the per-round ratios.
        .executableTarget(
            name: "salvo-bench-ratios",
            dependencies: ["SalvoWorkloads"]
        ),
        // Valgrind's client requests (zero and dump callgrind's counters), no-ops without its headers.
        .target(name: "CCallgrind"),
        // Instructions per operation of each side, counted by callgrind in a child process.
        .executableTarget(
            name: "salvo-bench-instructions",
            dependencies: ["SalvoWorkloads", "CCallgrind"]
        ),
    ]
)
