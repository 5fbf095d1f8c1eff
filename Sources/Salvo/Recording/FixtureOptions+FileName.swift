import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureOptions {
    /// The name of the fixture file that records `request` under these options, e.g.
    /// `GET_v1-users-42_3df1fdbe5b91.json`; the n-th repeat of the same exchange is
    /// `GET_v1-users-42_3df1fdbe5b91.<n>.json`.
    ///
    /// `<METHOD>_<path>_<hash>.json`: the path's segments joined by `-` (characters other than
    /// letters, digits, `.` and `_` become `_`; at most 80; `root` for `/`), and 12 hex digits of
    /// a stable hash of the method, redacted URL and, with ``matchesBody``, the redacted body.
    public func fileName(for request: URLRequest, occurrence: Int = 1) -> String {
        FixtureOccurrences.fileName(FixtureName.fileName(for: request, options: self), occurrence: occurrence)
    }
}

extension NetCall {
    /// The name of the fixture file this call is recorded in and replayed from under `options`,
    /// so you can find and review it: ``FixtureOptions/fileName(for:occurrence:)`` of the request
    /// the call builds. Actions that change the URL or, with `matchesBody`, the body, change it.
    ///
    /// ```swift
    /// let name = try call.fixtureFileName()   // "GET_v1-users-42_3df1fdbe5b91.json"
    /// ```
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the call cannot build its request.
    public func fixtureFileName(options: FixtureOptions = .default, occurrence: Int = 1) throws(NetworkError) -> String {
        options.fileName(for: try urlRequest(), occurrence: occurrence)
    }
}
