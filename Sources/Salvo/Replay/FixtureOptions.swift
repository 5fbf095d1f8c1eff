import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How recording and replay name, match and redact fixtures; give both sides the same options.
///
/// ```swift
/// let options = FixtureOptions(redaction: .default.adding(queryKeys: ["api_key"]), matchesBody: true)
/// call.firingFunction = .replaying(from: folder, options: options)   // record with the same options
/// ```
public struct FixtureOptions: Sendable, Hashable {
    /// Header fields and query items hidden before anything is written (and when matching).
    public var redaction: Redaction
    /// Whether the request body's hash is part of the match, so two POSTs to one URL get two fixtures.
    public var matchesBody: Bool
    /// Whether scheme, host and port are part of the match; turn off to replay fixtures recorded
    /// against another server (e.g. staging fixtures in a local run).
    public var matchesOrigin: Bool
    /// Whether fixtures keep the time they were recorded (`recordedAt`) and the response's `Date`
    /// header; off by default so re-recording an unchanged exchange leaves the file unchanged.
    public var recordsTimestamps: Bool

    /// Options from their parts; by default secrets are hidden, the body is ignored, the origin
    /// counts and no timestamp is written.
    public init(redaction: Redaction = .default, matchesBody: Bool = false, matchesOrigin: Bool = true, recordsTimestamps: Bool = false) {
        self.redaction = redaction
        self.matchesBody = matchesBody
        self.matchesOrigin = matchesOrigin
        self.recordsTimestamps = recordsTimestamps
    }
}

extension FixtureOptions {
    /// The name of the fixture file that records `request` under these options, e.g.
    /// `GET_v1-users-42_3df1fdbe5b91.json`; the n-th repeat of the same exchange is
    /// `GET_v1-users-42_3df1fdbe5b91.<n>.json`.
    ///
    /// `<METHOD>_<path>_<hash>.json`: the path's segments joined by `-` (characters other than
    /// letters, digits, `.` and `_` become `_`; at most 80; `root` for `/`), and 12 hex digits of
    /// a stable hash of the method, redacted URL and, with ``matchesBody``, the redacted body.
    package func fileName(for request: URLRequest, occurrence: Int = 1) -> String {
        FixtureOccurrences.fileName(FixtureName.fileName(for: request, options: self), occurrence: occurrence)
    }
}
