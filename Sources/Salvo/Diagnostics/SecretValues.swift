import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The secret values a request carries (in the headers, query items and body fields a
/// ``Redaction`` hides), so that logs and fixtures can remove them wherever else they appear,
/// such as a response that echoes them as text.
struct SecretValues {
    /// Values of at least ``minimumLength`` characters, longest first so that a value containing
    /// another is replaced whole.
    let values: [String]

    /// Shorter values are left alone: replacing every `1` or `id` would wreck the log.
    static let minimumLength = 4

    /// - Parameter includingBody: also collect the request body's hidden fields; only worth parsing
    ///   the body when a body will be written out.
    init(of request: URLRequest?, hiddenBy redaction: Redaction, includingBody: Bool) {
        var found: Set<String> = []
        for (name, value) in request?.allHTTPHeaderFields ?? [:] where redaction.hidesHeader(name) {
            found.insert(value)
            // "Bearer abc": the credential alone may be echoed too.
            if let space = value.firstIndex(of: " ") { found.insert(String(value[value.index(after: space)...])) }
            // "a=1; b=2": each cookie value.
            for pair in value.split(separator: ";") {
                if let equals = pair.firstIndex(of: "=") { found.insert(String(pair[pair.index(after: equals)...])) }
            }
        }
        if let url = request?.url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems {
            for item in items where redaction.hidesQueryKey(item.name.removingPercentEncoding ?? item.name) {
                guard let raw = item.value else { continue }
                found.insert(raw)
                if let decoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding { found.insert(decoded) }
            }
        }
        if includingBody, let body = request?.httpBody {
            found.formUnion(redaction.hiddenValues(inBody: body, contentType: request?.value(forHTTPHeaderField: "Content-Type")))
        }
        if includingBody, let request, let streamed = StreamedBodyDescription(of: request, redaction: redaction) {
            found.formUnion(streamed.hiddenValues)
        }
        values = found
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count >= Self.minimumLength }
            .sorted { $0.count > $1.count }
    }

    /// `text` with every secret value replaced by `<redacted>`.
    func scrub(_ text: String) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.placeholder) }
    }
}
