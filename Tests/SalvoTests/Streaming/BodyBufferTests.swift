import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// The bounded buffer between a stream and its reader.
@Suite(.leavesNoSpillFiles) struct BodyBufferTests {
    private func chunk(_ index: Int, size: Int = 1_000) -> Data {
        Data(repeating: UInt8(index % 256), count: size)
    }

    @Test func whatDoesNotFitInMemoryWaitsInAFileAndComesBackInOrder() async throws {
        let buffer = BodyBuffer(memoryLimit: 10_000)
        for index in 0..<100 { buffer.receive(chunk(index)) }
        buffer.finish(nil)
        #expect(buffer.bytesInMemory <= 10_000)
        let file = try #require(buffer.backlogFile)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the backlog has no name once open: nothing outlives the process")

        var body = Data()
        while let part = try await buffer.next() { body.append(part) }
        #expect(body == (0..<100).reduce(into: Data()) { $0.append(chunk($1)) })
        #expect(buffer.backlogFile == nil, "the backlog is let go once read: its descriptors close")
    }

    /// Parts beyond memory are gathered into larger writes; a reader at the file's end takes the
    /// gathered ones from memory. Whatever the interleaving, the body comes back whole and in order.
    @Test func gatheredWritesKeepTheBodyInOrderWhileTheReaderCatchesUp() async throws {
        let buffer = BodyBuffer(memoryLimit: 10_000, spillSize: 4_000)
        var body = Data()
        for index in 0..<300 {
            buffer.receive(chunk(index))
            if index % 7 == 0, let part = try await buffer.next() { body.append(part) }
            if index == 100 { #expect(buffer.backlogBytesWritten > 0 && buffer.backlogBytesWritten % 4_000 == 0, "written in gathered writes") }
        }
        buffer.finish(nil)
        while let part = try await buffer.next() { body.append(part) }
        #expect(body == (0..<300).reduce(into: Data()) { $0.append(chunk($1)) })
        #expect(buffer.backlogFile == nil)
    }

    /// Five chunks behind for 5,000 chunks: the buffer is never empty, and never grows either.
    @Test func aReaderThatKeepsPaceNeverTouchesTheDisk() async throws {
        let buffer = BodyBuffer(memoryLimit: 10_000)
        var total = 0
        for index in 0..<5 { buffer.receive(chunk(index, size: 100)) }
        for index in 5..<5_000 {
            buffer.receive(chunk(index, size: 100))
            if let part = try await buffer.next() { total += part.count }
            #expect(buffer.bytesInMemory == 500)
        }
        #expect(buffer.backlogFile == nil)
        buffer.finish(nil)
        while let part = try await buffer.next() { total += part.count }
        #expect(total == 500_000)
    }

    @Test func cancellingDeletesTheBacklogAndEndsTheReadWithCancelled() async throws {
        let buffer = BodyBuffer(memoryLimit: 1_000)
        for index in 0..<20 { buffer.receive(chunk(index)) }
        #expect(buffer.backlogFile != nil)
        buffer.cancel()
        #expect(buffer.backlogFile == nil)
        await #expect(throws: NetworkError.self) { try await buffer.next() }
    }

    @Test func cancellingAfterACleanEndDropsWhatWasNotRead() async throws {
        let buffer = BodyBuffer(memoryLimit: 1_000)
        for index in 0..<20 { buffer.receive(chunk(index)) }
        buffer.finish(nil)
        #expect(buffer.backlogFile != nil)
        buffer.cancel()
        #expect(buffer.backlogFile == nil, "the reader left: the backlog goes now")
        await #expect(throws: NetworkError.self, "never a body cut short that looks whole") { try await buffer.next() }
    }

    @Test func cancellingAfterEverythingWasReadKeepsTheCleanEnd() async throws {
        let buffer = BodyBuffer()
        buffer.receive(chunk(1))
        buffer.finish(nil)
        #expect(try await buffer.next() == chunk(1))
        buffer.cancel()
        #expect(try await buffer.next() == nil)
    }

    /// The task keeps its body's receiver; the buffer kept its task too, so neither went away.
    @Test func aStreamReleasesItsBufferOnceTheReaderLeavesAfterTheEnd() async throws {
        let call = NetCall(server: ServerConfig(host: "files.test"), endpoint: .get("/big"), firingFunction: .mock(.data(Data(count: 10_000))))
        weak var released: BodyBuffer?
        do {
            let body = call.bytes()
            released = (body.source as? BodySource)?.stream.buffer
            for try await _ in body {
                #expect(await eventually { body.task?.isFinished == true })
                break
            }
        }
        // Polled here: a weak variable cannot cross into `eventually`'s closure.
        let deadline = Date().addingTimeInterval(60)
        while released != nil, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(released == nil)
    }

    @Test func aWaitingReaderGetsTheNextChunkAndThenTheEnd() async throws {
        let buffer = BodyBuffer()
        async let first = buffer.next()
        try await Task.sleep(for: .milliseconds(20))
        buffer.receive(Data("hello".utf8))
        #expect(try await first == Data("hello".utf8))
        async let end = buffer.next()
        try await Task.sleep(for: .milliseconds(20))
        buffer.finish(URLError(.networkConnectionLost))
        let result: Result<Data?, NetworkError>
        do { result = .success(try await end) } catch { result = .failure(error as? NetworkError ?? .cancelled) }
        guard case .failure(.transport(let urlError)) = result else {
            Issue.record("the end carries the error, got \(result)")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
    }

    @Test func theHeadWaitsForTheResponseOrTheError() async throws {
        let buffer = BodyBuffer()
        let head = Task { () async -> Bool in
            do { _ = try await buffer.head(); return false } catch { return true }
        }
        try await Task.sleep(for: .milliseconds(20))
        buffer.finish(URLError(.timedOut))
        #expect(await head.value, "the head throws the error the exchange ended with")
    }
}
