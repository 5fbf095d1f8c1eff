/// One list item as the fake and loopback servers send it.
struct ListItem: Codable, Sendable, Hashable, Identifiable {
    let id: Int
    let name: String
}
