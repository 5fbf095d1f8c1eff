import Foundation

/// The chunks of a streamed request body (``RequestBody/stream(length:contentType:_:)``): how to
/// make them, once per send, and how many bytes they add up to when that is known.
///
/// Two bodies are equal when they come from the same call to `stream`: a closure has no other
/// identity.
struct BodyChunks: Sendable, Hashable {
    private final class Maker: Sendable {
        let produce: @Sendable (_ deliver: @Sendable (Data) async throws -> Void) async throws -> Void

        init(_ produce: @escaping @Sendable (_ deliver: @Sendable (Data) async throws -> Void) async throws -> Void) {
            self.produce = produce
        }
    }

    private let maker: Maker
    /// The body's length in bytes, when it is announced; the chunks must add up to it.
    let length: Int64?

    /// Chunks made by `makeChunks`, which is called again for every send.
    init<Chunks: AsyncSequence & SendableMetatype>(length: Int64?, _ makeChunks: @escaping @Sendable () -> Chunks) where Chunks.Element: DataProtocol {
        maker = Maker { deliver in try await Self.deliver(makeChunks(), to: deliver) }
        self.length = length
    }

    /// Hands each non-empty chunk of `chunks` to `deliver`, in order.
    private static func deliver<Chunks: AsyncSequence>(_ chunks: Chunks, to deliver: @Sendable (Data) async throws -> Void) async throws where Chunks.Element: DataProtocol {
        for try await chunk in chunks where !chunk.isEmpty {
            try await deliver(chunk as? Data ?? Data(chunk))
        }
    }

    /// Makes the chunks once more, from the first, and hands each to `deliver` in order, waiting
    /// for `deliver` to return before making the next.
    ///
    /// - Throws: what the sequence or `deliver` throws.
    func produce(into deliver: @escaping @Sendable (Data) async throws -> Void) async throws {
        try await maker.produce(deliver)
    }

    /// The whole body, made once more and read into memory; `nil` when it is longer than
    /// `limit` bytes (then only the first `limit` bytes are made).
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the sequence fails or its chunks do not
    ///   add up to ``length``, as the upload would fail.
    func collect(limit: Int64) async throws(NetworkError) -> Data? {
        if let length, length > limit { return nil }
        struct OverLimit: Error {}
        let collected = Locked(Data())
        do {
            try await produce { chunk in
                let fits = collected.withLock { data in
                    guard Int64(data.count + chunk.count) <= limit else { return false }
                    data.append(chunk)
                    return true
                }
                if !fits { throw OverLimit() }
            }
        } catch is OverLimit {
            return nil
        } catch {
            throw .invalidRequest(RequestProblem(.body, Self.failure(error)))
        }
        let data = collected.withLock { $0 }
        if let problem = lengthProblem(after: Int64(data.count), isFinished: true) {
            throw .invalidRequest(RequestProblem(.body, problem))
        }
        return data
    }

    /// Why `sent` bytes do not fit the announced ``length``: more than it, or, at the end of the
    /// body (`isFinished`), fewer; `nil` when they fit or no length was announced.
    func lengthProblem(after sent: Int64, isFinished: Bool) -> String? {
        guard let length else { return nil }
        if sent > length {
            return "the streamed body is longer than the \(length) bytes it announced; the upload was stopped"
        }
        if isFinished, sent < length {
            return "the streamed body ended after \(sent) of the \(length) bytes it announced; the upload was stopped rather than sent short"
        }
        return nil
    }

    /// Why the body could not be sent, when its sequence threw `error`.
    static func failure(_ error: any Error) -> String {
        "the streamed body failed while it was sent: \(error)"
    }

    static func == (lhs: BodyChunks, rhs: BodyChunks) -> Bool {
        lhs.maker === rhs.maker && lhs.length == rhs.length
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(maker))
    }
}
