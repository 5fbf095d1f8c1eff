import Foundation
import Salvo

/// Where the catalogue's calls go, and how they fire: the one value the demo swaps.
public struct CatalogEnvironment: Sendable {
    /// The server every catalogue call goes to.
    public var server: ServerConfig
    /// How every catalogue call fires.
    public var firing: FiringFunction
    /// What opens the catalogue's WebSockets (``CatalogAPI/stockFeed()``): the scripted
    /// `MockWebSocketServer.stockFeed(interval:)` unless set, in every environment the
    /// demo runs, since the project's loopback server has no WebSocket route.
    public var webSockets: WebSocketTransport = .mock(.stockFeed())

    /// Offline: replays the fixtures shipped with the demo; no server, no network. Bodies go at
    /// ``offlineBandwidth``, so an upload's progress bar moves as it would on a real link.
    public static var offline: CatalogEnvironment {
        CatalogEnvironment(
            server: ServerConfig(host: "catalog.offline", basePath: "catalog"),
            firing: .replaying(from: fixtures, options: fixtureOptions, conditions: NetworkConditions(bandwidth: offlineBandwidth))
        )
    }

    /// The session under ``offline`` without its simulated link: the shipped fixtures, replayed.
    public static var offlineSession: ReplaySession {
        ReplaySession(from: fixtures, options: fixtureOptions)
    }

    /// The offline link's speed, in bytes a second: 256 KiB/s, under a second for the demo's cover.
    public static let offlineBandwidth: ClosedRange<Double> = 262_144...262_144

    /// A production-like server (not reachable from the demo; shown for the shape of the config).
    public static let production = CatalogEnvironment(
        server: ServerConfig(host: "books.example.com", basePath: "catalog"),
        firing: .production,
        webSockets: .platform
    )

    /// A live server at `baseURL`, such as the project's Python server at `http://127.0.0.1:8080`.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when `baseURL` is not an http(s) URL with a host.
    public static func live(baseURL: String) throws(NetworkError) -> CatalogEnvironment {
        var server = try ServerConfig(baseURL: baseURL)
        server.basePath = server.basePath.appending("catalog")
        return CatalogEnvironment(server: server, firing: .production)
    }

    /// The fixtures the offline environment replays (package resources).
    public static var fixtures: URL {
        Bundle.module.resourceURL?.appendingPathComponent("Fixtures") ?? URL(fileURLWithPath: "Fixtures")
    }

    /// This environment, logging every request and response (secrets redacted) to `sink`.
    public func logging(to sink: @escaping @Sendable (String) -> Void) -> CatalogEnvironment {
        var copy = self
        copy.server.actions.append(LoggingAction(includesHeaders: true, sink: sink))
        return copy
    }

    /// Fixtures match method, path and query, whatever server recorded them; record new ones with
    /// the same options (`swift run salvo-demo --live URL --record FOLDER`).
    public static let fixtureOptions = FixtureOptions(matchesOrigin: false)
}
