import Foundation

/// What a `DecodingError` means, in a phrase a person can act on.
extension DecodingError {
    /// What is wrong and where, e.g. `"user.id" should be a number` or `missing "items"`;
    /// no trailing period, so it can end a sentence.
    var plainReason: String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : "\"" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "\""
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null but should be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            let detail = context.debugDescription.trimmingCharacters(in: .whitespaces)
            let phrase = detail.hasSuffix(".") ? String(detail.dropLast()) : detail
            return context.codingPath.isEmpty ? phrase : "\(path(context.codingPath)): \(phrase)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type, is Float.Type, is Int64.Type, is UInt.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [String: String].Type: return "an object of strings"
        default: return "\(type)"
        }
    }
}
