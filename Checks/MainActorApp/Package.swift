// swift-tools-version:6.2
import PackageDescription

// An app as Xcode 26 creates it: default main-actor isolation, nonisolated async functions run
// on the caller's actor, and conformances isolated like the types that declare them. Its models
// are plain `struct Book: Codable` (no `nonisolated`, no `Sendable`). The API module configures
// calls, the app module fires them through every API an app uses, the RefreshButton module fires
// calls as `any Fireable` without naming a model type, and the tests run them against mocks. CI
// builds it with warnings as errors and runs its tests:
//   swift build --package-path Checks/MainActorApp --build-tests -Xswiftc -warnings-as-errors
//   swift test --package-path Checks/MainActorApp --skip-build
// This package is never a dependency of Salvo.

/// Exactly what Xcode 26 sets in a new app target.
let appTargetSettings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "MainActorApp",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [.package(name: "Salvo", path: "../..")],
    targets: [
        .target(
            name: "BookAPI",
            dependencies: [.product(name: "Salvo", package: "Salvo")],
            swiftSettings: appTargetSettings
        ),
        .target(
            name: "BookApp",
            dependencies: [
                "BookAPI",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoObservation", package: "Salvo"),
            ],
            swiftSettings: appTargetSettings
        ),
        .target(
            name: "RefreshButton",
            dependencies: [.product(name: "Salvo", package: "Salvo")],
            swiftSettings: appTargetSettings
        ),
        .testTarget(
            name: "BookAppTests",
            dependencies: [
                "BookAPI", "BookApp", "RefreshButton",
                .product(name: "Salvo", package: "Salvo"),
                .product(name: "SalvoTesting", package: "Salvo"),
                .product(name: "SalvoObservation", package: "Salvo"),
            ],
            swiftSettings: appTargetSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
