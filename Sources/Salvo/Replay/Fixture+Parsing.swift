import Foundation

extension Fixture {
    /// The fixture in `data`, read through `JSONSerialization`, or nil when the file is not a
    /// well-formed fixture, so that `JSONDecoder` can say exactly what is wrong.
    ///
    /// Replay reads every fixture it answers with; on Linux `JSONDecoder` takes about three times
    /// as long as `JSONSerialization` for a fixture (benchmark 7 in Docs/Performance.md). Fields
    /// are read with the decoder's rules: required ones must be present with their type, optional
    /// ones may be absent or `null`, but not of another type.
    package init?(parsing data: Data) {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let version = Self.int(root["version"]),
              let request = root["request"] as? [String: Any],
              let response = root["response"] as? [String: Any],
              let method = request["method"] as? String,
              let url = request["url"] as? String,
              let requestHeaders = request["headers"] as? [String: String],
              case .some(let bodyHash) = Self.optionalString(request["bodyHash"]),
              let status = Self.int(response["status"]),
              let responseHeaders = response["headers"] as? [String: String],
              case .some(let responseURL) = Self.optionalString(response["url"]),
              case .some(let recordedAt) = Self.optionalString(root["recordedAt"]) else {
            return nil
        }
        var body: Body?
        if let rawBody = response["body"], !(rawBody is NSNull) {
            guard let fields = rawBody as? [String: Any],
                  case .some(let text) = Self.optionalString(fields["text"]),
                  case .some(let base64) = Self.optionalString(fields["base64"]) else { return nil }
            body = Body(text: text, base64: base64)
        }
        var chunks: [Chunk]?
        if let rawChunks = response["chunks"], !(rawChunks is NSNull) {
            guard let list = rawChunks as? [[String: Any]] else { return nil }
            var parsed: [Chunk] = []
            parsed.reserveCapacity(list.count)
            for fields in list {
                guard let bytes = Self.int(fields["bytes"]), let ms = Self.int(fields["ms"]) else { return nil }
                parsed.append(Chunk(bytes: bytes, ms: ms))
            }
            chunks = parsed
        }
        self.init(
            version: version,
            request: Request(method: method, url: url, headers: requestHeaders, bodyHash: bodyHash),
            response: Response(status: status, headers: responseHeaders, body: body, url: responseURL, chunks: chunks),
            recordedAt: recordedAt
        )
    }

    /// A whole number, as `JSONDecoder` would decode an `Int` (no fraction, no Boolean).
    private static func int(_ value: Any?) -> Int? {
        // `is Bool` holds for any NSNumber of 0 or 1; a JSON Boolean is the one whose type is `char`.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
              let int = Int(exactly: number.doubleValue) else { return nil }
        return int
    }

    /// `.some(nil)` when absent or `null`, `.some(text)` for a string, nil for another type.
    private static func optionalString(_ value: Any?) -> String?? {
        switch value {
        case nil, is NSNull: return .some(nil)
        case let text as String: return .some(text)
        default: return nil
        }
    }
}
