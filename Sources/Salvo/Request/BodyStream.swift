import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One run of a request body: bytes in memory, a whole file read from disk as it is sent, or
/// chunks made while it is sent.
enum BodySegment: Sendable, Hashable {
    case bytes(Data)
    case file(URL, size: Int64)
    case chunks(BodyChunks)

    /// How many bytes the segment sends; `nil` for chunks of unannounced length.
    var count: Int64? {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let size): size
        case .chunks(let chunks): chunks.length
        }
    }

    /// A segment for the file at `url`, its size taken from the file system without reading it.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming the file when it is missing, a
    ///   directory or something else that is not a regular file, or unreadable.
    static func file(checking url: URL) throws(NetworkError) -> BodySegment {
        guard url.isFileURL else {
            throw .invalidRequest(RequestProblem(.body, "\(url.absoluteString) is not a file URL; upload files by their file: URL"))
        }
        let path = url.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno == ENOENT || errno == ENOTDIR ? "there is no file at \(path)" : "the file \(path) cannot be read: \(String(cString: strerror(errno)))"
            throw .invalidRequest(RequestProblem(.body, reason))
        }
        let type = status.st_mode & S_IFMT
        guard type != S_IFDIR else {
            throw .invalidRequest(RequestProblem(.body, "\(path) is a directory, not a file; upload the files in it one by one"))
        }
        guard type == S_IFREG else {
            throw .invalidRequest(RequestProblem(.body, "\(path) is not a regular file (a device, socket or pipe has no size to send)"))
        }
        guard access(path, R_OK) == 0 else {
            throw .invalidRequest(RequestProblem(.body, "the file \(path) cannot be read: permission denied"))
        }
        return .file(url, size: Int64(status.st_size))
    }
}

/// A request body read from its segments in the caller's buffer, a file at most one read at a
/// time, so a body of any size costs no more memory than the buffer URLSession reads into.
/// Chunks made while the body is sent come through a ``ChunkPump``: a read waits for the next one.
///
/// Every `open()` starts the body again from its first byte, so a retry, a token renewal on 401 or a
/// redirect that sends the request again sends all of it. A file that no longer has the size it
/// had when the request was built fails the read (and so the upload) with ``failure`` naming it:
/// the stream never ends early, so a server never receives a shortened body as a complete one.
///
/// It cannot be `Sendable` (`InputStream` is not), but its state sits behind a lock: URLSession
/// opens it on one queue and reads it on another.
final class BodyStream: InputStream {
    private struct State {
        var status = Stream.Status.notOpen
        var segmentIndex = 0
        /// Bytes of the current segment already read.
        var offset: Int64 = 0
        var descriptor: Int32 = -1
        var failure: String?
    }

    /// What the stream sends, in order.
    let segments: [BodySegment]
    /// The body the segments were made from, so that logs and `curl` output can describe it
    /// without reading the files.
    let body: RequestBody
    private let state = Locked(State())
    /// The chunks being made for this send, apart from ``state`` so that `close()` can stop a
    /// `read` waiting for the next chunk (it holds the state's lock while it waits).
    private let pump = Locked<ChunkPump?>(nil)

    /// A stream over `segments` of `body`, unopened.
    init(_ segments: [BodySegment], of body: RequestBody) {
        self.segments = segments
        self.body = body
        super.init(data: Data())
    }

    deinit {
        stopPump()
        state.withLock { Self.closeFile(&$0) }
    }

    /// How many bytes the stream sends; `nil` when chunks of unannounced length are among them.
    var length: Int64? {
        var total: Int64 = 0
        for segment in segments {
            guard let count = segment.count else { return nil }
            total += count
        }
        return total
    }

    /// A new, unopened stream over the same body, for sending it again from its first byte.
    func restarted() -> BodyStream {
        BodyStream(segments, of: body)
    }

    /// The whole body, read by a stream of its own (this one is left as it is); `nil` when it is
    /// longer than `limit` bytes or a file can no longer be read as it was.
    func contents(limit: Int64) -> Data? {
        if let length, length > limit { return nil }
        let copy = restarted()
        copy.open()
        defer { copy.close() }
        var data = Data(capacity: Int(length ?? 0))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = copy.read(&buffer, maxLength: buffer.count)
            if count < 0 || Int64(data.count + count) > limit { return nil }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }

    /// Whether chunks made while the body is sent are among the segments: reading it then waits
    /// for them.
    var makesChunks: Bool {
        segments.contains { if case .chunks = $0 { true } else { false } }
    }

    /// The whole body, read without blocking a thread while chunks are made; `nil` when it is
    /// longer than `limit` bytes or a file can no longer be read as it was.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` when the chunks fail or do not add up to
    ///   their announced length.
    func collect(limit: Int64) async throws(NetworkError) -> Data? {
        var data = Data()
        for segment in segments {
            let left = limit - Int64(data.count)
            let part: Data? = switch segment {
            case .chunks(let chunks): try await chunks.collect(limit: left)
            case .bytes, .file: BodyStream([segment], of: body).contents(limit: left)
            }
            guard let part else { return nil }
            data.append(part)
        }
        return data
    }

    /// Why the last read failed, naming the file or what was wrong with the chunks; `nil` while all is well.
    var failure: String? { state.withLock { $0.failure } }

    // MARK: - InputStream

    override func open() {
        stopPump()
        state.withLock { state in
            Self.closeFile(&state)
            state = State()
            state.status = .open
        }
    }

    override func close() {
        stopPump()
        state.withLock { state in
            Self.closeFile(&state)
            state.status = .closed
        }
    }

    override var streamStatus: Stream.Status { state.withLock { $0.status } }

    override var streamError: (any Error)? {
        guard let failure else { return nil }
        return NSError(domain: NSCocoaErrorDomain, code: NSFileReadUnknownError, userInfo: [NSLocalizedDescriptionKey: failure])
    }

    /// True until the last byte was read; true after a failure too, so the reader calls `read`
    /// and sees the error instead of taking the body as complete.
    override var hasBytesAvailable: Bool {
        state.withLock { state in
            state.status == .open || state.status == .reading || state.status == .error
        }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        state.withLock { state in
            guard state.status == .open || state.status == .reading else {
                return state.status == .atEnd ? 0 : -1
            }
            state.status = .reading
            var filled = 0
            while filled < length, state.segmentIndex < segments.count {
                let isChunks = if case .chunks = segments[state.segmentIndex] { true } else { false }
                // Bytes in hand go out before a wait for the next chunk.
                if isChunks, filled > 0 { break }
                let read = readSegment(into: buffer + filled, maxLength: length - filled, state: &state)
                guard read >= 0 else {
                    Self.closeFile(&state)
                    state.status = .error
                    return -1
                }
                filled += read
                if isChunks, read > 0 { break }
            }
            if state.segmentIndex == segments.count { state.status = .atEnd }
            return filled
        }
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>) -> Bool {
        false
    }

    override var delegate: (any StreamDelegate)? {
        get { nil }
        // The stream is read by polling; it sends no events, so it keeps no delegate.
        set {}
    }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    #if canImport(Darwin)
    override func property(forKey key: Stream.PropertyKey) -> Any? { nil }

    override func setProperty(_ property: Any?, forKey key: Stream.PropertyKey) -> Bool { false }

    // CFNetwork reads a body stream through CFReadStream calls that an InputStream subclass must
    // answer itself (as AFNetworking's multipart stream does): it has no run-loop client.
    @objc func _scheduleInCFRunLoop(_ runLoop: CFRunLoop, forMode mode: CFString) {}

    @objc func _unscheduleFromCFRunLoop(_ runLoop: CFRunLoop, forMode mode: CFString) {}

    @objc func _setCFClientFlags(
        _ flags: CFOptionFlags,
        callback: CFReadStreamClientCallBack?,
        context: UnsafeMutablePointer<CFStreamClientContext>?
    ) -> Bool {
        false
    }
    #endif

    // MARK: - Segments

    /// Reads from the current segment, moving to the next one at its end; -1 on failure.
    private func readSegment(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int, state: inout State) -> Int {
        switch segments[state.segmentIndex] {
        case .bytes(let data):
            let start = Int(state.offset)
            let count = min(maxLength, data.count - start)
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(buffer).copyMemory(from: base + start, byteCount: count)
            }
            advance(by: count, segmentSize: Int64(data.count), state: &state)
            return count
        case .file(let url, let size):
            return readFile(url, size: size, into: buffer, maxLength: maxLength, state: &state)
        case .chunks(let chunks):
            return readChunks(chunks, into: buffer, maxLength: maxLength, state: &state)
        }
    }

    /// Reads the next piece of the chunks, waiting for it to be made; the pump for this send
    /// starts at the first read, so a body never read makes no chunks.
    private func readChunks(_ chunks: BodyChunks, into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int, state: inout State) -> Int {
        let current = pump.withLock { pump in
            if let pump { return pump }
            let started = ChunkPump(chunks)
            pump = started
            return started
        }
        let read = current.read(into: buffer, maxLength: maxLength)
        if read < 0 {
            state.failure = current.failure ?? "the streamed body was stopped while it was sent"
        } else if read == 0 {
            pump.withLock { $0 = nil }
            state.segmentIndex += 1
            state.offset = 0
        }
        return read
    }

    private func stopPump() {
        pump.withLock { pump in
            let stopped = pump
            pump = nil
            return stopped
        }?.cancel()
    }

    /// Reads the next piece of a file segment. Its path is worked out only to open the file or
    /// to name it in a failure: `URL.path` decodes the URL again on each call, thousands of
    /// times per upload when done per read.
    private func readFile(_ url: URL, size: Int64, into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int, state: inout State) -> Int {
        if state.descriptor < 0 {
            let descriptor = systemOpen(url.path)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                state.failure = "the file \(url.path) could no longer be opened while uploading: \(reason)"
                return -1
            }
            state.descriptor = descriptor
            guard let current = Self.size(of: descriptor), current == size else {
                state.failure = "the file \(url.path) changed size since the request was built (\(size) bytes then, \(Self.size(of: descriptor).map(String.init) ?? "unknown") now); build the request again"
                return -1
            }
        }
        let wanted = Int(min(Int64(maxLength), size - state.offset))
        guard wanted > 0 else {
            finishFile(url, size: size, state: &state)
            return state.failure == nil ? 0 : -1
        }
        let read = systemRead(state.descriptor, buffer, wanted)
        guard read > 0 else {
            let reason = String(cString: strerror(errno))
            state.failure = read == 0
                ? "the file \(url.path) became shorter while uploading (\(state.offset) of \(size) bytes sent); the upload was stopped rather than sent short"
                : "the file \(url.path) could not be read while uploading: \(reason)"
            return -1
        }
        state.offset += Int64(read)
        if state.offset == size {
            finishFile(url, size: size, state: &state)
            if state.failure != nil { return -1 }
        }
        return read
    }

    /// Closes a file read to its recorded size, failing when it has grown meanwhile (what was
    /// sent would be a mix of two versions), and moves to the next segment.
    private func finishFile(_ url: URL, size: Int64, state: inout State) {
        if let current = Self.size(of: state.descriptor), current != size {
            state.failure = "the file \(url.path) changed size while uploading (\(size) bytes when the request was built, \(current) now); the upload was stopped"
            return
        }
        Self.closeFile(&state)
        state.segmentIndex += 1
        state.offset = 0
    }

    private func advance(by count: Int, segmentSize: Int64, state: inout State) {
        state.offset += Int64(count)
        if state.offset == segmentSize {
            state.segmentIndex += 1
            state.offset = 0
        }
    }

    private static func size(of descriptor: Int32) -> Int64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    private static func closeFile(_ state: inout State) {
        if state.descriptor >= 0 {
            _ = systemClose(state.descriptor)
            state.descriptor = -1
        }
    }
}

// The C functions by names that InputStream's own `open()`, `read(_:maxLength:)` and `close()`
// do not shadow inside the class.
private func systemOpen(_ path: String) -> Int32 { open(path, O_RDONLY) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
