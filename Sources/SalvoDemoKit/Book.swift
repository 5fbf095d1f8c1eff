/// A book in the demo catalogue.
public struct Book: Codable, Sendable, Hashable, Identifiable {
    /// The catalogue id.
    public let id: Int
    /// The title.
    public let title: String
    /// The author.
    public let author: String
    /// The year of first publication (negative for BCE).
    public let year: Int
}

/// One page of books, as the catalogue sends it.
public struct BookPage: Codable, Sendable, Hashable {
    /// The books on this page.
    public let items: [Book]
    /// The page number, from 1.
    public let page: Int
    /// How many pages there are in all.
    public let totalPages: Int

    enum CodingKeys: String, CodingKey {
        case items, page
        case totalPages = "total_pages"
    }
}

/// A list of books without paging (search results, favourites).
public struct BookList: Codable, Sendable, Hashable {
    /// The books.
    public let items: [Book]
}

/// The catalogue's error body: `{"message": "..."}`.
public struct CatalogProblem: Decodable, Sendable, Hashable {
    /// What went wrong, in words for a person.
    public let message: String
}
