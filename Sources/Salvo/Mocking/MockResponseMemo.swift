import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The last HTTP response a mock session built, handed out again when the next answer has the
/// same URL, status and header fields.
///
/// On Linux, `HTTPURLResponse.init` sanitises every header name and parses `Content-Type` each
/// time: about 2.5 µs, more than all the rest of a mock firing (Docs/Performance.md, benchmark 2).
/// A mock answers the same URL the same way again and again (polling, a screen's fixture,
/// tests in a loop), and a response is immutable, so handing out the same one is safe.
final class MockResponseMemo: Sendable {
    private struct Entry {
        let url: URL
        let status: Int
        let fields: [HTTPHeaders.Field]
        let response: HTTPURLResponse
    }

    private let last = Locked<Entry?>(nil)

    /// The response for `url`, `status` and `headers`: the last one if it matches exactly (header
    /// names compared with their case), else a new one, remembered for next time.
    func response(url: URL, status: Int, headers: HTTPHeaders) -> HTTPURLResponse? {
        let remembered = last.withLock { entry -> HTTPURLResponse? in
            guard let entry, entry.status == status, entry.url == url, entry.fields == headers.fields else { return nil }
            return entry.response
        }
        if let remembered { return remembered }
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)
        if let response {
            last.withLock { $0 = Entry(url: url, status: status, fields: headers.fields, response: response) }
        }
        return response
    }
}
