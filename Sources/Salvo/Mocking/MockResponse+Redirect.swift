import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockResponse {
    /// A redirect to `location` (absolute, or relative to the request's URL) that mock firing
    /// follows as production does (`URLRequest.redirected(by:redirectCount:credentialHeaders:)`): 302
    /// by default; 303, and 301/302 after a `POST`, continue as `GET`; 307 and 308 keep method and
    /// body; credentials are dropped across origins; a loop ends after 20 redirects.
    ///
    /// ```swift
    /// .get("/old", .redirect(to: "/new", status: 301))
    /// ```
    public static func redirect(to location: String, status: Int = 302) -> MockResponse {
        .status(status, headers: ["Location": location])
    }
}
