import Foundation

/// A JSON value that compares by meaning: object key order and number spelling (`1`, `1.0`) do
/// not matter. Body matchers parse both sides into it.
enum MockJSON: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([MockJSON])
    case object([String: MockJSON])

    /// `data` parsed as JSON, or nil when it is not JSON.
    init?(parsing data: Data) {
        guard let value = try? JSONDecoder().decode(MockJSON.self, from: data) else { return nil }
        self = value
    }

    /// `value` as JSON, or nil when it cannot be encoded.
    init?(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        self.init(parsing: data)
    }

    /// Where `self` fails to contain `expected`, as a JSON path and a reason; nil when it does.
    ///
    /// An object contains another when it has each of its keys with a containing value; an array
    /// contains another of the same length whose elements it contains in order; anything else
    /// must be equal.
    func missing(_ expected: MockJSON, at path: String = "$") -> String? {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            for key in wanted.keys.sorted() {
                guard let value = actual[key] else { return "\(path).\(key) is absent" }
                if let reason = value.missing(wanted[key] ?? .null, at: "\(path).\(key)") { return reason }
            }
            return nil
        case (.array(let actual), .array(let wanted)):
            guard actual.count == wanted.count else { return "\(path) has \(actual.count) elements, not \(wanted.count)" }
            for (index, pair) in zip(actual, wanted).enumerated() {
                if let reason = pair.0.missing(pair.1, at: "\(path)[\(index)]") { return reason }
            }
            return nil
        default:
            return self == expected ? nil : "\(path) is \(self), not \(expected)"
        }
    }

    /// Compact JSON text, keys sorted, cut to 80 characters.
    var description: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let flag): text = String(flag)
        case .number(let number): text = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let string): text = "\"" + string + "\""
        case .array(let items): text = "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let fields): text = "{" + fields.keys.sorted().map { "\"\($0)\":\(fields[$0] ?? .null)" }.joined(separator: ",") + "}"
        }
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}

extension MockJSON: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let items = try? container.decode([MockJSON].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: MockJSON].self))
        }
    }
}
