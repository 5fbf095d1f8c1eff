import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServerSentEvents {
    /// One iteration of a stream: connects, reads and parses each connection's body, waits and
    /// reconnects, and hands out what happened in order. Comments and states only when asked for.
    struct Reader: StreamReader {
        private let stream: ServerSentEvents
        private let reportsActivity: Bool
        private var parser: ServerSentEventParser
        /// The current connection's body; `nil` before the first and between connections.
        private var body: ChunkReader?
        /// Drops the current connection when it stays silent past the idle timeout.
        private var idleWatch: IdleWatch?
        private var pending: [EventStreamActivity] = []
        private var nextPending = 0
        /// Connections in a row that ended in a transport error before an event arrived on them.
        private var failures = 0
        /// Failed connections since the backoff last started over: each one waits longer.
        private var reconnections = 0
        /// When the current connection opened, on the policy's clock.
        private var openedAt: TimeInterval?
        /// Whether an event arrived on the current connection, which then does not count as
        /// failed, and is followed by the reconnection time exactly.
        private var hasEventOnConnection = false
        /// The current connection's head, whose URL and status a refused body names.
        private var connectionHead: ResponseHead?
        /// Whether the body of the current connection has ended, so the next one must wait first.
        private var mustWaitBeforeConnecting = false
        /// The wait already announced as ``EventStreamState/waitingToReconnect(seconds:)``, still to be waited.
        private var announcedWait: TimeInterval?
        /// Whether ``EventStreamState/connecting`` was handed out for the connection about to fire.
        private var hasAnnouncedConnecting = false
        private var isFinished = false

        init(_ stream: ServerSentEvents, reportsActivity: Bool) {
            self.stream = stream
            self.reportsActivity = reportsActivity
            parser = ServerSentEventParser(lastEventID: stream.initialEventID, maximumLineLength: stream.maximumLineLength)
            parser.keepsComments = reportsActivity
            // So that `event.decode(T.self)` uses the server's decoder, as every untyped path does.
            parser.serverDecoder = stream.call.server.decoder
        }

        private var policy: ReconnectionPolicy { stream.reconnection }

        /// The next thing that happened, `nil` once the stream has ended; throws why it failed.
        mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> EventStreamActivity? {
            while nextPending == pending.count {
                guard !isFinished else { return nil }
                pending = []
                nextPending = 0
                do throws(NetworkError) {
                    try await advance(isolation: actor)
                } catch {
                    isFinished = true
                    body = nil
                    idleWatch = nil
                    throw error
                }
            }
            defer { nextPending += 1 }
            return pending[nextPending]
        }

        /// One step of the stream: wait and connect when there is no connection, else read the
        /// next chunk and parse it.
        private mutating func advance(isolation actor: isolated (any Actor)?) async throws(NetworkError) {
            guard var reading = body else {
                try await connect(isolation: actor)
                return
            }
            let chunk: Data?
            do throws(NetworkError) {
                chunk = try await reading.next(isolation: actor)
            } catch {
                try end(droppedBy: error)
                return
            }
            body = reading
            guard let chunk else {
                try end(droppedBy: nil)
                return
            }
            idleWatch?.touch(at: policy.clock.now())
            let events: [ServerSentEvent]
            do throws(NetworkError) {
                events = try parser.parse(chunk)
            } catch {
                throw connectionHead.map { error.answered(by: $0) } ?? error
            }
            if !events.isEmpty {
                failures = 0
                hasEventOnConnection = true
            }
            report(events, comments: reportsActivity ? parser.takeComments() : [])
        }

        /// Queues `events` with `comments` put back between them where they came.
        private mutating func report(_ events: [ServerSentEvent], comments: [(position: Int, text: String)]) {
            guard !comments.isEmpty else {
                pending = events.map(EventStreamActivity.event)
                return
            }
            var comments = comments[...]
            for (index, event) in events.enumerated() {
                while let comment = comments.first, comment.position <= index {
                    pending.append(.comment(comment.text))
                    comments = comments.dropFirst()
                }
                pending.append(.event(event))
            }
            pending += comments.map { EventStreamActivity.comment($0.text) }
        }

        /// Ends the current connection, deciding whether the stream reconnects.
        ///
        /// - Parameter error: why the connection ended; `nil` when its body ended cleanly.
        /// - Throws: `error` when it is no transport error, when the call's method does not
        ///   reconnect, or when it is one failure too many.
        private mutating func end(droppedBy error: NetworkError?) throws(NetworkError) {
            defer { hasEventOnConnection = false }
            body = nil
            idleWatch = nil
            connectionHead = nil
            parser.finish()
            // A connection that worked starts the backoff over: it delivered events, or stayed
            // open long enough. Only failed ones (no connection, or one that ended before its first
            // event) make the next wait longer (WHATWG: extra waiting after a failed attempt only).
            if hasEventOnConnection {
                reconnections = 0
            } else if let openedAt, policy.clock.now() - openedAt >= policy.backoffResetInterval {
                reconnections = 0
            }
            openedAt = nil
            guard policy.reconnects(stream.call) else {
                if let error { throw error }
                close()
                return
            }
            if let error {
                guard case .transport = error else { throw error }
                if !hasEventOnConnection { failures += 1 }
                if failures > policy.maximumFailures { throw error }
            }
            mustWaitBeforeConnecting = true
        }

        /// Ends the stream without an error.
        private mutating func close() {
            isFinished = true
            if reportsActivity { pending.append(.state(.closed)) }
        }

        /// Waits the reconnection time if a connection ended before, then fires the next one
        /// and checks its head: the body is then read by ``advance(isolation:)``.
        ///
        /// With activity reported, the wait and the connecting are each handed out first, so a
        /// UI shows them while they last.
        private mutating func connect(isolation actor: isolated (any Actor)?) async throws(NetworkError) {
            if mustWaitBeforeConnecting {
                let wait: TimeInterval
                if let announcedWait {
                    wait = announcedWait
                } else {
                    wait = policy.wait(before: reconnections, reconnectionTime: parser.reconnectionTime ?? policy.delay)
                    reconnections += 1
                    if reportsActivity {
                        announcedWait = wait
                        pending.append(.state(.waitingToReconnect(seconds: wait)))
                        return
                    }
                }
                announcedWait = nil
                do {
                    try await policy.clock.sleep(for: wait)
                } catch {
                    throw .cancelled
                }
                mustWaitBeforeConnecting = false
            }
            if Task.isCancelled { throw .cancelled }
            if reportsActivity, !hasAnnouncedConnecting {
                hasAnnouncedConnecting = true
                pending.append(.state(.connecting))
                return
            }
            hasAnnouncedConnecting = false
            let connection = stream.connectionCall(lastEventID: parser.lastEventID).fireStreaming(BodyBuffer())
            idleWatch = policy.idleTimeout.map { IdleWatch(timeout: $0, clock: policy.clock, buffer: connection.buffer) }
            let head: ResponseHead
            do throws(NetworkError) {
                head = try await connection.buffer.head()
            } catch {
                try end(droppedBy: error)
                return
            }
            if head.statusCode == 204 {
                idleWatch = nil
                close()
                return
            }
            guard Self.isEventStream(head) else {
                idleWatch = nil
                throw await Self.refusal(of: head, body: connection)
            }
            openedAt = policy.clock.now()
            connectionHead = head
            body = ChunkReader(stream: connection)
            if reportsActivity { pending.append(.state(.open)) }
        }

        private static func isEventStream(_ head: ResponseHead) -> Bool {
            head.headers["Content-Type"].flatMap(MediaType.init)?.description == "text/event-stream"
        }

        /// The most of a refused body the error keeps, to show what the server sent instead.
        private static let refusedBodyPreview = 16 << 10
        /// The longest the refusal waits for more of the body, in seconds: a server that keeps
        /// the wrong body open must not hold the error back.
        private static let refusedBodyWait: TimeInterval = 0.25

        /// The error for a 2xx answer that is not an event stream, with the start of its body.
        private static func refusal(of head: ResponseHead, body: StreamHandle) async -> NetworkError {
            let type = head.headers["Content-Type"].map { "Content-Type \"\($0)\"" } ?? "no Content-Type"
            return .unacceptableResponse(ResponseProblem(
                "a Server-Sent Events stream must be text/event-stream, and this \(head.statusCode) answer has \(type); "
                    + "check the URL, and that the server streams events there",
                statusCode: head.statusCode,
                url: head.url,
                headers: head.headers,
                body: await preview(of: body)
            ))
        }

        /// The start of `body`: what arrives until it ends, fills the preview, or
        /// ``refusedBodyWait`` has passed; then the connection is cancelled.
        private static func preview(of body: StreamHandle) async -> Data {
            let preview = Locked(Data())
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await chunk in ResponseStream(source: BodySource(stream: body)) {
                            let isFull = preview.withLock { preview in
                                preview.append(chunk.prefix(refusedBodyPreview - preview.count))
                                return preview.count >= refusedBodyPreview
                            }
                            if isFull { break }
                        }
                    } catch {
                        // The preview is a courtesy: the refusal is the error that matters.
                    }
                }
                group.addTask {
                    // Wall time on purpose: a test clock that nobody advances must not hold the error.
                    try? await Task.sleep(nanoseconds: UInt64(refusedBodyWait * 1_000_000_000))
                }
                await group.next()
                group.cancelAll()
            }
            body.buffer.cancel()
            return preview.withLock { $0 }
        }
    }
}

/// Drops a connection on which no byte arrived for the idle timeout, measured on the policy's
/// clock: the reader touches it with every chunk, and the body then fails with a timeout, which
/// the stream takes as a dropped connection.
private final class IdleWatch: Sendable {
    private let lastActivity: Locked<TimeInterval>
    private let watch: Task<Void, Never>

    init(timeout: TimeInterval, clock: NetworkClock, buffer: BodyBuffer) {
        let lastActivity = Locked(clock.now())
        self.lastActivity = lastActivity
        // The task holds the time and the buffer, never this watch, so dropping the watch ends it.
        // It sleeps again only when a byte arrived meanwhile: a clock whose waits return at once
        // (`.immediate`) then times out at once instead of spinning.
        watch = Task {
            var watched = lastActivity.withLock { $0 }
            while !Task.isCancelled {
                let remaining = watched + timeout - clock.now()
                if remaining > 0 {
                    do {
                        try await clock.sleep(for: remaining)
                    } catch {
                        return
                    }
                    let latest = lastActivity.withLock { $0 }
                    if latest != watched {
                        watched = latest
                        continue
                    }
                }
                buffer.drop(.transport(URLError(.timedOut, userInfo: [
                    NSLocalizedDescriptionKey: "no byte arrived on the event stream for \(timeout) s (the reconnection policy's idleTimeout), so the connection was taken as dropped",
                ])))
                return
            }
        }
    }

    /// A byte arrived at `time`.
    func touch(at time: TimeInterval) {
        lastActivity.withLock { $0 = time }
    }

    deinit {
        watch.cancel()
    }
}
