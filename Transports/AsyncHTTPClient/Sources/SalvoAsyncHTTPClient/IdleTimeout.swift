import Foundation
import NIOCore

/// The idle timeout of an exchange, from `URLRequest.timeoutInterval`.
///
/// `URLSession` reads the interval as the longest wait for the next byte, not a deadline for the
/// whole exchange: a download that keeps arriving never times out. The exchange does the same,
/// to the millisecond where Linux `URLSession` rounds up to whole seconds.
enum IdleTimeout {
    /// The longest timeout kept: a century, far inside `TimeAmount`'s range.
    static let longest: TimeInterval = 100 * 365 * 24 * 3600

    /// The timeout for `interval` seconds; `nil` (none) when it is zero, negative or not a number,
    /// as `URLSession` never times out such a request. Infinity and huge values become ``longest``.
    static func amount(for interval: TimeInterval) -> TimeAmount? {
        guard interval > 0 else { return nil }
        let seconds = min(interval, longest)
        // At least a nanosecond: a positive interval below it still times out.
        return .nanoseconds(max(1, Int64((seconds * 1_000_000_000).rounded(.up))))
    }
}
