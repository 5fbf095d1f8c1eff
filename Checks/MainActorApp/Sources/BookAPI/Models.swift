/// A book, as the app declares its models: plain `Codable`, so its conformances are main-actor isolated.
public struct Book: Codable, Identifiable, Equatable {
    public var id: Int
    public var title: String
    public var pageCount: Int

    public init(id: Int, title: String, pageCount: Int) {
        self.id = id
        self.title = title
        self.pageCount = pageCount
    }
}

/// What the API answers with when it refuses a request.
public struct APIProblem: Codable, Equatable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}

/// A progress event the API streams while it imports a book.
public struct ImportProgress: Codable, Equatable {
    public var percent: Int

    public init(percent: Int) {
        self.percent = percent
    }
}
