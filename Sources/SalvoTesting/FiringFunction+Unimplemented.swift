import Foundation
@_spi(Transport) import Salvo
#if canImport(Testing)
import Testing
#endif

extension FiringFunction {
    #if canImport(Testing)
    /// A firing function for code that must not fire: firing through it records a test issue
    /// naming the call, and the call fails at once with `NetworkError.incompleteSetup` instead
    /// of reaching the network or hanging.
    ///
    /// ```swift
    /// let api = CatalogAPI(firing: .unimplemented("the cache should answer"))
    /// ```
    ///
    /// - Parameters:
    ///   - reason: why no call is expected, added to the issue.
    ///   - sourceLocation: where the issue is reported; the line that made the firing function.
    public static func unimplemented(_ reason: String = "", sourceLocation: SourceLocation = #_sourceLocation) -> FiringFunction {
        FiringFunction { call, channel in
            let fired = FiredCall(call: call, request: try? call.urlRequest())
            let why = reason.isEmpty ? "" : " (\(reason))"
            Issue.record("Unimplemented: \(fired) was fired where no call was expected\(why)", sourceLocation: sourceLocation)
            return unanswered(call, channel)
        }
    }
    #else
    /// A firing function for code that must not fire: the call fails at once with
    /// `NetworkError.incompleteSetup` instead of reaching the network or hanging.
    public static func unimplemented(_ reason: String = "") -> FiringFunction {
        FiringFunction { call, channel in unanswered(call, channel) }
    }
    #endif

    /// Fails `call` as a request no mock route matches, naming its method and URL.
    private static func unanswered(_ call: NetCall, _ channel: FiringFunction.Channel) -> NetworkTask {
        FiringFunction.mock(MockRoutes())(call, channel)
    }
}
