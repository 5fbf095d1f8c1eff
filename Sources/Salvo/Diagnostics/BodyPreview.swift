import Foundation

/// A body as readable text for logs: JSON pretty-printed, form fields and JSON fields whose names
/// are secret query keys redacted, binary summarised, everything cut at a character limit.
struct BodyPreview {
    let redaction: Redaction
    let limit: Int

    func render(_ body: Data, contentType: String?) -> String {
        truncate(readable(body, contentType: contentType?.lowercased() ?? ""))
    }

    private func readable(_ body: Data, contentType: String) -> String {
        var ignored = false
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
           let pretty = try? JSONSerialization.data(withJSONObject: redaction.redactJSON(json, didHide: &ignored), options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed]),
           let text = String(data: pretty, encoding: .utf8) {
            return text
        }
        guard let text = String(data: body, encoding: .utf8) else {
            return "<\(body.count) bytes of binary data>"
        }
        if Redaction.isForm(contentType) {
            return redaction.redactForm(text)
        }
        return text
    }

    /// The start of `body` as an error description quotes it: ``Redaction/default`` applied to the
    /// whole body first (JSON fields at any depth, form and multipart fields; text that is not
    /// JSON is read as a form too, since a server's content type is not to be trusted), then its
    /// first 200 characters. `nil` when the body is empty.
    ///
    /// Redacting before cutting matters: a cut JSON body no longer parses, and its secrets would
    /// show. A body too large to parse for a message is summarised by its size.
    static func message(_ body: Data?, contentType: String?) -> String? {
        guard let body, !body.isEmpty else { return nil }
        guard body.count <= messageParseLimit else { return "<\(body.count) bytes, not shown>" }
        var shown = Redaction.default.redact(body, contentType: contentType)
        if shown == body, let text = String(data: body, encoding: .utf8),
           (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) == nil {
            shown = Data(Redaction.default.redactForm(text).utf8)
        }
        guard let text = String(data: shown, encoding: .utf8) else { return "<\(body.count) bytes>" }
        return text.count > messageLimit ? text.prefix(messageLimit) + "…" : text
    }

    /// Characters of a body an error description quotes.
    private static let messageLimit = 200
    /// Larger bodies are not parsed to build a message.
    private static let messageParseLimit = 1 << 20

    private func truncate(_ text: String) -> String {
        guard text.count > limit else { return text }
        return text.prefix(max(0, limit)) + "… (\(text.count - max(0, limit)) more characters)"
    }
}
