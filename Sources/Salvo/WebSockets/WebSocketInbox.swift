import Foundation

/// The messages a connection has read for the app and the app has not read yet, in order; and who
/// reads the connection's channel: the connection's reader task, or the app's loop itself.
///
/// The reader reads ahead: it hands each message over in ``yield(_:from:)`` and waits there while
/// `limit` wait unread, until the app reads one or stops reading (``release()``). Once the app's
/// loop waits on an empty inbox, the reader hands it the message it waited for together with the
/// channel (a ``Source``) and parks: from then on ``next()`` reads the channel in the app's task,
/// without a hop through the reader's (Docs/Performance.md, 2026-11-28, 09:45). Whatever is not a
/// message within the limit (the peer's close, a message over the limit, the end, an error) goes
/// back to the reader with the channel, and so does the channel when the app closes or stops
/// reading, or leaves it unread for half a second (then the reader reads ahead again): the closing
/// handshake, the 1009 close, reconnection and `resubscribe` run on the reader's task, never on
/// the app's. Not generic, so a message handed over costs no run-time metadata lookups; one lock
/// per message the reader hands over, two per message the loop reads.
final class WebSocketInbox: Sendable {
    /// One channel's frames and the limit on a message, read by one task at a time: the reader's
    /// or the app's, handed between them through the inbox.
    final class Source: @unchecked Sendable {
        // Safe: `hasDelivered` is used only by the task holding the source, and the source passes
        // between the reader and the app's loop only through the inbox's lock, which orders one
        // holder's accesses before the next one's.
        /// The channel's next frame, `nil` once it ended.
        let next: @Sendable () async throws -> WebSocketFrame?
        /// The largest message the app's loop takes itself; a larger one goes to the reader (1009).
        let maximumMessageSize: Int
        /// Whether a message was read from the channel (a reconnection then counts no failure).
        var hasDelivered = false

        init(_ channel: WebSocketChannel, maximumMessageSize: Int) {
            next = channel.receive
            self.maximumMessageSize = maximumMessageSize
        }
    }

    /// What the reader does with the channel it gets back.
    enum Resume: Sendable {
        /// Reads on.
        case readOn
        /// First takes what the app's loop read and could not hand out: a close, a message over
        /// the limit, the end (`nil`) or an error.
        case process(Result<WebSocketFrame?, any Error>)
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
    /// before the messages end, before the channel goes back to the reader.
    func onCancel(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = body }
    }

    /// Whether the app's loop waits for a message.
    var isAppWaiting: Bool { state.withLock { $0.app != nil } }

    /// How many times the reader has handed the channel to the app's loop, for tests: a hand-over
    /// can end before a poll of ``isReadByApp`` sees it.
    var handOvers: Int { state.withLock { $0.handOvers } }

    /// Whether the reader has handed the channel to the app's loop: parked for it (`false`), or
    /// read by it now (`true`); `nil` while the reader holds it.
    var isReadByApp: Bool? {
        state.withLock { state in
            guard state.parked != nil else { return nil }
            return state.source == nil
        }
    }

    // MARK: - The reader

    /// Hands a message the reader read from `source` to the app: waits while `limit` are unread;
    /// dropped once the messages ended. When the app's loop waits for it, the loop gets the channel
    /// too and the reader parks until the channel comes back.
    ///
    /// - Returns: what to do next: read on, or first process what the app's loop handed back.
    @discardableResult
    func yield(_ message: WebSocketMessage, from source: Source? = nil) async -> Resume {
        switch state.withLock({ $0.yield(message, from: source, limit: limit) }) {
        case .toApp(let app, let parks):
            app.resume(returning: .message(message))
            if parks {
                let watch = watchWhileParked()
                defer { watch.cancel() }
                return await park()
            }
        case .full:
            await waitForRoom()
        case .kept, .dropped:
            break
        }
        return .readOn
    }

    private func park() async -> Resume {
        await withUnsafeContinuation { (reader: UnsafeContinuation<Resume, Never>) in
            let ready = state.withLock { state -> Resume? in
                guard let resume = state.handedBack else {
                    state.parked = reader
                    return nil
                }
                state.handedBack = nil
                return resume
            }
            if let ready { reader.resume(returning: ready) }
        }
    }

    /// While the reader is parked: takes the channel back once it sat parked, not read, for a whole
    /// ``idleInterval``, so a loop that stops asking for messages (its body busy) has the
    /// connection read ahead again, answering pings and seeing the peer's close, up to `limit`.
    /// One wake-up per interval while parked, none per message.
    private func watchWhileParked() -> Task<Void, Never> {
        Task { [weak self] in
            var reads: Int?
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: Self.idleInterval)
                guard let self, !Task.isCancelled else { return }
                let handBack = self.state.withLock { state -> State.HandBack? in
                    defer { reads = state.appReads }
                    guard state.source != nil, reads == state.appReads else { return nil }
                    return state.reclaim()
                }
                if let handBack {
                    handBack.reader.resume(returning: handBack.resume)
                    return
                }
            }
        }
    }

    /// How long a channel parked for the app's loop may sit unread before the reader reads ahead
    /// again (the first check may come up to twice as late): half a second.
    static let idleInterval: UInt64 = 500_000_000

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

    /// Ends the messages after those unread: with `error` thrown to the app, or normally.
    func finish(throwing error: (any Error)? = nil) {
        let (app, reader) = state.withLock { state -> (UnsafeContinuation<Delivery, any Error>?, UnsafeContinuation<Void, Never>?) in
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
        if let error { app?.resume(throwing: error) } else { app?.resume(returning: .end) }
    }

    // MARK: - The app

    /// The next message for the app, `nil` once the messages ended or the app stopped reading.
    func next() async throws -> WebSocketMessage? {
        while true {
            let delivery: Delivery
            switch state.withLock({ $0.take(limit, mayRead: !Task.isCancelled) }) {
            case .message(let message, let reader):
                reader?.resume()
                return message
            case .ended(let error):
                if let error { throw error }
                return nil
            case .read(let source):
                delivery = .read(source)
            case .empty:
                delivery = try await wait()
            }
            switch delivery {
            case .message(let message):
                return message
            case .end:
                return nil
            case .read(let source):
                // `nil`: the reader took the channel back; what it makes of it comes next.
                if let message = await read(source) { return message }
            }
        }
    }

    private func wait() async throws -> Delivery {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (app: UnsafeContinuation<Delivery, any Error>) in
                let taken = state.withLock { state -> State.Taken in
                    let taken = state.take(limit, mayRead: !Task.isCancelled)
                    guard case .empty = taken, !Task.isCancelled else { return taken }
                    // A second loop over the same messages ends at once rather than stealing the first one's.
                    if state.app == nil { state.app = app } else { return .ended(nil) }
                    return .empty
                }
                switch taken {
                case .message(let message, let reader):
                    reader?.resume()
                    app.resume(returning: .message(message))
                case .read(let source):
                    app.resume(returning: .read(source))
                case .ended(let error?):
                    app.resume(throwing: error)
                case .ended(nil):
                    app.resume(returning: .end)
                case .empty where Task.isCancelled:
                    app.resume(returning: .end)
                    cancel()
                case .empty:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The app's loop reads the channel itself: the next message within the limit, skipping pings
    /// and pongs. Anything else goes back to the reader with the channel, and so does the channel
    /// when the app closed or its task was cancelled meanwhile (a cancelled read may have ended the
    /// transport's stream: the reader then sees that end, after the 1000 close went out).
    private func read(_ source: Source) async -> WebSocketMessage? {
        var message: WebSocketMessage?
        var resume = Resume.readOn
        do {
            reading: while true {
                let frame = try await source.next()
                switch frame {
                case .message(let read)? where read.count <= source.maximumMessageSize:
                    message = read
                    source.hasDelivered = true
                    break reading
                case .ping?, .pong?:
                    continue
                case .message?, .close?, nil:
                    resume = .process(.success(frame))
                    break reading
                }
            }
        } catch {
            resume = .process(.failure(error))
        }
        let isCancelled = Task.isCancelled
        if isCancelled { cancel() }
        switch state.withLock({ $0.appRead(source, message: message, resume: resume) }) {
        case .parked:
            break
        case .toApp(let app):
            app.resume(returning: .read(source))
        case .handedBack(let handBack):
            handBack.map { $0.reader.resume(returning: $0.resume) }
        }
        return isCancelled ? nil : message
    }

    // MARK: - The app stops reading

    /// Nobody reads any more (the app closed, left the loop, or the messages ended): the reader
    /// never waits for room again, and takes back a channel parked for the app, to read the
    /// closing handshake.
    func release() {
        let (reader, handBack) = state.withLock { state in
            state.isReleased = true
            return (state.takeReader(), state.reclaim())
        }
        reader?.resume()
        handBack.map { $0.reader.resume(returning: $0.resume) }
    }

    /// The app stopped reading: the messages end, `onCancel` runs if they had not ended, and a
    /// channel parked for the app goes back to the reader.
    func cancel() {
        let (app, reader, onCancel, handBack) = state.withLock { state -> (UnsafeContinuation<Delivery, any Error>?, UnsafeContinuation<Void, Never>?, (@Sendable () -> Void)?, State.HandBack?) in
            guard state.end == nil else { return (nil, nil, nil, nil) }
            state.end = .cancelled
            state.isReleased = true
            state.unread.removeAll()
            defer {
                state.app = nil
                state.onCancel = nil
            }
            return (state.app, state.takeReader(), state.onCancel, state.reclaim())
        }
        reader?.resume()
        app?.resume(returning: .end)
        // First, so the connection knows the app closed before the reader sees the channel end.
        onCancel?()
        handBack.map { $0.reader.resume(returning: $0.resume) }
    }
}
