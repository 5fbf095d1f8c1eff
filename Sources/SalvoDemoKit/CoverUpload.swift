import Foundation

/// What the catalogue says about a cover it received.
public struct CoverUpload: Codable, Sendable, Hashable {
    /// The book the cover belongs to.
    public let id: Int
    /// The caption sent with it.
    public let caption: String
    /// The image's file name, as the form named it.
    public let fileName: String
    /// The image's content type, as the form named it.
    public let contentType: String
    /// How many bytes of image arrived.
    public let bytes: Int
}
