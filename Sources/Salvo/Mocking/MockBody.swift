import Foundation

/// Where a mock response's body comes from; files are read only when the call is answered.
enum MockBody: Sendable {
    /// Bytes given in code.
    case data(Data)
    /// The raw contents of a file.
    case file(URL)
    /// The response of a recorded Salvo fixture, status and headers included.
    case fixture(URL)

    /// The status, headers and body to answer with.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` with part `.fixture`, naming the file.
    func load(status: Int, headers: HTTPHeaders) throws(NetworkError) -> (status: Int, headers: HTTPHeaders, body: Data) {
        switch self {
        case .data(let data):
            return (status, headers, data)
        case .file(let url):
            let data = try FixtureFile.read(url)
            if url.pathExtension.lowercased() == "json", (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
                throw FixtureFile.problem("fixture file \(url.path) has a .json extension but is not valid JSON")
            }
            return (status, headers, data)
        case .fixture(let url):
            let fixture = try Fixture.load(from: url)
            return (fixture.response.status, fixture.response.httpHeaders.merging(headers), fixture.response.body?.data ?? Data())
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
