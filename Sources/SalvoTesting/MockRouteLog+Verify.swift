@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

extension MockRouteLog {
    #if canImport(Testing)
    /// Records a Swift Testing issue for every request no route matched and, when `strict`, for
    /// every route never used; call it at the end of a test.
    ///
    /// ```swift
    /// let log = MockRouteLog()
    /// let api = CartAPI(firing: .mock(routes.logging(into: log)))
    /// try await api.checkout()
    /// log.verify(strict: true)
    /// ```
    public func verify(strict: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        for problem in problems(strict: strict) {
            Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
        }
    }
    #endif

    /// Calls `fail` with a sentence for every request no route matched and, when `strict`, for
    /// every route never used: for XCTest, `log.verify(strict: true) { XCTFail($0) }`.
    public func verify(strict: Bool = false, failing fail: (String) -> Void) {
        for problem in problems(strict: strict) { fail(problem) }
    }
}
