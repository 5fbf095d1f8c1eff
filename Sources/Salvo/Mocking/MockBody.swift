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

    /// What to answer with: status, headers, body, and the URL the response reports when it is
    /// not the request's (a recorded redirect).
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` with part `.fixture`, naming the file.
    func load(status: Int, headers: HTTPHeaders) throws(NetworkError) -> (status: Int, headers: HTTPHeaders, body: Data, url: URL?) {
        switch self {
        case .data(let data):
            return (status, headers, data, nil)
        case .file(let url):
            let data = try FixtureFile.read(url)
            if url.pathExtension.lowercased() == "json", (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
                throw FixtureFile.problem("fixture file \(url.path) has a .json extension but is not valid JSON")
            }
            return (status, headers, data, nil)
        case .fixture(let url):
            return try MockBody.recorded(Fixture.load(from: url).response).load(status: status, headers: headers)
        case .recorded(let response):
            return (response.status, response.httpHeaders.merging(headers), response.body?.data ?? Data(), response.url.flatMap(URL.init(string:)))
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
