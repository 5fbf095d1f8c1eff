// swift-tools-version:6.3
import PackageDescription

// Salvo over AsyncHTTPClient: a NetworkSession for servers and services on SwiftNIO.
//   swift test --package-path Transports/AsyncHTTPClient
// Its own package so that Salvo's Package.swift stays without dependencies: only an app that
// depends on SalvoAsyncHTTPClient builds AsyncHTTPClient and SwiftNIO.

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SalvoAsyncHTTPClient",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "SalvoAsyncHTTPClient", targets: ["SalvoAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "SalvoAsyncHTTPClient",
            dependencies: [
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "SalvoAsyncHTTPClientTests",
            dependencies: [
                "SalvoAsyncHTTPClient",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // Transport/ links to Salvo's shared transport suites and their support (the loopback
            // server and httpbin launchers, whose Python scripts are in Transport/Support/Servers):
            // the same suites run here over AsyncHTTPClient and in Salvo's own tests over URLSession.
            exclude: ["Transport/Support/Servers"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
