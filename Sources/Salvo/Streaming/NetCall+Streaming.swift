import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// Fires the call and returns its body as it arrives, chunk by chunk.
    ///
    /// ```swift
    /// for try await chunk in call.bytes() {
    ///     progress += chunk.count
    /// }
    /// ```
    ///
    /// The call fires now and goes through its firing function and actions as always: mock,
    /// replay and recording firing stream too, and actions decide on the head
    /// (``ResponseStream/head``) before the first chunk: a status outside 200–299 (or one an
    /// action refuses) throws before any chunk, with its body in the error. Memory is bounded: at
    /// most 4 MiB waits in memory for a slow reader, the rest in a temporary file (see
    /// Docs/Streaming.md). Breaking out of the loop, cancelling the enclosing task or dropping the
    /// stream cancels the call. The call's own responder and callback queue are not used.
    public func bytes() -> ResponseStream<Data> {
        ResponseStream(source: body())
    }

    /// Fires the call with its body going to a stream.
    private func body() -> BodySource {
        BodySource(stream: fireStreaming(BodyBuffer()))
    }

    /// Fires the call with `buffer` taking the body as it arrives, and nobody else the outcome.
    func fireStreaming(_ buffer: BodyBuffer) -> StreamHandle {
        let task = firingFunction(self, .bodyStream(buffer))
        buffer.attach(task)
        return StreamHandle(buffer: buffer, task: task)
    }
}

extension NetCall {
    /// Fires the call and returns its body as lines of text as they arrive (see ``ResponseStream``).
    ///
    /// ```swift
    /// for try await line in call.lines() {
    ///     log.append(line)
    /// }
    /// ```
    ///
    /// - Parameter maximumLineLength: the longest line accepted, in bytes; 1 MiB by default.
    public func lines(maximumLineLength: Int = 1 << 20) -> ResponseStream<String> {
        ResponseStream(source: LineSource(body: body(), maximumLineLength: max(1, maximumLineLength)))
    }

    /// Fires the call and decodes its body as JSON Lines (NDJSON), one value per line, as they
    /// arrive; blank lines are skipped (see ``ResponseStream``).
    ///
    /// - Parameters:
    ///   - type: the type each line decodes to.
    ///   - decoder: the decoder; the server's ``ServerConfig/decoder`` by default.
    ///   - maximumLineLength: the longest line accepted, in bytes; 1 MiB by default.
    public func jsonLines<Value: Decodable>(
        of type: Value.Type = Value.self,
        decoder: JSONDecoder? = nil,
        maximumLineLength: Int = 1 << 20
    ) -> ResponseStream<Value> {
        let lines = LineSource(body: body(), maximumLineLength: max(1, maximumLineLength))
        return ResponseStream(source: DecodingSource<_, Value>(upstream: lines, decoder: decoder ?? server.decoder) { line in
            line.allSatisfy { $0 == " " || $0 == "\t" } ? nil : Data(line.utf8)
        })
    }
}

extension NetCall {
    /// Reads the call as a Server-Sent Events stream that reconnects when its connection ends,
    /// as a browser's `EventSource` does (see ``ResponseStream``).
    ///
    /// ```swift
    /// for try await event in call.events(resumingAfter: savedEventID) {
    ///     show(event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - lastEventID: the event ID to resume after, e.g. one saved before the app quit: the first
    ///     connection sends it as `Last-Event-ID`. `nil` takes the endpoint's own `Last-Event-ID`
    ///     header if it has one, else starts from whatever the server sends first.
    ///   - reconnection: when to reconnect and when to give up; ``ReconnectionPolicy/never`` for a
    ///     stream whose end is the end, such as a chat model's answer.
    ///   - maximumLineLength: the longest line accepted, in bytes (1 MiB by default); an event's
    ///     data may hold 8 times that.
    public func events(
        resumingAfter lastEventID: String? = nil,
        reconnection: ReconnectionPolicy = ReconnectionPolicy(),
        maximumLineLength: Int = 1 << 20
    ) -> ResponseStream<ServerSentEvent> {
        ResponseStream(source: eventStream(resumingAfter: lastEventID, reconnection: reconnection, maximumLineLength: maximumLineLength))
    }

    /// Reads the call as a Server-Sent Events stream and decodes each event's data as JSON,
    /// whatever its `event:` type (see ``ResponseStream``).
    ///
    /// A stream that mixes types is better read with
    /// ``events(resumingAfter:reconnection:maximumLineLength:)`` and
    /// ``ServerSentEvent/decode(_:using:)`` per type.
    ///
    /// - Parameters:
    ///   - type: the type each event's data decodes to.
    ///   - decoder: the decoder; the server's ``ServerConfig/decoder`` by default.
    ///   - lastEventID: the event ID to resume after, as in ``events(resumingAfter:reconnection:maximumLineLength:)``.
    ///   - reconnection: when to reconnect and when to give up.
    ///   - maximumLineLength: the longest line accepted, in bytes.
    public func events<Value: Decodable>(
        decoding type: Value.Type,
        decoder: JSONDecoder? = nil,
        resumingAfter lastEventID: String? = nil,
        reconnection: ReconnectionPolicy = ReconnectionPolicy(),
        maximumLineLength: Int = 1 << 20
    ) -> ResponseStream<Value> {
        let events = eventStream(resumingAfter: lastEventID, reconnection: reconnection, maximumLineLength: maximumLineLength)
        return ResponseStream(source: DecodingSource<_, Value>(upstream: events, decoder: decoder ?? server.decoder) { Data($0.data.utf8) })
    }

    /// The settings of a Server-Sent Events stream of this call.
    private func eventStream(resumingAfter lastEventID: String?, reconnection: ReconnectionPolicy, maximumLineLength: Int) -> ServerSentEvents {
        ServerSentEvents(
            call: self,
            initialEventID: lastEventID ?? endpoint.headers["Last-Event-ID"] ?? "",
            reconnection: reconnection,
            maximumLineLength: maximumLineLength
        )
    }
}
