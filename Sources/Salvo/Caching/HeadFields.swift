import Foundation

/// The header fields a response stored on a miss keeps of the network's head, read only when
/// something needs them all: a hit, a `304`'s merge, the disk store's write.
///
/// A miss decides on a few fields (`Cache-Control`, `Expires`, `Vary`, `Date`, `Age`) and looks
/// up only those. Reading every field of a Foundation response means `allHeaderFields`, which on
/// Linux copies the whole dictionary into `[AnyHashable: Any]` and casts each name and value
/// back: ~16k instructions, more than a third of what the cache added to a miss (benchmark 13e),
/// and a stored response that is never asked for again never needs them.
///
/// What it keeps is what ``HTTPCache`` stores of a head (``CachedResponse/kept(_:hiding:)``):
/// every field but the unstored ones, those its `Connection` names and those the redaction hides,
/// in the order they arrived.
///
/// A struct over one lock: copies share what was read, and a miss allocates once for it.
struct HeadFields: Sendable {
    /// The head until its fields are read, then the fields kept: the head (and the Foundation
    /// response it holds) is let go once they are. An unread head remembers the names its
    /// `Connection` field lists once a lookup needed them.
    private enum State: Sendable {
        case unread(ResponseHead, connectionOptions: Set<String>?)
        case read([HTTPHeaders.Field])
    }

    /// Lowercased names of the fields the redaction hides.
    private let hidden: Set<String>
    private let state: Locked<State>

    /// The fields of `head` a stored response keeps, hiding those named in `hidden` (lowercased).
    init(_ head: ResponseHead, hiding hidden: Set<String>) {
        self.hidden = hidden
        state = Locked(.unread(head, connectionOptions: nil))
    }

    /// The kept fields, read from the head the first time.
    var fields: [HTTPHeaders.Field] {
        let head: ResponseHead
        switch state.withLock({ $0 }) {
        case .read(let fields): return fields
        case .unread(let unread, _): head = unread
        }
        // Read outside the lock (it is the slow part); the first reading kept wins.
        let kept = CachedResponse.kept(head.fieldsAsSent, hiding: hidden)
        return state.withLock { state in
            if case .read(let fields) = state { return fields }
            state = .read(kept)
            return kept
        }
    }

    /// The value of the kept field `name`, in any case, without reading the others; repeated
    /// fields joined with `", "`.
    func value(forField name: String) -> String? {
        guard CachedResponse.keeps(name, hiding: hidden) else { return nil }
        let head: ResponseHead
        let known: Set<String>?
        switch state.withLock({ $0 }) {
        case .read(let fields): return ResponseHead.value(of: name, in: fields)
        case .unread(let unread, let options): (head, known) = (unread, options)
        }
        guard let value = head.value(forField: name) else { return nil }
        // The rare fields a present one may still be dropped for: looked up once a field is found.
        let options = known ?? connectionOptions(of: head)
        if !options.isEmpty, options.contains(name.lowercased()) { return nil }
        if HTTPHeaders.namesMatch(name, "Content-Length"), head.value(forField: "Content-Encoding") != nil { return nil }
        return value
    }

    /// The names `head`'s `Connection` field lists, kept for the next lookup.
    private func connectionOptions(of head: ResponseHead) -> Set<String> {
        let options = CachedResponse.connectionOptions(head.value(forField: "Connection"))
        state.withLock { state in
            if case .unread(let unread, nil) = state { state = .unread(unread, connectionOptions: options) }
        }
        return options
    }

    /// About how many bytes the fields take: counted when they are known (a transport's parsed
    /// fields, or once read), ``unreadByteCount`` for a Foundation response's unread ones.
    var byteCount: Int {
        switch state.withLock({ $0 }) {
        case .read(let fields): return CachedResponse.byteCount(of: fields)
        case .unread(let head, _): return head.parsedFields.map(CachedResponse.byteCount) ?? Self.unreadByteCount
        }
    }

    /// What a Foundation response's unread fields are counted as: about what the response holding
    /// them takes on the heap (its field dictionary, MIME type and names), and more than the few
    /// hundred bytes of a typical API response's fields.
    static let unreadByteCount = 1_024
}
