// swift-tools-version:6.3
import PackageDescription

// Builds SalvoCombine's own sources (Sources/SalvoCombine, linked here) against OpenCombine where
// Apple's Combine is missing, and runs their tests, so the product is tested on Linux:
//   swift test --package-path Checks/Combine
// On Apple platforms the same sources build against Combine and the same tests run there.
// This package is never a dependency of Salvo; Salvo's Package.swift stays without dependencies.
//
// The module is SalvoOpenCombine, not SalvoCombine: target names must be unique in a package
// graph, and the Salvo package (a dependency here) declares SalvoCombine itself.

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Where Apple's Combine does not exist.
let withoutCombine = TargetDependencyCondition.when(platforms: [.linux, .windows, .android, .wasi])

let package = Package(
    name: "SalvoCombineCheck",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "SalvoOpenCombine",
            dependencies: [
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "OpenCombine", package: "OpenCombine", condition: withoutCombine),
            ],
            path: "Sources/SalvoCombine",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "SalvoCombineTests",
            dependencies: [
                "SalvoOpenCombine",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "OpenCombine", package: "OpenCombine", condition: withoutCombine),
            ],
            // Loopback/ links to Salvo's own launcher and its Servers/ folder: the launcher starts
            // the script from Servers/ beside itself, and Python finds the route modules beside it.
            exclude: ["Loopback/Servers"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
