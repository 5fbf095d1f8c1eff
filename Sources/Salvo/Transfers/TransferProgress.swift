import Foundation

/// How far one direction of a transfer has come: the request body going up, or the response
/// body coming down.
///
/// ```swift
/// call.responder.progressHandler = { progress in
///     if progress.direction == .upload { bar.value = progress.fractionCompleted ?? 0 }
/// }
/// ```
public struct TransferProgress: Sendable, Hashable {
    /// Which body the progress is about.
    public enum Direction: Sendable, Hashable {
        /// The request body, sent.
        case upload
        /// The response body, received.
        case download
    }

    /// Which body the progress is about.
    public var direction: Direction
    /// Bytes sent or received so far.
    public var completedBytes: Int64
    /// Bytes expected in all, `nil` when unknown (no `Content-Length`, a streamed upload).
    public var expectedBytes: Int64?

    /// A progress report from its parts; sessions and Salvo build these
    /// (`@_spi(Transport) import Salvo`).
    @_spi(Transport) public init(direction: Direction, completedBytes: Int64, expectedBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes / expectedBytes` between 0 and 1, `nil` while the total is unknown.
    public var fractionCompleted: Double? {
        guard let expectedBytes else { return nil }
        guard expectedBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }

    /// Whether every expected byte has gone through: `fractionCompleted == 1` to a user.
    var isComplete: Bool { expectedBytes.map { completedBytes >= $0 } ?? false }
}
