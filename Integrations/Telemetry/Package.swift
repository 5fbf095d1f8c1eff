// swift-tools-version:6.2
// 6.2: swift-distributed-tracing 1.7.3's own manifest needs it; Salvo is built and tested with 6.3.
import PackageDescription

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Salvo's telemetry integrations, a package of their own so Salvo's manifest stays dependency-free:
// SalvoLogging (swift-log), SalvoMetrics (swift-metrics), SalvoTracing (swift-distributed-tracing).
// Each product depends only on the API package it integrates; Docs/Telemetry.md shows all three.
let package = Package(
    name: "SalvoTelemetry",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "SalvoLogging", targets: ["SalvoLogging"]),
        .library(name: "SalvoMetrics", targets: ["SalvoMetrics"]),
        .library(name: "SalvoTracing", targets: ["SalvoTracing"]),
    ],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // What the three share: the low-cardinality names of a call (endpoint template, status
        // class, error type); package-visible, not a product.
        .target(
            name: "SalvoTelemetrySupport",
            dependencies: [.product(name: "Salvo", package: "Salvo")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "SalvoLogging",
            dependencies: ["SalvoTelemetrySupport", .product(name: "Salvo", package: "Salvo"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "SalvoMetrics",
            dependencies: ["SalvoTelemetrySupport", .product(name: "Salvo", package: "Salvo"), .product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "SalvoTracing",
            dependencies: ["SalvoTelemetrySupport", .product(name: "Salvo", package: "Salvo"), .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: upcomingFeatures
        ),
        // Valgrind's client requests, shared with Benchmarks/ (a link to Benchmarks/Sources/CCallgrind).
        .target(name: "CCallgrind"),
        // Instructions per request with and without telemetry, counted by callgrind (Docs/Telemetry.md).
        // Some of its files are links to Benchmarks/' (the loopback server, child processes).
        .executableTarget(
            name: "salvo-telemetry-instructions",
            dependencies: [
                "CCallgrind", "SalvoLogging", "SalvoMetrics", "SalvoTracing",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "SalvoTelemetryTests",
            dependencies: [
                "SalvoLogging", "SalvoMetrics", "SalvoTracing",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // Support/ links to Salvo's test support (Tests/SalvoTests/Transport/Support), whose
            // launcher starts Salvo's own loopback server by path; the Python scripts are excluded.
            exclude: ["Support/Servers"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
