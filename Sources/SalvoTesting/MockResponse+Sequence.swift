import Foundation
@_spi(Transport) import Salvo

extension MockResponse {
    /// Answers with each of `responses` once, in order, then with `fallback` every time after; with
    /// no fallback, calls past the end fail saying the sequence was used up.
    ///
    /// ```swift
    /// .get("/feed", .sequence([.json(firstPage), .json(updatedPage)], then: .status(304)))
    /// ```
    public static func sequence(_ responses: [MockResponse], then fallback: MockResponse? = nil) -> MockResponse {
        .sequence(runs: responses.map { ($0, 1) }, then: fallback)
    }

    /// Fails the first `count` calls with `failure`, then answers `success` every time: for
    /// testing retries.
    ///
    /// ```swift
    /// call.firingFunction = .mock(.failing(2, with: .status(503), then: .json(user)))
    /// ```
    public static func failing(_ count: Int, with failure: MockResponse = .failure(.notConnectedToInternet), then success: MockResponse) -> MockResponse {
        .sequence(runs: [(failure, count)], then: success)
    }
}
