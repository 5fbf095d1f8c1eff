import Foundation

extension Redaction {
    /// The boundary of a `multipart/form-data` content type, unquoted; `nil` for any other type.
    package static func multipartBoundary(_ contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
              let start = contentType.range(of: "boundary=", options: .caseInsensitive)?.upperBound
        else { return nil }
        var boundary = contentType[start...].prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 {
            boundary = String(boundary.dropFirst().dropLast())
        }
        return boundary.isEmpty ? nil : boundary
    }

    /// A multipart body with the content of every part whose name is hidden replaced by
    /// `<redacted>`, and the contents it replaced (as UTF-8 text).
    func redactMultipart(_ body: Data, boundary: String) -> (body: Data, hiddenValues: [String]) {
        let delimiter = Data("\r\n--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        // With CRLF put in front, the first delimiter looks like every other one.
        let source = Data("\r\n".utf8) + body
        guard let first = source.range(of: delimiter) else { return (body, []) }
        var output = Data(source[..<first.upperBound])
        var hidden: [String] = []
        var cursor = first.upperBound
        while let next = source.range(of: delimiter, in: cursor..<source.endIndex) {
            let part = source[cursor..<next.lowerBound]
            if let end = part.range(of: headerEnd),
               let name = Self.partName(String(decoding: part[..<end.lowerBound], as: UTF8.self)),
               hidesQueryKey(name) {
                output.append(part[..<end.upperBound])
                output.append(contentsOf: Self.placeholder.utf8)
                hidden.append(String(decoding: part[end.upperBound...], as: UTF8.self))
            } else {
                output.append(part)
            }
            output.append(source[next])
            cursor = next.upperBound
        }
        output.append(source[cursor...])
        return (hidden.isEmpty ? body : Data(output.dropFirst(2)), hidden)
    }

    /// The `name` parameter of a part's `Content-Disposition` (not `filename`), as sent.
    private static func partName(_ headers: String) -> String? {
        for marker in ["; name=\"", ";name=\""] {
            if let start = headers.range(of: marker)?.upperBound,
               let end = headers[start...].firstIndex(of: "\"") {
                return String(headers[start..<end])
            }
        }
        return nil
    }
}
