import Foundation

/// Reads a body's chunks as lines of text: what ``NetCall/lines(maximumLineLength:)`` and
/// ``NetCall/jsonLines(of:decoder:maximumLineLength:)`` iterate.
///
/// Lines end where ``LineSplitter`` ends them; the last line is handed out even without a
/// terminator, and a line past the splitter's limit ends the stream with its error.
struct LineReader<Chunks: StreamReader<Data>>: StreamReader {
    private var chunks: Chunks
    private var splitter: LineSplitter
    private var pending: [String] = []
    private var nextPending = 0
    private var isAtEnd = false

    init(chunks: Chunks, maximumLineLength: Int) {
        self.chunks = chunks
        splitter = LineSplitter(maximumLineLength: maximumLineLength)
    }

    /// The next line, `nil` after the last; throws the error that ended the call.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> String? {
        while nextPending == pending.count {
            guard !isAtEnd else { return nil }
            pending = []
            nextPending = 0
            if let chunk = try await chunks.next(isolation: actor) {
                do throws(NetworkError) {
                    pending = try splitter.lines(in: chunk)
                } catch {
                    // The splitter never saw the head: name the URL and status it refused.
                    guard let reader = chunks as? ChunkReader, let head = try? await reader.head() else { throw error }
                    throw error.answered(by: head)
                }
            } else {
                isAtEnd = true
                if let last = splitter.finish() { pending = [last] }
            }
        }
        defer { nextPending += 1 }
        return pending[nextPending]
    }
}

/// A body read as lines: each iteration reads the chunks of one firing, which fired when the
/// stream was made, so a second iteration finds them taken.
struct LineSource: StreamSource {
    let body: BodySource
    /// The longest line accepted, in bytes.
    let maximumLineLength: Int

    func makeReader() -> LineReader<ChunkReader> {
        LineReader(chunks: body.makeReader(), maximumLineLength: maximumLineLength)
    }
}
