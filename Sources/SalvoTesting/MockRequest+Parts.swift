import Foundation
@_spi(Transport) import Salvo

extension MockRequest {
    /// One part of a `multipart/form-data` request body, as a server parsing the form sees it.
    ///
    /// ```swift
    /// MockRoute(.post, "/photos") { request in
    ///     let photo = request.parts?.first { $0.name == "photo" }
    ///     return .json(["saved": photo?.fileName ?? "nothing"])
    /// }
    /// ```
    public struct Part: Sendable, Hashable {
        /// The field name: the `name` parameter of the part's `Content-Disposition`; `nil` without one.
        public let name: String?
        /// The file name the client sent (`filename`); `nil` for a text field.
        public let fileName: String?
        /// The part's header fields, in the order sent.
        public let headers: HTTPHeaders
        /// The part's content.
        public let body: Data

        /// A part with these headers and content; `name` and `fileName` are read from its
        /// `Content-Disposition`.
        init(headers: HTTPHeaders, body: Data) {
            self.headers = headers
            self.body = body
            let disposition = headers["Content-Disposition"] ?? ""
            self.name = Self.parameter("name", of: disposition)
            self.fileName = Self.parameter("filename", of: disposition)
        }

        /// The part's `Content-Type`; `nil` when it sends none, as a text field does.
        public var contentType: String? { headers["Content-Type"] }

        /// The content as UTF-8 text; `nil` when it is not UTF-8.
        public var text: String? { String(data: body, encoding: .utf8) }

        /// A quoted parameter of a `Content-Disposition`, with the `%22`, `%0D` and `%0A` that
        /// `MultipartPart` writes for `"`, CR and LF turned back; `nil` when absent.
        private static func parameter(_ parameter: String, of disposition: String) -> String? {
            for separator in ["; ", ";"] {
                guard let start = disposition.range(of: "\(separator)\(parameter)=\"")?.upperBound,
                      let end = disposition[start...].firstIndex(of: "\"") else { continue }
                return String(disposition[start..<end])
                    .replacingOccurrences(of: "%22", with: "\"")
                    .replacingOccurrences(of: "%0D", with: "\r")
                    .replacingOccurrences(of: "%0A", with: "\n")
            }
            return nil
        }
    }

    /// The parts of a `multipart/form-data` body, in order; `nil` when the request has another
    /// content type, no boundary, or a body that is not a complete form.
    ///
    /// A form's boundary is new for every request, so a test checks its parts rather than its
    /// bytes; `MockMatcher/multipartFields(_:)` and `MockMatcher/multipartPart(named:fileName:contentType:body:)`
    /// match a route on them.
    public var parts: [Part]? {
        guard let boundary = Redaction.multipartBoundary(header("Content-Type")), let body else { return nil }
        return Self.parts(of: body, boundary: boundary)
    }

    /// The parts between `boundary` delimiters (RFC 2046 section 5.1.1): preamble and epilogue
    /// ignored; `nil` when a part has no header block or the closing delimiter is missing.
    static func parts(of body: Data, boundary: String) -> [Part]? {
        let marker = Data("\r\n--\(boundary)".utf8)
        // With CRLF put in front, the first delimiter looks like every other one.
        let source = Data("\r\n".utf8) + body
        guard var next = delimiter(marker, in: source, from: source.startIndex)?.next else { return nil }
        var parts: [Part] = []
        while !next.isLast {
            guard let found = delimiter(marker, in: source, from: next.contentStart),
                  let part = part(source[next.contentStart..<found.start]) else { return nil }
            parts.append(part)
            next = found.next
        }
        return parts
    }

    /// The first delimiter at or after `start` that is one: followed by `--`, or by optional
    /// spaces and tabs and a CRLF. The same bytes followed by anything else are content.
    private static func delimiter(_ delimiter: Data, in source: Data, from start: Int) -> (start: Int, next: (contentStart: Int, isLast: Bool))? {
        var searchFrom = start
        while let found = source.range(of: delimiter, in: searchFrom..<source.endIndex) {
            let after = source[found.upperBound...]
            if after.starts(with: Data("--".utf8)) { return (found.lowerBound, (source.endIndex, true)) }
            let padding = after.prefix { $0 == 0x20 || $0 == 0x09 }
            if after[padding.endIndex...].starts(with: Data("\r\n".utf8)) {
                return (found.lowerBound, (padding.endIndex + 2, false))
            }
            searchFrom = found.upperBound
        }
        return nil
    }

    /// One part's bytes: header lines, an empty line, then the content.
    private static func part(_ bytes: Data) -> Part? {
        let lineBreak = Data("\r\n".utf8)
        if bytes.starts(with: lineBreak) {
            return Part(headers: [:], body: Data(bytes.dropFirst(lineBreak.count)))
        }
        guard let end = bytes.range(of: lineBreak + lineBreak) else { return nil }
        var fields: [(String, String)] = []
        for line in String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Part(headers: HTTPHeaders(fields), body: Data(bytes[end.upperBound...]))
    }
}
