import Foundation
import Testing
@_spi(Transport) @testable import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `call.stream(to:)` over chunked bodies from the loopback server, on a serial queue.
@Suite(.leavesNoSpillFiles) struct StreamResponderIntegrationTests {
    /// What a streaming responder received, in order, and whether every handler ran on the queue.
    private final class Recorder: Sendable {
        enum Received: Sendable, Equatable {
            case head(status: Int)
            case chunk(count: Int)
            case completion(isSuccess: Bool)
        }

        private let state = Locked<(received: [Received], body: Data, isOnQueue: Bool, outcomes: Int)>(([], Data(), true, 0))
        private let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "stream-responder-tests")

        init() {
            queue.setSpecific(key: key, value: 1)
        }

        var received: [Received] { state.withLock { $0.received } }
        var body: Data { state.withLock { $0.body } }
        var ranOnQueue: Bool { state.withLock { $0.isOnQueue } }
        var completions: Int { received.filter { if case .completion = $0 { true } else { false } }.count }
        /// How many outcomes the call's own responder received.
        var outcomes: Int { state.withLock { $0.outcomes } }

        var responder: StreamResponder {
            StreamResponder(
                head: { head in self.record(.head(status: head.statusCode)) },
                chunk: { chunk in self.record(.chunk(count: chunk.count), appending: chunk) },
                completion: { error in self.record(.completion(isSuccess: error == nil)) }
            )
        }

        /// The call's own responder, which receives the outcome once at the end.
        var callResponder: NetworkResponder {
            NetworkResponder(
                dataHandler: { _ in self.state.withLock { $0.outcomes += 1 } },
                errorHandler: { _ in self.state.withLock { $0.outcomes += 1 } },
                serverErrorHandler: { _ in self.state.withLock { $0.outcomes += 1 } }
            )
        }

        private func record(_ event: Received, appending chunk: Data = Data()) {
            let isOnQueue = DispatchQueue.getSpecific(key: key) == 1
            state.withLock { state in
                state.received.append(event)
                state.body.append(chunk)
                state.isOnQueue = state.isOnQueue && isOnQueue
            }
        }
    }

    private func fire(_ path: EndpointPath, query: KeyValuePairs<String, String>, to recorder: Recorder, over transport: TransportUnderTest) async throws -> NetworkTask {
        let server = ServerConfig(scheme: "http", host: "127.0.0.1", port: try await LoopbackServer.port())
        let call = NetCall(server: server, endpoint: .get(path, query: query), responder: recorder.callResponder, callbackQueue: .queue(recorder.queue), firingFunction: transport.firing)
        return call.stream(to: recorder.responder)
    }

    @Test(arguments: TransportUnderTest.all)
    func headChunksAndCompletionArriveInOrderAndOnceOnTheQueue(over transport: TransportUnderTest) async throws {
        let recorder = Recorder()
        _ = try await fire("/stream/chunked", query: ["chunks": "200", "size": "1000", "delay": "0.001"], to: recorder, over: transport)
        #expect(await eventually { recorder.completions > 0 && recorder.outcomes > 0 })
        try await Task.sleep(nanoseconds: 200_000_000) // anything late would land now
        let received = recorder.received
        #expect(received.first == .head(status: 200))
        #expect(received.last == .completion(isSuccess: true))
        #expect(recorder.completions == 1)
        #expect(received.filter { $0 == .head(status: 200) }.count == 1)
        #expect(recorder.body.count == 200_000)
        #expect(recorder.body.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) }, "every byte once, in order")
        #expect(received.count > 3, "the body arrived in pieces")
        #expect(recorder.ranOnQueue)
        #expect(recorder.outcomes == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func aStatusOutside2xxCompletesWithTheErrorAndNoChunk(over transport: TransportUnderTest) async throws {
        let recorder = Recorder()
        _ = try await fire("/status/503", query: [:], to: recorder, over: transport)
        #expect(await eventually { recorder.completions > 0 })
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(recorder.received == [.completion(isSuccess: false)])
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingCompletesOnceAndStopsTheChunks(over transport: TransportUnderTest) async throws {
        let recorder = Recorder()
        // 100 bytes over 10 s: a loaded run that stalls deliveries for seconds still cancels mid-body
        // (at 0.02 s a byte the whole body once arrived before the cancel).
        let task = try await fire("/stream/drip", query: ["n": "100", "interval": "0.1"], to: recorder, over: transport)
        #expect(await eventually { recorder.body.count >= 3 })
        task.cancel()
        #expect(await eventually { recorder.completions > 0 })
        let countAtCompletion = recorder.received.count
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(recorder.received.count == countAtCompletion, "nothing after the completion")
        #expect(recorder.received.last == .completion(isSuccess: false))
        #expect(recorder.body.count < 100)
    }
}
