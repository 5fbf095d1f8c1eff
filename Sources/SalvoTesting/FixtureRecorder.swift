import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// Stands between a session and the receiver of an exchange that is being recorded: passes on
/// everything as it arrives, keeps the head and body, and at the end writes them as a fixture
/// before passing the end on.
///
/// A streamed exchange (its receiver reads the body as it arrives) also keeps each chunk's size
/// and time after the head, so replay streams it the same way. The body is kept in memory until
/// the end, as the fixture stores it whole: record streams of a test's size, not a 2 GB export.
/// Transport failures are passed on and not recorded. A fixture that cannot be written ends the exchange with
/// `URLError(.cannotWriteToFile)` naming the file.
final class FixtureRecorder: ResponseReceiver {
    /// Where the fixture goes, and what it records.
    struct Destination: Sendable {
        var request: URLRequest
        var name: String
        var occurrence: Int
        var folder: URL
        var options: FixtureOptions
    }

    private struct State {
        var head: ResponseHead?
        var headTime: UInt64 = 0
        var body = Data()
        var chunks: [Fixture.Chunk] = []
    }

    private let receiver: any ResponseReceiver
    private let destination: Destination
    private let state = Locked(State())
    /// Whether the exchange's body is read as it arrives, so its chunks are recorded.
    private let isStreamed: Bool

    init(passingTo receiver: any ResponseReceiver, recordingTo destination: Destination, isStreamed: Bool) {
        self.receiver = receiver
        self.destination = destination
        self.isStreamed = isStreamed
    }

    func receive(_ head: ResponseHead) {
        state.withLock { state in
            state.head = head
            state.headTime = DispatchTime.now().uptimeNanoseconds
        }
        receiver.receive(head)
    }

    func receive(_ chunk: Data) {
        state.withLock { state in
            state.body.append(chunk)
            if isStreamed {
                let elapsed = DispatchTime.now().uptimeNanoseconds - state.headTime
                state.chunks.append(Fixture.Chunk(bytes: chunk.count, ms: Int((Double(elapsed) / 1_000_000).rounded())))
            }
        }
        receiver.receive(chunk)
    }

    func didSend(_ bytesSent: Int64, of bytesExpected: Int64?) {
        receiver.didSend(bytesSent, of: bytesExpected)
    }

    func finish(_ error: (any Error)?) {
        let recorded = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard error == nil, let http = recorded.head?.httpURLResponse else {
            receiver.finish(error)
            return
        }
        let file = FixtureOccurrences.file(destination.name, occurrence: destination.occurrence, in: destination.folder)
        do {
            let fixture = Fixture(
                request: destination.request, response: http, body: recorded.body,
                chunks: isStreamed && !recorded.body.isEmpty ? recorded.chunks : nil,
                options: destination.options
            )
            try FileManager.default.createDirectory(at: destination.folder, withIntermediateDirectories: true)
            try fixture.encoded().write(to: file, options: .atomic)
            if destination.occurrence == 1 { FixtureOccurrences.removeLaterOccurrences(of: destination.name, in: destination.folder) }
            receiver.finish(nil)
        } catch {
            let reason = "could not write fixture \(file.path): \(error.localizedDescription)"
            receiver.finish(URLError(.cannotWriteToFile, userInfo: [NSLocalizedDescriptionKey: reason]))
        }
    }
}
