// swift-tools-version:6.3
import PackageDescription

// Salvo's WebSocket transport for Linux (and servers): WebSocketCall over hummingbird-project's
// swift-websocket (WSClient, on SwiftNIO, with permessage-deflate).
//   swift test --package-path Transports/WebSocket
// Its own package so that Salvo's Package.swift stays without dependencies: only an app that
// depends on SalvoWebSocket builds SwiftNIO and WSClient.

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SalvoWebSocket",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16)],
    products: [
        .library(name: "SalvoWebSocket", targets: ["SalvoWebSocket"]),
        .executable(name: "salvo-autobahn", targets: ["SalvoAutobahn"]),
    ],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        // 1.6.x: the transport runs WSClient's WebSocketHandler through its SPI (WSClientHandshake.swift).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", .upToNextMinor(from: "1.6.2")),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        .target(
            name: "SalvoWebSocket",
            dependencies: [
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "SalvoAutobahn",
            dependencies: ["SalvoWebSocket", .product(name: "Salvo", package: "Salvo")],
            path: "Sources/SalvoAutobahn",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "SalvoWebSocketTests",
            dependencies: [
                "SalvoWebSocket",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
            ],
            exclude: ["Servers"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
