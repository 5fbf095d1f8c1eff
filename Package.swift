// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Salvo",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "Salvo", targets: ["Salvo"]),
        .library(name: "SalvoTesting", targets: ["SalvoTesting"]),
        .executable(name: "salvo-demo", targets: ["SalvoDemo"]),
    ],
    targets: [
        .target(name: "Salvo"),
        .target(name: "SalvoTesting", dependencies: ["Salvo"]),
        // The demo: SalvoDemoKit only configures calls; the salvo-demo executable fires them.
        .target(name: "SalvoDemoKit", dependencies: ["Salvo"], resources: [.copy("Fixtures")]),
        .executableTarget(name: "SalvoDemo", dependencies: ["Salvo", "SalvoDemoKit"]),
        .testTarget(
            name: "SalvoTests",
            dependencies: ["Salvo", "SalvoTesting", "SalvoDemoKit"],
            exclude: ["Support/loopback_server.py", "Support/catalog_routes.py", "Support/wire_routes.py", "Support/challenge_routes.py", "Support/redirect_routes.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
