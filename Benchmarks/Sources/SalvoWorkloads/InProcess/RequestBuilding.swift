import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Benchmark 1: a server plus an endpoint with 3 query items and 2 headers, turned into a `URLRequest`.
///
/// Both sides build the same request per operation from the same dynamic values (the user id and
/// the page), starting from a long-lived server description:
/// - Salvo: `Endpoint.get(...)` + `NetCall.urlRequest()` (validation and percent-encoding included);
/// - baseline: what a careful hand-written call site does with `URLComponents`.
public struct RequestBuilding: Sendable {
    /// The long-lived server, as an app would keep it.
    public let server = ServerConfig(host: "api.example.com", basePath: "v1")
    private let firing = FiringFunction.mock(.status(200))  // never fired: only requests are built

    /// The workload; it has no state beyond the server.
    public init() {}

    /// Salvo: endpoint + call → `URLRequest`.
    public func salvo(id: Int) throws(NetworkError) -> URLRequest {
        let endpoint = Endpoint.get(
            "/users/\(id)/posts",
            query: ["page": "2", "per_page": "20", "sort": "created desc"],
            headers: ["Accept": "application/json", "X-Request-Source": "bench"]
        )
        return try NetCall(server: server, endpoint: endpoint, firingFunction: firing).urlRequest()
    }

    /// Baseline: `URLComponents` → `URL` → `URLRequest`, headers set by hand.
    public func baseline(id: Int) -> URLRequest? {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "api.example.com"
        components.path = "/v1/users/\(id)/posts"
        components.queryItems = [
            URLQueryItem(name: "page", value: "2"),
            URLQueryItem(name: "per_page", value: "20"),
            URLQueryItem(name: "sort", value: "created desc"),
        ]
        guard let url = components.url else { return nil }
        var request = URLRequest(url: url)  // a new request is a GET
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("bench", forHTTPHeaderField: "X-Request-Source")
        return request
    }

    /// Fails unless both sides build the same URL, method and headers, so the comparison is fair.
    public func checkEquivalence() throws {
        let salvo = try salvo(id: 42)
        guard let baseline = baseline(id: 42) else { throw WorkloadError("the baseline built no URL") }
        guard salvo.url == baseline.url, salvo.httpMethod == baseline.httpMethod,
              salvo.allHTTPHeaderFields == baseline.allHTTPHeaderFields else {
            throw WorkloadError("""
                request building sides differ:
                  salvo    \(salvo.url?.absoluteString ?? "-") \(salvo.allHTTPHeaderFields ?? [:])
                  baseline \(baseline.url?.absoluteString ?? "-") \(baseline.allHTTPHeaderFields ?? [:])
                """)
        }
    }
}
