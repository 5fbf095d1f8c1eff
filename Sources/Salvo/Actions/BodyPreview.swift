import Foundation

/// A body as readable text for logs: JSON pretty-printed, form fields and JSON fields whose names
/// are secret query keys redacted, binary summarised, everything cut at a character limit.
struct BodyPreview {
    let redaction: Redaction
    let limit: Int

    func render(_ body: Data, contentType: String?) -> String {
        truncate(readable(body, contentType: contentType?.lowercased() ?? ""))
    }

    /// `body` with secret JSON or form fields hidden; unchanged (byte for byte) when none are present.
    func redacted(_ body: Data, contentType: String?) -> Data {
        guard !redaction.queryKeys.isEmpty else { return body }
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
           let text = String(data: body, encoding: .utf8) {
            return Data(redactForm(text).utf8)
        }
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return body }
        var didHide = false
        let hidden = redactJSON(json, didHide: &didHide)
        guard didHide, let data = try? JSONSerialization.data(withJSONObject: hidden, options: [.sortedKeys, .fragmentsAllowed]) else {
            return body
        }
        return data
    }

    private func readable(_ body: Data, contentType: String) -> String {
        var ignored = false
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
           let pretty = try? JSONSerialization.data(withJSONObject: redactJSON(json, didHide: &ignored), options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed]),
           let text = String(data: pretty, encoding: .utf8) {
            return text
        }
        guard let text = String(data: body, encoding: .utf8) else {
            return "<\(body.count) bytes of binary data>"
        }
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            return redactForm(text)
        }
        return text
    }

    private func redactJSON(_ value: Any, didHide: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, field) in object {
                if redaction.hidesQueryKey(key) {
                    copy[key] = Redaction.placeholder
                    didHide = true
                } else {
                    copy[key] = redactJSON(field, didHide: &didHide)
                }
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map { redactJSON($0, didHide: &didHide) }
        }
        return value
    }

    private func redactForm(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { field -> String in
            guard let equals = field.firstIndex(of: "=") else { return String(field) }
            let rawName = field[..<equals]
            let name = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)
            return redaction.hidesQueryKey(name) ? rawName + "=" + Redaction.placeholder : String(field)
        }.joined(separator: "&")
    }

    private func truncate(_ text: String) -> String {
        guard text.count > limit else { return text }
        return text.prefix(max(0, limit)) + "… (\(text.count - max(0, limit)) more characters)"
    }
}
