import Foundation
@_spi(Transport) import Salvo

extension NetCall {
    /// The name of the fixture file this call is recorded in and replayed from under `options`,
    /// so you can find and review it: `FixtureOptions.fileName(for:occurrence:)` of the request
    /// the call builds. Actions that change the URL or, with `matchesBody`, the body, change it.
    ///
    /// ```swift
    /// let name = try call.fixtureFileName()   // "GET_v1-users-42_3df1fdbe5b91.json"
    /// ```
    ///
    /// - Throws: `NetworkError/invalidRequest(_:)` when the call cannot build its request.
    public func fixtureFileName(options: FixtureOptions = FixtureOptions(), occurrence: Int = 1) throws(NetworkError) -> String {
        options.fileName(for: try urlRequest(), occurrence: occurrence)
    }
}
