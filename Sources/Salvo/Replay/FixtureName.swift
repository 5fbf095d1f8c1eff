import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How recorded fixtures are named and matched: `<METHOD>_<path>_<hash>.json`.
///
/// `<path>` is the URL path's segments joined by `-` with anything but letters, digits, `.` and
/// `_` replaced by `_` (cut to 80 characters, `root` when empty). `<hash>` is the first 12 hex
/// digits of an FNV-1a 64 hash of the match key: method, redacted URL (origin included unless
/// ``FixtureOptions/matchesOrigin`` is off) and, when ``FixtureOptions/matchesBody`` is on,
/// the hash of the redacted body. The same request always gets the same name, on every platform.
package enum FixtureName {
    /// The match key of `request`, e.g. `GET http://127.0.0.1:8080/users/42?page=2`.
    package static func key(for request: URLRequest, options: FixtureOptions) -> String {
        let method = (request.httpMethod ?? "GET").uppercased()
        var key = method + " " + matchURL(request.url, options: options)
        if options.matchesBody, let hash = bodyHash(of: request, redaction: options.redaction) {
            key += " body=" + hash
        }
        return key
    }

    /// The URL as fixtures compare it: redacted, and without scheme, host and port when origins are ignored.
    package static func matchURL(_ url: URL?, options: FixtureOptions) -> String {
        guard let url else { return "" }
        let redacted = options.redaction.redact(url)
        guard !options.matchesOrigin,
              let components = URLComponents(url: redacted, resolvingAgainstBaseURL: false) else {
            return redacted.absoluteString
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// The file name for `request`.
    package static func fileName(for request: URLRequest, options: FixtureOptions) -> String {
        let method = String((request.httpMethod ?? "GET").uppercased().map(safe))
        let segments = MockPathSegment.split(request.url.map(MockRoutes.percentEncodedPath(of:)) ?? "")
            .map { segment in
                let decoded = segment.utf8.contains(UInt8(ascii: "%")) ? segment.removingPercentEncoding ?? segment : segment
                return String(decoded.map(safe))
            }
        let path = segments.isEmpty ? "root" : String(segments.joined(separator: "-").prefix(80))
        let hash = String(hex(fnv1a64(Data(key(for: request, options: options).utf8))).prefix(12))
        return "\(method)_\(path)_\(hash).json"
    }

    /// The hash of `request`'s body after `redaction` hides its secret fields, or nil without a body.
    ///
    /// Recording and replay both hash the redacted body, so requests still match, and two requests
    /// that differ only in a password share a fixture.
    package static func bodyHash(of request: URLRequest, redaction: Redaction) -> String? {
        guard let body = request.httpBody, !body.isEmpty else { return nil }
        return bodyHash(redaction.redact(body, contentType: request.value(forHTTPHeaderField: "Content-Type")))
    }

    /// `fnv1a64:<16 hex digits>` for a body.
    package static func bodyHash(_ body: Data) -> String {
        "fnv1a64:" + hex(fnv1a64(body))
    }

    /// FNV-1a, 64 bit: tiny, stable across runs and platforms (unlike `Hasher`); not cryptographic.
    package static func fnv1a64(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func safe(_ character: Character) -> Character {
        character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_") ? character : "_"
    }
}
