import Foundation

/// Decodes each element another reader hands out, one by one as they arrive: each line of a JSON
/// Lines (NDJSON) body, or the data of each Server-Sent Event. What
/// ``NetCall/jsonLines(of:decoder:maximumLineLength:)`` and
/// ``NetCall/events(decoding:decoder:resumingAfter:reconnection:maximumLineLength:)`` iterate.
///
/// Decoding happens in the caller's isolation (`next(isolation:)`), so `Value` need not be
/// `Sendable`. An element that does not decode throws ``NetworkError/decoding(_:)`` with its bytes
/// and drops the source, which cancels its call; so does any error of the source.
struct DecodingReader<Source: StreamReader, Value: Decodable>: StreamReader {
    /// What hands out the elements; `nil` once the stream failed.
    private var source: Source?
    /// The bytes to decode of one element, `nil` to skip it (a blank line).
    private let bytes: (Source.Element) -> Data?
    /// What decodes each element: the server's ``ServerConfig/decoder`` unless another was given.
    private let decoder: JSONDecoder

    init(_ source: Source, decoder: JSONDecoder, bytes: @escaping (Source.Element) -> Data?) {
        self.source = source
        self.decoder = decoder
        self.bytes = bytes
    }

    /// The next value, `nil` once the stream has ended; throws why it failed, or the decoding
    /// failure of the element that did not decode.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
        do throws(NetworkError) {
            guard let data = try await nextBytes(isolation: actor) else { return nil }
            do {
                return try decoder.decode(Value.self, from: data)
            } catch {
                throw NetworkError.decoding(DecodingProblem(error, body: data, type: Value.self))
            }
        } catch {
            source = nil
            throw error
        }
    }

    /// The bytes of the next element that is not skipped, `nil` after the last.
    private mutating func nextBytes(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
        while let element = try await source?.next(isolation: actor) {
            if let data = bytes(element) { return data }
        }
        return nil
    }
}

/// Values decoded from the elements of another source.
struct DecodingSource<Upstream: StreamSource, Value: Decodable>: StreamSource {
    let upstream: Upstream
    let decoder: JSONDecoder
    /// The bytes to decode of one element, `nil` to skip it.
    let bytes: @Sendable (Upstream.Element) -> Data?

    func makeReader() -> DecodingReader<Upstream.Reading, Value> {
        DecodingReader(upstream.makeReader(), decoder: decoder, bytes: bytes)
    }
}
