import Foundation

/// Polls `condition` on the main actor every 5 ms until it holds or `seconds` pass, for state only
/// the main actor may read (``eventually(within:_:)`` takes a `Sendable` closure). The default is
/// long so that a loaded two-core machine under TSan never fails a test that only waits; the
/// caller's expectations then say what was missing.
@MainActor func waitOnMainActor(within seconds: Double = 60, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(), Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
}
