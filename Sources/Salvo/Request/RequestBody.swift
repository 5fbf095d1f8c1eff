import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an endpoint sends as its request body.
///
/// Bodies are encoded when the endpoint is made, so an endpoint stays a plain value; an encoding
/// failure is kept and reported as ``NetworkError/invalidRequest(_:)`` when the call fires.
/// A body with files (``file(_:contentType:)``, ``multipart(_:boundary:)`` with file parts) keeps
/// only their URLs: files are sized when the request is built and read while it is sent.
public struct RequestBody: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case none
        case data(Data, contentType: String?)
        /// A form with file parts, streamed from disk.
        case multipart(MultipartForm)
        /// A file sent as the whole body, streamed from disk.
        case file(URL, contentType: String)
        /// Chunks sent as they are made.
        case stream(BodyChunks, contentType: String?)
        case unencodable(String)
    }

    let content: Content
    /// Whether the body is read from files or chunks as it is sent: a stored answer, so the
    /// firing reads it without entering this file.
    let isStreamed: Bool

    private init(content: Content) {
        self.content = content
        switch content {
        case .multipart, .file, .stream: isStreamed = true
        case .none, .data, .unencodable: isStreamed = false
        }
    }

    /// No body.
    public static let none = RequestBody(content: .none)

    /// Raw bytes sent as they are, with an optional `Content-Type`.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// UTF-8 text with a `Content-Type` (plain text by default).
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        .data(Data(text.utf8), contentType: contentType)
    }

    /// Any `Encodable` value as JSON (`Content-Type: application/json`).
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder to use, e.g. one with `.convertToSnakeCase`.
    public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        do {
            return .data(try encoder.encode(value), contentType: "application/json")
        } catch {
            return RequestBody(content: .unencodable("\(Value.self) could not be encoded as JSON: \(error)"))
        }
    }

    /// Fields sent as `application/x-www-form-urlencoded`, in order, repeated names allowed.
    public static func form(_ fields: KeyValuePairs<String, String>) -> RequestBody {
        form(fields.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Fields sent as `application/x-www-form-urlencoded`, in order, repeated names allowed.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        let encoded = fields.map { field in
            PercentEncoding.formField(field.name) + "=" + PercentEncoding.formField(field.value ?? "")
        }
        return .data(Data(encoded.joined(separator: "&").utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// A `multipart/form-data` body (RFC 7578): fields, bytes and files, in order.
    ///
    /// ```swift
    /// let upload = Endpoint.post("/photos", body: .multipart([
    ///     .field("caption", "Sunset"),
    ///     .file(photoURL, name: "photo"),
    /// ]))
    /// ```
    ///
    /// A form without file parts is encoded now, whole, and sent with a `Content-Length`. A form
    /// with file parts is streamed: files are read in pieces while the body is sent, so a file of
    /// any size costs no more memory than the piece being sent, and the body is sent again whole
    /// when a retry or a token renewal on 401 sends the request again.
    ///
    /// - Parameters:
    ///   - parts: the parts, in the order they are sent; names may repeat.
    ///   - boundary: the delimiter between parts; `nil` (the default) picks a random one that no
    ///     in-memory part contains. A boundary you give must be 1–70 RFC 2046 characters and must
    ///     not occur in any in-memory part, or the call fails with ``NetworkError/invalidRequest(_:)``.
    public static func multipart(_ parts: [MultipartPart], boundary: String? = nil) -> RequestBody {
        switch MultipartForm.make(parts, boundary: boundary) {
        case .failure(let refusal):
            return RequestBody(content: .unencodable(refusal.reason))
        case .success(let form) where form.hasFileParts:
            return RequestBody(content: .multipart(form))
        case .success(let form):
            return .data(form.encoded, contentType: form.contentType)
        }
    }

    /// The file at `url` as the whole body, read in pieces while it is sent.
    ///
    /// ```swift
    /// let put = Endpoint.put("/backups/today", body: .file(archiveURL))  // application/zip
    /// ```
    ///
    /// - Parameters:
    ///   - url: a `file:` URL; the file must exist and be readable when the request is built
    ///     and when it is sent, or the call fails with ``NetworkError/invalidRequest(_:)`` naming it.
    ///   - contentType: the `Content-Type`; by default inferred from the file's extension
    ///     (a small built-in table of common extensions).
    public static func file(_ url: URL, contentType: String? = nil) -> RequestBody {
        RequestBody(content: .file(url, contentType: contentType ?? Self.contentType(forFileExtension: url.pathExtension)))
    }

    /// Chunks sent as `makeChunks` makes them: an upload that starts before its last byte exists.
    ///
    /// ```swift
    /// let upload = Endpoint.put("/recordings/today", body: .stream(contentType: "audio/ogg") {
    ///     recorder.encodedPages()  // any AsyncSequence of Data (or of other DataProtocol chunks)
    /// })
    /// ```
    ///
    /// `makeChunks` is called once for every send of the request, so a retry, a token renewal on
    /// 401 or a 307/308 redirect sends the body again from its first chunk. A sequence that can
    /// be made only once should throw when it is made again: the call then fails with
    /// ``NetworkError/invalidRequest(_:)`` carrying the error, never with a body sent short. At most
    /// one chunk is held at a time: the next is asked for when the transport took the last.
    ///
    /// Mock firing reads the chunks whole, so that ``MockRequest/body`` has them (up to
    /// ``MockRequest/streamedBodyLimit``); fixtures record no hash of a streamed body; logs and
    /// `curl` output show `<streamed body>`. Over Linux `URLSession` the chunks are made first and
    /// sent from memory: corelibs cannot wait for a chunk without stopping every transfer of the
    /// process (see the Linux guide: "Request body streams").
    ///
    /// - Parameters:
    ///   - length: the body's length in bytes, if it is known; the chunks must add up to it, or
    ///     the upload stops and the call fails with ``NetworkError/invalidRequest(_:)``. Apple
    ///     platforms send it as `Content-Length`; without it (and always on Linux) the body is
    ///     sent with `Transfer-Encoding: chunked`.
    ///   - contentType: the `Content-Type`, if any.
    ///   - makeChunks: makes the body's chunks, in order; called for every send.
    public static func stream<Chunks: AsyncSequence & SendableMetatype>(
        length: Int64? = nil,
        contentType: String? = "application/octet-stream",
        _ makeChunks: @escaping @Sendable () -> Chunks
    ) -> RequestBody where Chunks.Element: DataProtocol {
        if let length, length < 0 {
            return RequestBody(content: .unencodable("a streamed body's length must be 0 or more bytes, not \(length)"))
        }
        return RequestBody(content: .stream(BodyChunks(length: length, makeChunks), contentType: contentType))
    }

    // What the request builder reads; an app sees the body as sent in `try call.urlRequest()`.

    /// The body's bytes, or nil when there is no body or it is read from files.
    var data: Data? {
        if case .data(let data, _) = content { return data }
        return nil
    }

    /// The `Content-Type` this body implies, if any.
    var contentType: String? {
        switch content {
        case .data(_, let type): type
        case .multipart(let form): form.contentType
        case .file(_, let type): type
        case .stream(_, let type): type
        case .none, .unencodable: nil
        }
    }


    /// Gives `request` a new stream of this body, so no two sends share one: the files are
    /// checked and sized again, so a file changed since the request was last built is sent as it
    /// is now, and a file gone since is reported before anything reaches the wire.
    ///
    /// On Apple platforms the request also gets the exact `Content-Length`, when it is known. Linux `URLSession`
    /// sends every stream with `Transfer-Encoding: chunked` and would add that to a
    /// `Content-Length`, which a message must not carry both of (RFC 9112 §6.2), so there the
    /// length is left to the chunked framing.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming a file that is missing, a directory or unreadable.
    func attachStream(to request: inout URLRequest) throws(NetworkError) {
        guard let segments = try streamedSegments() else { return }
        let stream = BodyStream(segments, of: self)
        request.httpBodyStream = stream
        #if !canImport(FoundationNetworking)
        if let length = stream.length {
            request.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        #endif
    }

    /// The body as segments to stream: the files checked and sized now, not read.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming a file that is missing, a directory or unreadable.
    func streamedSegments() throws(NetworkError) -> [BodySegment]? {
        switch content {
        case .multipart(let form): try form.segments()
        case .file(let url, _): [try BodySegment.file(checking: url)]
        case .stream(let chunks, _): [.chunks(chunks)]
        case .none, .data, .unencodable: nil
        }
    }
}
