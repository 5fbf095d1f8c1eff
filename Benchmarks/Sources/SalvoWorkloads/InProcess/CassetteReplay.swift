import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoTesting

/// Benchmark 7: replaying a whole 1,000-exchange cassette from disk through a fresh
/// ``ReplaySession`` (every fixture read, checked and turned into a response), next to only
/// reading the same 1,000 files' bytes.
///
/// The fixtures are written once, by importing a generated HTTP Archive, into a temporary folder.
public final class CassetteReplay: Sendable {
    /// The exchanges in the cassette.
    public let exchangeCount: Int
    private let folder: URL
    private let requests: [URLRequest]
    private let files: [URL]

    /// A cassette of `exchangeCount` JSON exchanges of about 300 bytes each.
    public init(exchangeCount: Int = 1_000) throws {
        self.exchangeCount = exchangeCount
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-bench-cassette-" + UUID().uuidString)
        self.folder = folder
        requests = (0..<exchangeCount).map { index in
            var request = URLRequest(url: URL(string: "https://api.example.com/v1/items/\(index)?expand=owner") ?? URL(fileURLWithPath: "/"))
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            return request
        }
        let entries = (0..<exchangeCount).map { index in
            let body = #"{\"id\":\#(index),\"name\":\"item \#(index)\",\"owner\":{\"id\":7,\"name\":\"Ada\"},\"tags\":[\"a\",\"b\",\"c\"],\"price\":12.5}"#
            return #"{"request": {"method": "GET", "url": "https://api.example.com/v1/items/\#(index)?expand=owner", "headers": [{"name": "Accept", "value": "application/json"}]},"#
                + #" "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "ETag", "value": "\"v\#(index)\""}],"#
                + #" "content": {"mimeType": "application/json", "text": "\#(body)"}}}"#
        }
        let har = #"{"log": {"version": "1.2", "entries": ["# + entries.joined(separator: ",") + "]}}"
        let written = try HTTPArchive.importFixtures(from: Data(har.utf8), into: folder)
        files = written.map { folder.appendingPathComponent($0) }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Opens the cassette and replays every exchange; returns how many were answered with 200.
    @discardableResult
    public func replayAll() -> Int {
        let session = ReplaySession(from: folder)
        let answered = DeliveryCounter()
        for request in requests {
            _ = session.start(request) { data, response, _ in
                if (response as? HTTPURLResponse)?.statusCode == 200, data?.isEmpty == false { answered.increment() }
            }
        }
        return answered.value
    }

    /// Reads the bytes of every fixture file, nothing more: the floor for any replay.
    public func readFiles() -> Int {
        files.reduce(0) { total, file in total + ((try? Data(contentsOf: file))?.count ?? 0) }
    }

    /// Fails unless every exchange replays.
    public func checkReplay() throws {
        let answered = replayAll()
        guard answered == exchangeCount else { throw WorkloadError("cassette replay answered \(answered) of \(exchangeCount) exchanges") }
    }
}
