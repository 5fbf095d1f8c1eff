import Foundation
import Testing
import Salvo

// The code in Docs/Linux.md, kept here so it cannot rot.

/// `call`'s response, or `NetworkError.cancelled` once `seconds` (any fraction) have passed.
func response(of call: NetCall, within seconds: Double) async throws -> NetworkResponse {
    let work = Task { try await call.response() }
    let deadline = Task {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        work.cancel()
    }
    defer { deadline.cancel() }
    return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
}

@Suite struct LinuxSamples {
    private let server = ServerConfig(host: "api.example.com")

    @Test func aDeadlineShorterThanASecondCancelsTheCall() async throws {
        let slow = NetCall(server: server, endpoint: .get("/report"), firingFunction: .mock(.text("done").delayed(by: 30)))
        let started = Date()
        let error = await #expect(throws: NetworkError.self) { try await response(of: slow, within: 0.2) }
        guard case .cancelled? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aCallWithinItsDeadlineAnswers() async throws {
        let quick = NetCall(server: server, endpoint: .get("/report"), firingFunction: .mock(.text("done")))
        #expect(try await response(of: quick, within: 5).data == Data("done".utf8))
    }
}
