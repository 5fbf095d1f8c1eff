import Foundation

/// Where a mock response's body comes from; files are read only when the call is answered.
enum MockBody: Sendable {
    /// Bytes given in code.
    case data(Data)
    /// The raw contents of a file.
    case file(URL)
    /// The response of a recorded Salvo fixture file, status, headers and final URL included.
    case fixture(URL)
    /// A recorded response already loaded (replay checked its fixture's request first).
    case recorded(Fixture.Response)
    /// Bytes that arrive in chunks over time: the whole body and its chunks, which cover it.
    case streamed(Data, [BodyPacing.Chunk])

    /// What a body loads to: the answer's status, headers and bytes, when its chunks arrive, and
    /// the URL the response reports when it is not the request's (a recorded redirect).
    struct Loaded {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        /// The chunks the body arrives in; nil when it arrives whole with the head.
        var chunks: [BodyPacing.Chunk]?
        var url: URL?
    }

    /// What to answer with, for an answer of `status` and `headers`.
    ///
    /// - Throws: ``NetworkError/incompleteSetup(_:)`` with part `.fixture`, naming the file.
    func load(status: Int, headers: HTTPHeaders) throws(NetworkError) -> Loaded {
        switch self {
        case .data(let data):
            return Loaded(status: status, headers: headers, body: data)
        case .file(let url):
            let data = try FixtureFile.read(url)
            if url.pathExtension.lowercased() == "json", (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
                throw FixtureFile.problem("fixture file \(url.path) has a .json extension but is not valid JSON")
            }
            return Loaded(status: status, headers: headers, body: data)
        case .fixture(let url):
            return try MockBody.recorded(Fixture.load(from: url).response).load(status: status, headers: headers)
        case .recorded(let response):
            return Loaded(
                status: response.status,
                headers: response.httpHeaders.merging(headers),
                body: response.body?.data ?? Data(),
                chunks: response.chunks?.map { BodyPacing.Chunk(bytes: $0.bytes, time: TimeInterval($0.ms) / 1_000) },
                url: response.url.flatMap(URL.init(string:))
            )
        case .streamed(let data, let chunks):
            return Loaded(status: status, headers: headers, body: data, chunks: chunks)
        }
    }

    /// The `Content-Type` a file's extension implies, if Salvo knows it.
    static func contentType(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "xml": return "application/xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        default: return nil
        }
    }
}
