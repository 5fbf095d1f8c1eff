// swift-tools-version:6.2
import PackageDescription

// Salvo under clients that swift-openapi-generator generates: a ClientTransport that fires each
// operation through a NetCall, so mock and replay firing, actions and the server's transport apply.
//   swift test --package-path Integrations/OpenAPI
// Its own package so that Salvo's Package.swift stays without dependencies: only an app that
// depends on SalvoOpenAPI builds swift-openapi-runtime (and, for its tests, the generator).

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SalvoOpenAPI",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "SalvoOpenAPI", targets: ["SalvoOpenAPI"]),
    ],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "SalvoOpenAPI",
            dependencies: [
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // Valgrind's client requests, shared with Benchmarks/ (a link to Benchmarks/Sources/CCallgrind).
        .target(name: "CCallgrind"),
        // Instructions per operation over SalvoTransport and over URLSessionTransport, counted by
        // callgrind (Docs/OpenAPI.md); its shared files and openapi.yaml are links.
        .executableTarget(
            name: "salvo-openapi-instructions",
            dependencies: [
                "CCallgrind", "SalvoOpenAPI",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .testTarget(
            name: "SalvoOpenAPITests",
            dependencies: [
                "SalvoOpenAPI",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // Support/ links to Salvo's test support (the loopback server and httpbin launchers,
            // whose Python scripts are in Support/Servers). openapi.yaml describes the httpbin and
            // loopback routes the tests use; the generator's build plugin makes their client.
            exclude: ["Support/Servers"],
            swiftSettings: upcomingFeatures,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
