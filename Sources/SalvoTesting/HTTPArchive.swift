import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// HTTP Archive (HAR 1.2) import and export: captures from a browser's developer tools,
/// Proxyman or Charles become Salvo fixtures, and Salvo's recordings open in those tools.
///
/// ```swift
/// try HTTPArchive.importFixtures(from: URL(fileURLWithPath: "checkout.har"), into: fixtures)
/// try HTTPArchive.export(fixturesIn: fixtures, to: URL(fileURLWithPath: "checkout.har"))
/// ```
///
/// Import redacts as recording does (`FixtureOptions/redaction`), and an exchange that repeats
/// in the archive is kept occurrence by occurrence, in order. Export redacts again, so a fixture
/// edited by hand cannot leak a secret into a file you share. Fixtures hold no request body (only
/// its hash), so exported requests carry none. A recorded stream's chunks and their times travel
/// in the custom `_chunks` field of the response content, and its receive time is the last chunk's.
public enum HTTPArchive {
    /// Writes one fixture per entry of the HAR file at `archive` into `folder`.
    ///
    /// - Returns: the names of the files written, in the archive's order.
    /// - Throws: `NetworkError/incompleteSetup(_:)` (part `.fixture`) naming the file and what is
    ///   wrong when it cannot be read, is not HAR, or a fixture cannot be written.
    @discardableResult
    public static func importFixtures(from archive: URL, into folder: URL, options: FixtureOptions = FixtureOptions()) throws(NetworkError) -> [String] {
        try importFixtures(from: FixtureFile.read(archive), named: archive.path, into: folder, options: options)
    }

    /// Writes one fixture per entry of the HAR document `data` into `folder`; `name` names it in errors.
    @discardableResult
    public static func importFixtures(from data: Data, named name: String = "HAR data", into folder: URL, options: FixtureOptions = FixtureOptions()) throws(NetworkError) -> [String] {
        let archive: HARFormat.Archive
        do {
            archive = try JSONDecoder().decode(HARFormat.Archive.self, from: data)
        } catch let error as DecodingError {
            throw FixtureFile.problem("\(name) is not an HTTP Archive: \(error.plainReason)")
        } catch {
            throw FixtureFile.problem("\(name) is not an HTTP Archive: \(error)")
        }
        let occurrences = FixtureOccurrences()
        var written: [String] = []
        for (position, entry) in archive.log.entries.enumerated() {
            let (request, response, body) = try exchange(of: entry, at: position + 1, in: name)
            let chunks = entry.response.content?.chunks
            if let chunk = chunks?.first(where: { $0.bytes < 0 || $0.ms < 0 }) {
                throw FixtureFile.problem("entry \(position + 1) of \(name) has a response chunk of \(chunk.bytes) bytes at \(chunk.ms) ms; neither may be negative")
            }
            let fixtureName = FixtureName.fileName(for: request, options: options)
            let occurrence = occurrences.next(for: fixtureName)
            let file = FixtureOccurrences.file(fixtureName, occurrence: occurrence, in: folder)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                var fixture = Fixture(request: request, response: response, body: body, chunks: chunks, options: options)
                if options.recordsTimestamps { fixture.recordedAt = entry.startedDateTime }
                try fixture.encoded().write(to: file, options: .atomic)
            } catch {
                throw FixtureFile.problem("could not write fixture \(file.path) for entry \(position + 1) of \(name): \(error.localizedDescription)")
            }
            if occurrence == 1 { FixtureOccurrences.removeLaterOccurrences(of: fixtureName, in: folder) }
            written.append(file.lastPathComponent)
        }
        return written
    }

    /// Writes every fixture in `folder` (by file name, repeats in order) to a HAR file at `archive`, redacting with `redaction`.
    ///
    /// - Throws: `NetworkError/incompleteSetup(_:)` (part `.fixture`) naming a fixture that
    ///   cannot be read or the archive that cannot be written.
    public static func export(fixturesIn folder: URL, to archive: URL, redaction: Redaction = .default) throws(NetworkError) {
        let data = try exportData(fixturesIn: folder, redaction: redaction)
        do {
            try data.write(to: archive, options: .atomic)
        } catch {
            throw FixtureFile.problem("could not write HTTP Archive \(archive.path): \(error.localizedDescription)")
        }
    }

    /// The HAR document of every fixture in `folder` (by file name), redacted with `redaction`:
    /// pretty-printed with sorted keys, so the same fixtures always give the same bytes.
    public static func exportData(fixturesIn folder: URL, redaction: Redaction = .default) throws(NetworkError) -> Data {
        let names = FixtureOccurrences.orderedFileNames(in: folder)
        var entries: [HARFormat.Entry] = []
        for name in names {
            entries.append(entry(for: try Fixture.load(from: folder.appendingPathComponent(name)), redaction: redaction))
        }
        let archive = HARFormat.Archive(log: HARFormat.Log(version: "1.2", creator: HARFormat.Creator(name: "Salvo", version: "1"), entries: entries))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(archive) + Data("\n".utf8)
        } catch {
            throw FixtureFile.problem("could not encode the HTTP Archive of \(folder.path): \(error)")
        }
    }

    /// The request, response and body of HAR entry number `position`.
    private static func exchange(of entry: HARFormat.Entry, at position: Int, in name: String) throws(NetworkError) -> (URLRequest, HTTPURLResponse, Data) {
        guard let url = URL(string: entry.request.url), url.scheme != nil else {
            throw FixtureFile.problem("entry \(position) of \(name) has a request url \"\(entry.request.url)\" that is not an absolute URL")
        }
        guard (100...599).contains(entry.response.status) else {
            throw FixtureFile.problem("entry \(position) of \(name) has status \(entry.response.status), outside 100–599")
        }
        var request = URLRequest(url: url)
        request.httpMethod = entry.request.method.uppercased()
        for header in entry.request.headers ?? [] where !header.name.hasPrefix(":") {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let text = entry.request.postData?.text, !text.isEmpty {
            request.httpBody = Data(text.utf8)
            if request.value(forHTTPHeaderField: "Content-Type") == nil, let type = entry.request.postData?.mimeType {
                request.setValue(type, forHTTPHeaderField: "Content-Type")
            }
        }
        // The archive holds the decoded body, so the framing and encoding headers no longer describe it.
        let dropped: Set<String> = ["content-encoding", "content-length", "transfer-encoding"]
        var headers: [String: String] = [:]
        for header in entry.response.headers ?? [] where !header.name.hasPrefix(":") && !dropped.contains(header.name.lowercased()) {
            headers[header.name] = headers[header.name].map { $0 + ", " + header.value } ?? header.value
        }
        let content = entry.response.content
        let body: Data
        if content?.encoding?.lowercased() == "base64" {
            guard let decoded = Data(base64Encoded: content?.text ?? "") else {
                throw FixtureFile.problem("entry \(position) of \(name) has a base64 response body that is not valid base64")
            }
            body = decoded
        } else {
            body = Data((content?.text ?? "").utf8)
        }
        guard let response = HTTPURLResponse(url: url, statusCode: entry.response.status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw FixtureFile.problem("entry \(position) of \(name) has a response Foundation cannot represent")
        }
        return (request, response, body)
    }

    /// The HAR entry of `fixture`, redacted again with `redaction`.
    private static func entry(for fixture: Fixture, redaction: Redaction) -> HARFormat.Entry {
        let url = URL(string: fixture.request.url).map { redaction.redact($0).absoluteString } ?? fixture.request.url
        let query = URL(string: url).flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        let requestHeaders = pairs(redaction.redact(HTTPHeaders(fixture.request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
        let responseHeaders = redaction.redact(fixture.response.httpHeaders)
        let contentType = responseHeaders["Content-Type"]
        let recordedBody = fixture.response.body?.data ?? Data()
        let body = redaction.redact(recordedBody, contentType: contentType)
        let chunks = fixture.response.chunks.map { recorded in
            Fixture.chunks(recorded, of: recordedBody, redactedTo: body) { redaction.redact($0, contentType: contentType) }
        }
        let receiveTime = Double(chunks?.last?.ms ?? 0)
        let text = String(data: body, encoding: .utf8)
        let isText = text.map { Data($0.utf8) == body } ?? false
        return HARFormat.Entry(
            startedDateTime: fixture.recordedAt ?? "1970-01-01T00:00:00.000Z",
            time: receiveTime,
            request: HARFormat.Request(
                method: fixture.request.method, url: url, httpVersion: "HTTP/1.1", headers: requestHeaders,
                queryString: query.map { HARFormat.Pair(name: $0.name, value: $0.value ?? "") },
                cookies: [], headersSize: -1, bodySize: fixture.request.bodyHash == nil ? 0 : -1, postData: nil
            ),
            response: HARFormat.Response(
                status: fixture.response.status, statusText: HTTPURLResponse.localizedString(forStatusCode: fixture.response.status),
                httpVersion: "HTTP/1.1", headers: pairs(responseHeaders), cookies: [],
                content: HARFormat.Content(
                    size: body.count, mimeType: contentType ?? "application/octet-stream",
                    text: body.isEmpty ? nil : (isText ? text : body.base64EncodedString()),
                    encoding: body.isEmpty || isText ? nil : "base64",
                    chunks: chunks
                ),
                redirectURL: "", headersSize: -1, bodySize: body.count
            ),
            cache: HARFormat.Empty(),
            timings: HARFormat.Timings(send: 0, wait: 0, receive: receiveTime)
        )
    }

    private static func pairs(_ headers: HTTPHeaders) -> [HARFormat.Pair] {
        headers.map { HARFormat.Pair(name: $0.name, value: $0.value) }
    }
}
