import Foundation

extension RequestBody {
    /// The media type Salvo sends for a file with `fileExtension` (`"jpg"`, `"JSON"`; no dot),
    /// `application/octet-stream` when it does not know the extension.
    ///
    /// A small built-in table of the types apps upload, the same on every platform (Linux has no
    /// `UTType`); pass a content type yourself for anything else.
    ///
    /// ```swift
    /// RequestBody.contentType(forFileExtension: "png")   // "image/png"
    /// ```
    static func contentType(forFileExtension fileExtension: String) -> String {
        knownTypes[fileExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let knownTypes: [String: String] = [
        // Images
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
        "tif": "image/tiff", "tiff": "image/tiff", "bmp": "image/bmp", "svg": "image/svg+xml",
        "ico": "image/vnd.microsoft.icon",
        // Audio and video
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav",
        "ogg": "audio/ogg", "flac": "audio/flac", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm",
        // Documents and text
        "pdf": "application/pdf", "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8",
        "csv": "text/csv; charset=utf-8", "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "json": "application/json", "xml": "application/xml", "rtf": "application/rtf",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        // Archives
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "7z": "application/x-7z-compressed",
    ]
}
