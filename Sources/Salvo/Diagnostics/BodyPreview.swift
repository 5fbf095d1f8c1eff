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

    private func truncate(_ text: String) -> String {
        guard text.count > limit else { return text }
        return text.prefix(max(0, limit)) + "… (\(text.count - max(0, limit)) more characters)"
    }
}
