import Foundation

/// A `multipart/form-data` body (RFC 7578) laid out as segments: each part's delimiter and
/// headers, its content, and the closing delimiter.
///
/// The boundary is random (`salvo-` and 32 hex digits) and checked not to occur in any part held
/// in memory; a file part is not read to check it, and 128 random bits make a match there as
/// unlikely as a hash collision.
struct MultipartForm: Sendable, Hashable {
    let parts: [MultipartPart]
    let boundary: String

    /// The form's `Content-Type`, with its boundary.
    var contentType: String {
        let isToken = boundary.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "'+_-.".unicodeScalars.contains($0) }
        return "multipart/form-data; boundary=" + (isToken ? boundary : "\"\(boundary)\"")
    }

    /// Whether any part is read from a file when the body is sent.
    var hasFileParts: Bool {
        parts.contains { if case .file = $0.content { true } else { false } }
    }

    /// Why a form cannot be sent as asked, in words for ``RequestProblem/reason``.
    struct Refusal: Error {
        let reason: String
    }

    /// A form of `parts` with `boundary`, or a random one; the reason why not when the form cannot
    /// be sent as asked.
    static func make(_ parts: [MultipartPart], boundary: String?) -> Result<MultipartForm, Refusal> {
        for part in parts {
            if let reason = problem(in: part) { return .failure(Refusal(reason: reason)) }
        }
        guard let boundary else {
            var random = SystemRandomNumberGenerator()
            // Regenerated on a match, which 128 random bits make all but impossible.
            while true {
                let candidate = "salvo-" + String(random.next(), radix: 16).leftPadded(to: 16) + String(random.next(), radix: 16).leftPadded(to: 16)
                if !occurs(candidate, inMemoryPartsOf: parts) {
                    return .success(MultipartForm(parts: parts, boundary: candidate))
                }
            }
        }
        if let reason = problem(withBoundary: boundary) {
            return .failure(Refusal(reason: reason))
        }
        guard !occurs(boundary, inMemoryPartsOf: parts) else {
            return .failure(Refusal(reason: "the multipart boundary \"\(boundary)\" occurs in a part's content; leave the boundary out for a random one"))
        }
        return .success(MultipartForm(parts: parts, boundary: boundary))
    }

    /// The body as segments, files sized from the file system (not read).
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming a file part that is missing, a
    ///   directory or unreadable.
    func segments() throws(NetworkError) -> [BodySegment] {
        var segments: [BodySegment] = []
        var pending = Data()
        for part in parts {
            pending.append(contentsOf: "--\(boundary)\r\n".utf8)
            pending.append(contentsOf: part.headerBlock.utf8)
            switch part.content {
            case .bytes(let data):
                pending.append(data)
            case .file(let url):
                let file = try BodySegment.file(checking: url)
                segments.append(.bytes(pending))
                segments.append(file)
                pending = Data()
            }
            pending.append(contentsOf: "\r\n".utf8)
        }
        pending.append(contentsOf: "--\(boundary)--\r\n".utf8)
        segments.append(.bytes(pending))
        return segments
    }

    /// The whole body, for a form without file parts.
    var encoded: Data {
        var data = Data()
        // A form without file parts has one bytes segment and throws nothing.
        for case .bytes(let bytes) in (try? segments()) ?? [] {
            data.append(bytes)
        }
        return data
    }

    /// A part whose content type or names could not be sent as they are.
    private static func problem(in part: MultipartPart) -> String? {
        if let contentType = part.contentType,
           contentType.isEmpty || contentType.breaksHeaderLine {
            return "the Content-Type of multipart part \"\(escaped(part.name))\" is empty or contains a line break or NUL: \"\(escaped(contentType))\""
        }
        if part.name.utf8.contains(0) || part.fileName?.utf8.contains(0) == true {
            return "multipart part \"\(escaped(part.name))\" has a NUL in its name or file name"
        }
        return nil
    }

    /// Why `boundary` is not an RFC 2046 boundary: 1–70 of its characters, not ending in a space.
    private static func problem(withBoundary boundary: String) -> String? {
        let allowed = "'()+_,-./:=? "
        let isValid = (1...70).contains(boundary.utf8.count) && !boundary.hasSuffix(" ")
            && boundary.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || allowed.unicodeScalars.contains($0)) }
        return isValid ? nil : "the multipart boundary \"\(escaped(boundary))\" must be 1–70 ASCII letters, digits or '()+_,-./:=? (RFC 2046), not ending in a space"
    }

    private static func occurs(_ boundary: String, inMemoryPartsOf parts: [MultipartPart]) -> Bool {
        let needle = Data(boundary.utf8)
        return parts.contains { part in
            if part.headerBlock.contains(boundary) { return true }
            guard case .bytes(let data) = part.content else { return false }
            return data.range(of: needle) != nil
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
