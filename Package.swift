// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Salvo",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "Salvo", targets: ["Salvo"]),
        .library(name: "SalvoTesting", targets: ["SalvoTesting"]),
    ],
    targets: [
        .target(name: "Salvo"),
        .target(name: "SalvoTesting", dependencies: ["Salvo"]),
        .testTarget(
            name: "SalvoTests",
            dependencies: ["Salvo", "SalvoTesting"],
            exclude: ["Support/loopback_server.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
