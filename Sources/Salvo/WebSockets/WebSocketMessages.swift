import Foundation

/// The messages a ``WebSocketConnection`` receives, in order, as an `AsyncSequence` that throws
/// ``NetworkError``. Read it once; leaving the loop or cancelling its task closes the connection
/// with 1000, and the loop then throws ``NetworkError/cancelled`` if the task was cancelled.
/// While ``WebSocketCall/maximumUnreadMessages`` messages wait unread, the connection stops
/// reading from the peer (backpressure), so a slow loop holds a bounded number of messages.
///
/// ```swift
/// for try await message in connection.messages {
///     if case .text(let line) = message { lines.append(line) }
/// }
/// ```
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A whole message.
    public typealias Element = WebSocketMessage
    /// What the loop throws.
    public typealias Failure = NetworkError

    private let inbox: WebSocketInbox

    init(_ inbox: WebSocketInbox) {
        self.inbox = inbox
    }

    /// An iterator over the messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reading: WebSocketInbox.Reading(inbox))
    }

    /// Hands out the messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        let reading: WebSocketInbox.Reading

        /// The next message, `nil` once the connection closed.
        public mutating func next() async throws(NetworkError) -> WebSocketMessage? {
            try await next(isolation: nil)
        }

        /// The next message, read in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> WebSocketMessage? {
            do {
                guard let message = try await reading.inbox.next() else {
                    if Task.isCancelled { throw NetworkError.cancelled }
                    return nil
                }
                return message
            } catch {
                throw NetworkError(error)
            }
        }
    }
}

/// The messages a connection's reader has handed to the app and the app has not read yet, in
/// order: the reader waits in ``yield(_:)`` while `limit` wait unread, until the app reads one or
/// stops reading (``release()``). It replaces an `AsyncThrowingStream` plus a counter: this type is
/// not generic, so a message handed over costs no run-time metadata lookups, and a reader that
/// need not wait takes the lock once and no continuation (see Docs/Performance.md, 2026-11-28).
final class WebSocketInbox: Sendable {
    fileprivate enum End {
        case finished
        case failed(any Error)
        case cancelled
    }

    fileprivate struct State {
        var unread: [WebSocketMessage] = []
        var end: End?
        var isReleased = false
        var app: UnsafeContinuation<WebSocketMessage?, any Error>?
        var reader: UnsafeContinuation<Void, Never>?
        var onCancel: (@Sendable () -> Void)?
    }

    /// Ends the messages (cancelled) when the last copy of the app's iterator goes away, as an
    /// `AsyncThrowingStream`'s iterator does.
    final class Reading: Sendable {
        let inbox: WebSocketInbox

        init(_ inbox: WebSocketInbox) {
            self.inbox = inbox
        }

        deinit {
            inbox.cancel()
        }
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once if the app stops reading (its task cancelled, or its iterator dropped)
    /// before the messages end.
    func onCancel(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = body }
    }

    /// Whether the app's loop waits for a message.
    var isAppWaiting: Bool { state.withLock { $0.app != nil } }

    /// Hands a message to the app: waits while `limit` are unread. Dropped once the messages ended.
    func yield(_ message: WebSocketMessage) async {
        let handed = state.withLock { state -> Handed in
            guard state.end == nil else { return .dropped }
            if let app = state.app {
                state.app = nil
                return .toApp(app)
            }
            state.unread.append(message)
            return state.hasRoom(limit) ? .kept : .full
        }
        switch handed {
        case .toApp(let app): app.resume(returning: message)
        case .full: await waitForRoom()
        case .kept, .dropped: return
        }
    }

    private enum Handed {
        case toApp(UnsafeContinuation<WebSocketMessage?, any Error>)
        case kept, full, dropped
    }

    private func waitForRoom() async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (reader: UnsafeContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    guard !state.hasRoom(limit), !Task.isCancelled else { return false }
                    state.reader = reader
                    return true
                }
                if !waits { reader.resume() }
            }
        } onCancel: {
            state.withLock { $0.takeReader() }?.resume()
        }
    }

    /// The next message for the app, `nil` once the messages ended or the app stopped reading.
    func next() async throws -> WebSocketMessage? {
        switch state.withLock({ $0.take(limit) }) {
        case .message(let message, let reader):
            reader?.resume()
            return message
        case .ended(let error):
            if let error { throw error }
            return nil
        case .empty:
            break
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (app: UnsafeContinuation<WebSocketMessage?, any Error>) in
                let taken = state.withLock { state -> State.Taken in
                    let taken = state.take(limit)
                    guard case .empty = taken, !Task.isCancelled else { return taken }
                    // A second loop over the same messages ends at once rather than stealing the first one's.
                    if state.app == nil { state.app = app } else { return .ended(nil) }
                    return .empty
                }
                switch taken {
                case .message(let message, let reader):
                    reader?.resume()
                    app.resume(returning: message)
                case .ended(let error?):
                    app.resume(throwing: error)
                case .ended(nil):
                    app.resume(returning: nil)
                case .empty where Task.isCancelled:
                    app.resume(returning: nil)
                    cancel()
                case .empty:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Nobody reads any more (the app closed, left the loop, or the messages ended): never wait again.
    func release() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.isReleased = true
            return state.takeReader()
        }?.resume()
    }

    /// Ends the messages after those unread: with `error` thrown to the app, or normally.
    func finish(throwing error: (any Error)? = nil) {
        let (app, reader) = state.withLock { state -> (UnsafeContinuation<WebSocketMessage?, any Error>?, UnsafeContinuation<Void, Never>?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = error.map { .failed($0) } ?? .finished
            state.isReleased = true
            state.onCancel = nil
            guard let app = state.app else { return (nil, state.takeReader()) }
            // The app waits only when nothing is unread: it takes the end now.
            state.app = nil
            state.end = .finished
            return (app, state.takeReader())
        }
        reader?.resume()
        if let error { app?.resume(throwing: error) } else { app?.resume(returning: nil) }
    }

    /// The app stopped reading: the messages end, and `onCancel` runs if they had not ended.
    func cancel() {
        let (app, reader, onCancel) = state.withLock { state -> (UnsafeContinuation<WebSocketMessage?, any Error>?, UnsafeContinuation<Void, Never>?, (@Sendable () -> Void)?) in
            guard state.end == nil else { return (nil, nil, nil) }
            state.end = .cancelled
            state.isReleased = true
            state.unread.removeAll()
            defer {
                state.app = nil
                state.onCancel = nil
            }
            return (state.app, state.takeReader(), state.onCancel)
        }
        reader?.resume()
        app?.resume(returning: nil)
        onCancel?()
    }
}

extension WebSocketInbox.State {
    enum Taken {
        case message(WebSocketMessage, reader: UnsafeContinuation<Void, Never>?)
        case ended((any Error)?)
        case empty
    }

    func hasRoom(_ limit: Int) -> Bool {
        isReleased || end != nil || unread.count < limit
    }

    mutating func takeReader() -> UnsafeContinuation<Void, Never>? {
        defer { reader = nil }
        return reader
    }

    /// The first unread message and the reader to wake if that made room; or the end, once.
    mutating func take(_ limit: Int) -> Taken {
        if !unread.isEmpty {
            let message = unread.removeFirst()
            return .message(message, reader: hasRoom(limit) ? takeReader() : nil)
        }
        switch end {
        case .failed(let error)?:
            end = .finished
            return .ended(error)
        case .finished?, .cancelled?:
            return .ended(nil)
        case nil:
            return .empty
        }
    }
}

/// A connection's messages decoded as JSON, one value per message, decoded where the loop runs so
/// `Value` need not be `Sendable`. A message that does not decode ends the loop with
/// ``NetworkError/decoding(_:)`` carrying its bytes; the connection stays open until you close it.
///
/// ```swift
/// for try await quote in connection.messages(decoding: Quote.self) { board.update(quote) }
/// ```
public struct WebSocketDecodedMessages<Value: Decodable>: AsyncSequence {
    /// One decoded message.
    public typealias Element = Value
    /// What the loop throws.
    public typealias Failure = NetworkError

    let messages: WebSocketMessages
    let decoder: JSONDecoder

    /// An iterator over the decoded messages.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: messages.makeAsyncIterator(), decoder: decoder)
    }

    /// Hands out the decoded values one by one.
    public struct Iterator: AsyncIteratorProtocol {
        var base: WebSocketMessages.Iterator
        let decoder: JSONDecoder

        /// The next value, `nil` once the connection closed.
        public mutating func next() async throws(NetworkError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next value, decoded in `actor`'s isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
            guard let message = try await base.next(isolation: actor) else { return nil }
            return try message.decode(Value.self, using: decoder)
        }
    }
}

extension WebSocketConnection {
    /// The messages decoded as JSON, each as one `Value`, in the caller's isolation.
    ///
    /// - Parameters:
    ///   - type: the type every message holds.
    ///   - decoder: the decoder; the server's `decoder` unless given.
    /// - Returns: the decoded messages; the same single reading of ``messages``.
    public func messages<Value: Decodable>(decoding type: Value.Type, using decoder: JSONDecoder? = nil) -> WebSocketDecodedMessages<Value> {
        WebSocketDecodedMessages(messages: messages, decoder: decoder ?? serverDecoder)
    }
}
