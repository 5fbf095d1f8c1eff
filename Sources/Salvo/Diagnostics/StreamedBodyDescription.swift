import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How logs and `curl` output show a body streamed from files (``RequestBody/file(_:contentType:)``,
/// ``RequestBody/multipart(_:boundary:)`` with file parts) or made while it is sent
/// (``RequestBody/stream(length:contentType:_:)``): by its parts and file paths, never by reading
/// the files, and as `<streamed body>` without making the chunks; text fields whose names
/// ``Redaction`` hides show as the placeholder.
struct StreamedBodyDescription {
    private let stream: BodyStream
    private let redaction: Redaction

    /// The description of `request`'s body, when it is streamed from files.
    init?(of request: URLRequest, redaction: Redaction) {
        guard let stream = request.httpBodyStream as? BodyStream else { return nil }
        self.stream = stream
        self.redaction = redaction
    }

    /// `streamed, 3 parts, 1048890 B`, `streamed from /path/file.zip, 1048576 B` or `<streamed body>, 4096 B`.
    var summary: String {
        let size = stream.length.map { "\($0) B" } ?? "length unknown"
        return switch stream.body.content {
        case .multipart(let form): "streamed, \(form.parts.count) parts, \(size)"
        case .file(let url, _): "streamed from \(url.path), \(size)"
        case .stream: "\(Self.placeholder), \(size)"
        case .none, .data, .unencodable: "streamed, \(size)"
        }
    }

    /// What stands for a body made while it is sent, in logs and `curl` output.
    static let placeholder = "<streamed body>"


    /// One line per multipart part: `title = "Sunset"`, `photo ← /path/photo.jpg as "photo.jpg" (image/jpeg)`.
    var partLines: [String] {
        guard case .multipart(let form) = stream.body.content else { return [] }
        return form.parts.map { part in
            let type = part.contentType.map { " (\($0))" } ?? ""
            let fileName = part.fileName.map { " as \"\($0)\"" } ?? ""
            switch part.content {
            case .file(let url):
                return "\(part.name) ← \(url.path)\(fileName)\(type)"
            case .bytes(let data):
                if redaction.hidesQueryKey(part.name) { return "\(part.name) = \(Redaction.placeholder)" }
                if part.contentType == nil, let text = String(data: data, encoding: .utf8) {
                    return "\(part.name) = \"\(escaped(text))\""
                }
                return "\(part.name) = <\(data.count) B>\(fileName)\(type)"
            }
        }
    }

    /// The text field values the redaction hides, so that a log can scrub them elsewhere.
    var hiddenValues: [String] {
        guard case .multipart(let form) = stream.body.content else { return [] }
        return form.parts.compactMap { part in
            guard redaction.hidesQueryKey(part.name), case .bytes(let data) = part.content else { return nil }
            return String(data: data, encoding: .utf8)
        }
    }

    /// `curl` arguments that send the same body: `-F`/`--form-string` per part (curl picks its own
    /// boundary), or `--data-binary @path` for a file; in-memory bytes of a part are not
    /// reproduced, only their size.
    var curlArguments: [String] {
        switch stream.body.content {
        case .file(let url, _):
            return ["--data-binary", Shell.quote("@" + url.path)]
        case .multipart(let form):
            return form.parts.flatMap { part -> [String] in
                var options = ""
                if let fileName = part.fileName { options += ";filename=\(Self.curlFormValue(fileName))" }
                if let type = part.contentType { options += ";type=\(type)" }
                switch part.content {
                case .file(let url):
                    return ["-F", Shell.quote("\(part.name)=@\(Self.curlFormValue(url.path))\(options)")]
                case .bytes(let data):
                    let shown = redaction.hidesQueryKey(part.name)
                        ? Redaction.placeholder
                        : part.contentType == nil ? String(data: data, encoding: .utf8) ?? "<\(data.count) B>" : "<\(data.count) B>"
                    return ["--form-string", Shell.quote("\(part.name)=\(shown)")]
                }
            }
        case .stream:
            return ["--data-binary", Shell.quote(Self.placeholder)]
        case .none, .data, .unencodable:
            return []
        }
    }

    /// A value for curl's `-F` syntax, double-quoted with `"` and `\` escaped, so `;` and `,` stay in it.
    private static func curlFormValue(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
