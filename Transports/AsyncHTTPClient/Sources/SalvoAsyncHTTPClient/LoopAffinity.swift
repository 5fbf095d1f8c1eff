import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Which event loop an exchange runs on: for an origin with nothing else in flight, the loop its
/// exchanges have run on before, so that the connection they left idle is on the same loop.
///
/// AsyncHTTPClient runs a delegate on the loop the request names, and the request on whichever
/// connection the pool leases: a connection on the named loop if one is idle, else any idle one.
/// When the two loops differ, every event of the exchange (sent head, response head, body, end,
/// the demand for more body) hops from one loop's thread to the other's, which measured ~19k
/// instructions per such request and a thread wake-up per hop (Docs/ServerSide.md). The pool opens
/// a connection on the loop the request names, so naming the same loop for an origin's exchanges
/// one after another keeps finding that connection.
///
/// Only exchanges that start while none to their origin is in flight take the origin's loop.
/// Concurrent ones take `EventLoopGroup.any()` as before, so a busy origin's connections spread
/// over every loop rather than piling onto one thread. A loop is only a preference: the pool still
/// takes a connection on another loop when the named one has none idle, and opens none beyond its
/// limit.
///
/// The delegate API tells nobody which loop the leased connection is on, so an origin's loop is
/// not corrected when it differs (say, the connection on it closed and a concurrent exchange's
/// replacement opened elsewhere): its exchanges then hop as every exchange did before.
final class LoopAffinity: Sendable {
    /// An origin's loop and its exchanges in flight; an exchange holds its origin's entry, so
    /// that ending takes the lock without hashing the origin again.
    final class Origin: Sendable {
        let loop: any EventLoop
        /// Changed only under the affinity's lock.
        fileprivate nonisolated(unsafe) var inFlight = 0

        fileprivate init(loop: any EventLoop) {
            self.loop = loop
        }
    }

    /// The most origins remembered; past it, origins with nothing in flight are forgotten.
    static let capacity = 256

    private let group: any EventLoopGroup
    /// The origins by their ``key(of:)``. Two origins whose keys collide share an entry, which
    /// only makes their exchanges' loop a coarser preference.
    private let origins = NIOLockedValueBox<[Int: Origin]>([:])

    init(group: any EventLoopGroup) {
        self.group = group
    }

    /// The loop an exchange runs on, and its origin's entry.
    struct Pick {
        let loop: any EventLoop
        /// The entry to hand to ``LoopAffinity/ended(_:)`` once, when the exchange ends; `nil`
        /// for a URL without an origin.
        let origin: Origin?
    }

    /// The loop for an exchange to `url`'s origin starting now.
    func start(_ url: URL?) -> Pick {
        guard let url, let key = Self.key(of: url.absoluteString) else { return Pick(loop: group.any(), origin: nil) }
        return origins.withLockedValue { origins in
            if let origin = origins[key] {
                origin.inFlight += 1
                return Pick(loop: origin.inFlight == 1 ? origin.loop : group.any(), origin: origin)
            }
            if origins.count >= Self.capacity {
                origins = origins.filter { $0.value.inFlight > 0 }
            }
            let origin = Origin(loop: group.any())
            origin.inFlight = 1
            origins[key] = origin
            return Pick(loop: origin.loop, origin: origin)
        }
    }

    /// Ends an exchange ``start(_:)`` counted.
    func ended(_ origin: Origin) {
        origins.withLockedValue { _ in origin.inFlight -= 1 }
    }

    /// The origins remembered, for tests.
    var count: Int { origins.withLockedValue { $0.count } }

    /// The exchanges in flight to `url`'s origin, for tests; `nil` when it is not remembered.
    func inFlight(toOriginOf url: URL) -> Int? {
        guard let key = Self.key(of: url.absoluteString) else { return nil }
        return origins.withLockedValue { $0[key]?.inFlight }
    }

    /// A hash of `scheme://authority`, the part of an absolute URL before its path, query or
    /// fragment (FNV-1a over its bytes); `nil` when it has no `://`.
    ///
    /// Read from the string's bytes in place: a URL's `host` and `port` cost ~1.5k instructions
    /// on Linux, a `Substring` key as much again, and a seeded `Hasher` ~500.
    static func key(of url: String) -> Int? {
        var url = url
        return url.withUTF8 { bytes -> Int? in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
                  colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
            var end = colon + 3
            while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
                end += 1
            }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in UnsafeBufferPointer(rebasing: bytes[..<end]) {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash)
        }
    }
}
