// swift-tools-version:6.3
// 6.3 is the toolchain Salvo is built and tested with; older ones are not claimed.
import PackageDescription

/// The upcoming language features every Salvo target builds with.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Salvo",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "Salvo", targets: ["Salvo"]),
        .library(name: "SalvoTesting", targets: ["SalvoTesting"]),
        // Reactive layers, each its own product so `Salvo` imports neither Combine nor Observation.
        .library(name: "SalvoCombine", targets: ["SalvoCombine"]),
        .library(name: "SalvoObservation", targets: ["SalvoObservation"]),
    ],
    targets: [
        // The privacy manifest App Store Connect asks of an SDK (Docs/Telemetry.md#privacy-manifest).
        .target(name: "Salvo", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: upcomingFeatures),
        .target(name: "SalvoTesting", dependencies: ["Salvo"], swiftSettings: upcomingFeatures),
        // Compiles to nothing where Combine is missing (Linux); Checks/Combine builds the same
        // sources against OpenCombine and runs their tests.
        .target(name: "SalvoCombine", dependencies: ["Salvo"], swiftSettings: upcomingFeatures),
        .target(name: "SalvoObservation", dependencies: ["Salvo"], swiftSettings: upcomingFeatures),
        // The demo: SalvoDemoKit only configures calls; `swift run salvo-demo` fires them. Not a product:
        // an executable target of the root package runs here, and packages that depend on Salvo never see it.
        .target(name: "SalvoDemoKit", dependencies: ["Salvo"], resources: [.copy("Fixtures")], swiftSettings: upcomingFeatures),
        .executableTarget(name: "salvo-demo", dependencies: ["Salvo", "SalvoDemoKit", "SalvoObservation", "SalvoTesting"], path: "Sources/SalvoDemo", swiftSettings: upcomingFeatures),
        .testTarget(
            name: "SalvoTests",
            dependencies: ["Salvo", "SalvoTesting", "SalvoDemoKit", "SalvoObservation"],
            exclude: ["Transport/Support/Servers"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
