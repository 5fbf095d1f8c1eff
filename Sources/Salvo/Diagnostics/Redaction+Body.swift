import Foundation

extension Redaction {
    /// `body` with the value of every hidden field replaced by `<redacted>`: form and
    /// multipart fields by name, JSON fields at any depth. Unchanged, byte for byte, when it hides nothing; a JSON body
    /// that loses a field is re-encoded with sorted keys, so the same input always gives the same bytes.
    package func redact(_ body: Data, contentType: String?) -> Data {
        guard !queryKeys.isEmpty, !body.isEmpty else { return body }
        if let boundary = Self.multipartBoundary(contentType) {
            return redactMultipart(body, boundary: boundary).body
        }
        if Self.isForm(contentType), let text = String(data: body, encoding: .utf8) {
            let redacted = redactForm(text)
            return redacted == text ? body : Data(redacted.utf8)
        }
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return body }
        var didHide = false
        let hidden = redactJSON(json, didHide: &didHide)
        guard didHide, let data = try? JSONSerialization.data(withJSONObject: hidden, options: [.sortedKeys, .fragmentsAllowed]) else {
            return body
        }
        return data
    }

    /// The values of the hidden fields in `body` (a form, or JSON at any depth), so that a log can
    /// remove them where a server echoes them in a shape field redaction cannot see, such as text.
    func hiddenValues(inBody body: Data, contentType: String?) -> [String] {
        guard !queryKeys.isEmpty, !body.isEmpty else { return [] }
        if let boundary = Self.multipartBoundary(contentType) {
            return redactMultipart(body, boundary: boundary).hiddenValues
        }
        if Self.isForm(contentType), let text = String(data: body, encoding: .utf8) {
            return FormField.fields(in: Substring(text), omittingEmpty: true).flatMap { field -> [String] in
                guard let raw = field.rawValue, let value = field.value, hidesQueryKey(field.name) else { return [] }
                return [String(raw), value]
            }
        }
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return [] }
        var found: [String] = []
        collectHiddenValues(in: json, isHidden: false, into: &found)
        return found
    }

    /// `value` with hidden JSON fields replaced; `didHide` turns true when one was.
    func redactJSON(_ value: Any, didHide: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, field) in object {
                if hidesQueryKey(key) {
                    copy[key] = Self.placeholder
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

    /// A form body (`a=1&b=2`) with every hidden field's value replaced.
    func redactForm(_ text: String) -> String {
        FormField.fields(in: Substring(text)).map { field -> String in
            field.rawValue != nil && hidesQueryKey(field.name) ? field.rawName + "=" + Self.placeholder : String(field.raw)
        }.joined(separator: "&")
    }

    static func isForm(_ contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private func collectHiddenValues(in value: Any, isHidden: Bool, into found: inout [String]) {
        if let object = value as? [String: Any] {
            for (key, field) in object {
                collectHiddenValues(in: field, isHidden: isHidden || hidesQueryKey(key), into: &found)
            }
        } else if let array = value as? [Any] {
            for element in array { collectHiddenValues(in: element, isHidden: isHidden, into: &found) }
        } else if isHidden, !(value is NSNull) {
            found.append("\(value)")
        }
    }
}
