// swift-tools-version:6.3
import PackageDescription

// Builds Salvo's DocC documentation with swift-docc-plugin, failing on any DocC warning:
//   swift package --package-path Checks/DocC generate-documentation --target Salvo --target SalvoTesting --warnings-as-errors
// The catalogs are Salvo's own (Sources/Salvo/Salvo.docc, Sources/SalvoTesting/SalvoTesting.docc);
// the plugin documents a dependency's targets as well as this package's. This package is never a
// dependency of Salvo; Salvo's Package.swift stays without dependencies.

let package = Package(
    name: "SalvoDocCCheck",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        .package(name: "Salvo", path: "../.."),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Empty: it exists so that Salvo's targets are in the graph the plugin sees.
        .target(
            name: "SalvoDocCCheck",
            dependencies: [
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
