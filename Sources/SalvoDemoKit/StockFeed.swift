import Foundation
import Salvo

/// What the app sends when it opens the stock feed: the books whose changes it wants.
public struct FeedSubscription: Codable, Sendable, Hashable {
    /// The books to follow, by id.
    public let books: [Int]

    /// A subscription to `books`.
    public init(books: [Int]) {
        self.books = books
    }
}

extension MockWebSocketServer {
    /// The catalogue's stock feed, scripted: it waits for the app's ``FeedSubscription``, sends a
    /// ``CatalogUpdate`` for each book it follows every `interval` seconds (on the server's clock),
    /// then closes with 1000, "feed over". A book the feed does not know is answered with a close
    /// of 4004 naming it.
    ///
    /// - Parameter interval: seconds between updates.
    /// - Returns: the mock server, for `WebSocketTransport.mock(_:)`.
    public static func stockFeed(interval: TimeInterval = 0.25) -> MockWebSocketServer {
        MockWebSocketServer { peer in
            guard let first = await peer.receive() else { return }
            let subscription = try first.decode(FeedSubscription.self)
            for id in subscription.books {
                guard let update = StockFeedScript.updates[id] else {
                    await peer.close(WebSocketClose.Code(rawValue: 4004), reason: "no book \(id) in the feed")
                    return
                }
                try await peer.sleep(for: interval)
                try await peer.send(json: update)
            }
            await peer.close(.normalClosure, reason: "feed over")
        }
    }
}

/// The changes the scripted feed sends, by book id (titles as in the demo's fixtures).
private enum StockFeedScript {
    static let updates: [Int: CatalogUpdate] = [
        1: CatalogUpdate(id: 1, title: "Pride and Prejudice", inStock: nil, price: 6.49),
        8: CatalogUpdate(id: 8, title: "Anna Karenina", inStock: true, price: nil),
        19: CatalogUpdate(id: 19, title: "Treasure Island", inStock: false, price: nil),
    ]
}
