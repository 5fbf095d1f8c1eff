import Foundation

/// A stream of JSON values decoded one by one as they arrive: each line of a JSON Lines (NDJSON)
/// body, or the data of each Server-Sent Event.
///
/// ```swift
/// for try await update in call.jsonLines(of: PriceUpdate.self) {
///     prices[update.symbol] = update.price
/// }
/// for try await tick in call.events(decoding: Tick.self) {
///     chart.append(tick)
/// }
/// ```
///
/// From ``NetCall/jsonLines(of:decoder:maximumLineLength:)``, blank lines are skipped; firing,
/// actions, cancellation and the line length limit are those of ``ResponseLines``. From
/// ``NetCall/events(decoding:decoder:resumingAfter:reconnection:maximumLineLength:)``, every event
/// is decoded whatever its `event:` type (a stream that mixes types is better read with
/// ``NetCall/events(resumingAfter:reconnection:maximumLineLength:)`` and
/// ``ServerSentEvent/decode(_:using:)`` per type); connections, reconnection and cancellation are
/// those of ``ServerSentEvents``. An element that does not decode ends the stream with
/// ``NetworkError/decoding(_:)`` carrying that line or event data, and drops the connection.
public struct DecodedStream<Value: Decodable>: AsyncSequence, Sendable {
    /// Where the elements come from.
    enum Source: Sendable {
        case lines(ResponseLines)
        case events(ServerSentEvents)
    }

    let source: Source
    /// What decodes each element: the server's ``ServerConfig/decoder`` unless another was given.
    let decoder: JSONDecoder

    init(lines: ResponseLines, decoder: JSONDecoder) {
        self.init(source: .lines(lines), decoder: decoder)
    }

    init(events: ServerSentEvents, decoder: JSONDecoder) {
        self.init(source: .events(events), decoder: decoder)
    }

    init(source: Source, decoder: JSONDecoder) {
        self.source = source
        self.decoder = decoder
    }

    /// Starts reading: the call fires (or the first connection opens) on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        switch source {
        case .lines(let lines): Iterator(source: .lines(lines.makeAsyncIterator()), decoder: decoder)
        case .events(let events): Iterator(source: .events(events.makeAsyncIterator()), decoder: decoder)
        }
    }

    /// Reads a ``DecodedStream``.
    public struct Iterator: AsyncIteratorProtocol {
        enum Source {
            case lines(ResponseLines.Iterator)
            case events(ServerSentEvents.Iterator)
            /// After an element did not decode: the source is dropped, which cancels its call.
            case ended
        }

        var source: Source
        let decoder: JSONDecoder

        /// The next value, `nil` once the stream has ended; throws why it failed, or the decoding
        /// failure of the element that did not decode.
        public mutating func next() async throws(NetworkError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next value, `nil` once the stream has ended; throws like ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
            do throws(NetworkError) {
                guard let data = try await nextElement(isolation: actor) else { return nil }
                do {
                    return try decoder.decode(Value.self, from: data)
                } catch {
                    throw NetworkError.decoding(DecodingProblem(error, body: data, type: Value.self))
                }
            } catch {
                source = .ended
                throw error
            }
        }

        /// The bytes of the next element to decode: a line that is not blank, or an event's data.
        private mutating func nextElement(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
            switch source {
            case .lines(var lines):
                source = .ended   // so the iterator is not shared (and copied) while it reads
                defer { source = .lines(lines) }
                while let line = try await lines.next(isolation: actor) {
                    if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { return Data(line.utf8) }
                }
                return nil
            case .events(var events):
                source = .ended
                defer { source = .events(events) }
                return try await events.next(isolation: actor).map { Data($0.data.utf8) }
            case .ended:
                return nil
            }
        }
    }
}
