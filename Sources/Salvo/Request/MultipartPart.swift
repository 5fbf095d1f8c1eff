import Foundation

/// One part of a `multipart/form-data` body (RFC 7578): a text field, bytes, or a file on disk.
///
/// ```swift
/// let body = RequestBody.multipart([
///     .field("title", "Holiday"),
///     .file(photoURL, name: "photo"),                  // "photo.jpg", image/jpeg
///     .data(thumbnail, name: "thumb", fileName: "thumb.png", contentType: "image/png"),
/// ])
/// ```
///
/// Names and file names are sent as UTF-8 between quotes; `"`, CR and LF in them become `%22`,
/// `%0D` and `%0A`, as browsers send them. A file part is read from disk while the body is sent,
/// never loaded into memory whole.
public struct MultipartPart: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case bytes(Data)
        case file(URL)
    }

    /// The field name (the `name` parameter of `Content-Disposition`).
    let name: String
    /// The file name the server sees, if the part is a file.
    let fileName: String?
    /// The part's `Content-Type`; `nil` sends none (a text field).
    let contentType: String?
    let content: Content

    /// A text field, sent as its UTF-8 bytes with no `Content-Type` (read as `text/plain`).
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the text.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, fileName: nil, contentType: nil, content: .bytes(Data(value.utf8)))
    }

    /// Bytes in memory, with an optional file name.
    ///
    /// - Parameters:
    ///   - data: the bytes.
    ///   - name: the field name.
    ///   - fileName: the file name the server sees; `nil` sends none.
    ///   - contentType: the part's `Content-Type`.
    public static func data(
        _ data: Data,
        name: String,
        fileName: String? = nil,
        contentType: String = "application/octet-stream"
    ) -> MultipartPart {
        MultipartPart(name: name, fileName: fileName, contentType: contentType, content: .bytes(data))
    }

    /// A file on disk, read in pieces while the body is sent.
    ///
    /// The file must exist and be readable when the call's request is built and when it is sent;
    /// otherwise the call fails with ``NetworkError/invalidRequest(_:)`` naming it.
    ///
    /// - Parameters:
    ///   - url: a `file:` URL.
    ///   - name: the field name.
    ///   - fileName: the file name the server sees; the URL's last path component by default.
    ///   - contentType: the part's `Content-Type`; by default inferred from the file name's
    ///     extension (a small built-in table of common extensions).
    public static func file(
        _ url: URL,
        name: String,
        fileName: String? = nil,
        contentType: String? = nil
    ) -> MultipartPart {
        let sentName = fileName ?? url.lastPathComponent
        return MultipartPart(
            name: name,
            fileName: sentName,
            contentType: contentType ?? RequestBody.contentType(forFileExtension: (sentName as NSString).pathExtension),
            content: .file(url)
        )
    }

    /// The part's headers as sent: `Content-Disposition`, then `Content-Type` when there is one.
    var headerBlock: String {
        var disposition = "Content-Disposition: form-data; name=\"\(Self.escapedParameter(name))\""
        if let fileName {
            disposition += "; filename=\"\(Self.escapedParameter(fileName))\""
        }
        var block = disposition + "\r\n"
        if let contentType {
            block += "Content-Type: \(contentType)\r\n"
        }
        return block + "\r\n"
    }

    /// A name or file name as the WHATWG multipart/form-data encoding writes it between quotes:
    /// `"` as `%22`, CR as `%0D`, LF as `%0A`, everything else (non-ASCII too) as UTF-8.
    static func escapedParameter(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return value }
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
