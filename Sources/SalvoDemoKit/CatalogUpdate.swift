import Foundation

/// A change to one book, from the catalogue's live updates.
public struct CatalogUpdate: Codable, Sendable, Hashable {
    /// The book that changed.
    public let id: Int
    /// Its title.
    public let title: String
    /// Whether it is in stock, when that is what changed.
    public let inStock: Bool?
    /// Its new price, when that is what changed.
    public let price: Double?

    /// The change in a few words: "back in stock", "out of stock", "now 7.99".
    public var summary: String {
        if let price { return "now \(String(format: "%.2f", price))" }
        if let inStock { return inStock ? "back in stock" : "out of stock" }
        return "changed"
    }
}
