import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// Ready-made conditions on what a request carries, for tests that check what the app sends.
///
/// ```swift
/// MockRoute.post("/login", .json(token)).matching(.jsonBody(containing: ["user": "ada"]), .header("X-Client"))
/// MockRoute.post("/search", .json(hits)).matching(.formBody(["q": "*"]))
/// ```
extension MockMatcher {
    /// The header `name` is present, with any value.
    public static func header(_ name: String) -> MockMatcher {
        MockMatcher("header \(name)") { $0.header(name) == nil ? "it has no \(name) header" : nil }
    }

    /// The header `name` equals `value` exactly.
    public static func header(_ name: String, _ value: String) -> MockMatcher {
        MockMatcher("header \(name): \(value)") { request in
            guard let actual = request.header(name) else { return "it has no \(name) header" }
            return actual == value ? nil : "its \(name) is \"\(actual)\""
        }
    }

    /// The query has each item of `items`; a value of `"*"` accepts any value.
    public static func query(containing items: [String: String]) -> MockMatcher {
        MockMatcher("query " + describing(items)) { request in
            mismatch(of: items, in: request.query, named: "query")
        }
    }

    /// The body is JSON equal to `value` encoded (key order and number spelling aside).
    ///
    /// `value` is encoded here, where the matcher is made, so its type need not be `Sendable`.
    public static func jsonBody(_ value: some Encodable) -> MockMatcher {
        json(value, containing: false)
    }

    /// The body is JSON containing `value` encoded: every key of an object, at any depth, with a
    /// containing value; arrays element by element. Extra keys in the body are allowed.
    public static func jsonBody(containing value: some Encodable) -> MockMatcher {
        json(value, containing: true)
    }

    private static func json(_ value: some Encodable, containing: Bool) -> MockMatcher {
        let expected = MockJSON(encoding: value)
        let typeName = String(describing: type(of: value))
        let label = containing ? "JSON body containing" : "JSON body"
        return MockMatcher("\(label) \(expected?.description ?? "<not encodable>")") { request in
            guard let expected else { return "the expected value of type \(typeName) cannot be encoded as JSON" }
            guard let body = request.body, !body.isEmpty else { return "it has no body" }
            guard let actual = MockJSON(parsing: body) else { return "its body is not JSON" }
            if containing { return actual.missing(expected) }
            return actual == expected ? nil : "its body is \(actual)"
        }
    }

    /// The body is a form (`a=1&b=2`) with each field of `fields`; a value of `"*"` accepts any value.
    public static func formBody(_ fields: [String: String]) -> MockMatcher {
        MockMatcher("form body " + describing(fields)) { request in
            guard let body = request.body, let text = String(data: body, encoding: .utf8), !text.isEmpty else { return "it has no form body" }
            let pairs = FormField.fields(in: Substring(text), omittingEmpty: true).map { ($0.name, $0.value ?? "") }
            return mismatch(of: fields, in: Dictionary(pairs, uniquingKeysWith: { _, last in last }), named: "form")
        }
    }

    /// `a=1&b=2`, names sorted, for a matcher's description.
    static func describing(_ fields: [String: String]) -> String {
        fields.keys.sorted().map { "\($0)=\(fields[$0] ?? "")" }.joined(separator: "&")
    }

    /// Why `actual` (the request's query or form, called `noun`) lacks one of `expected`'s fields,
    /// first by name; `nil` when it has them all. A value of `"*"` accepts any value.
    static func mismatch(of expected: [String: String], in actual: [String: String], named noun: String) -> String? {
        for name in expected.keys.sorted() {
            guard let value = actual[name] else { return "its \(noun) has no \(name)" }
            if let wanted = expected[name], wanted != "*", wanted != value { return "its \(noun) has \(name)=\(value)" }
        }
        return nil
    }

    /// The body's bytes equal `data`.
    public static func body(_ data: Data) -> MockMatcher {
        MockMatcher("body of \(data.count) bytes") { request in
            request.body ?? Data() == data ? nil : "its body differs (\(request.body?.count ?? 0) bytes)"
        }
    }
}
