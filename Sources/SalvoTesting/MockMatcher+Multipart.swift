import Foundation
@_spi(Transport) import Salvo

extension MockMatcher {
    /// The body is a `multipart/form-data` form with a text field (a part without a file name)
    /// for each of `fields`; a value of `"*"` accepts any value. Other parts are allowed.
    ///
    /// ```swift
    /// MockRoute.post("/photos", .status(201)).matching(.multipartFields(["caption": "*", "album": "Holiday"]))
    /// ```
    public static func multipartFields(_ fields: [String: String]) -> MockMatcher {
        MockMatcher("multipart fields " + describing(fields)) { request in
            guard let parts = request.parts else { return "its body is not a multipart form" }
            let sent = parts.compactMap { part in part.fileName == nil ? part.name.map { ($0, part.text ?? "") } : nil }
            return mismatch(of: fields, in: Dictionary(sent, uniquingKeysWith: { _, last in last }), named: "form")
        }
    }

    /// The body is a `multipart/form-data` form with a part named `name` whose file name, content
    /// type and content equal those given; an argument left `nil` accepts anything.
    ///
    /// ```swift
    /// MockRoute.post("/photos", .status(201))
    ///     .matching(.multipartPart(named: "photo", fileName: "bay.jpg", contentType: "image/jpeg"))
    /// ```
    public static func multipartPart(
        named name: String,
        fileName: String? = nil,
        contentType: String? = nil,
        body: Data? = nil
    ) -> MockMatcher {
        var label = "multipart part \(name)"
        if let fileName { label += " file \(fileName)" }
        if let contentType { label += " of type \(contentType)" }
        if let body { label += " of \(body.count) bytes" }
        return MockMatcher(label) { request in
            guard let parts = request.parts else { return "its body is not a multipart form" }
            guard let part = parts.first(where: { $0.name == name }) else { return "its form has no part \(name)" }
            if let fileName, part.fileName != fileName { return "its part \(name) has file name \(part.fileName ?? "none")" }
            if let contentType, part.contentType != contentType { return "its part \(name) has type \(part.contentType ?? "none")" }
            if let body, part.body != body { return "its part \(name) has other content (\(part.body.count) bytes)" }
            return nil
        }
    }
}
