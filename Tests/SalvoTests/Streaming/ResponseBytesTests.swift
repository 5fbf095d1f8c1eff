import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// `bytes()` over a scripted streaming session.
@Suite struct ResponseBytesTests {
    @Test func cancellingATaskWaitingForTheHeadCancelsTheCall() async throws {
        let session = ScriptedStreamSession([[.hang]])
        let call = NetCall(server: ServerConfig(host: "slow.example"), endpoint: .get("/export"), firingFunction: .session(session))
        let body = call.bytes()
        let waiting = Task { () -> NetworkError? in
            do throws(NetworkError) {
                _ = try await body.head
                return nil
            } catch {
                return error
            }
        }
        #expect(await eventually { session.requests.count == 1 })
        waiting.cancel()
        let error = try #require(await finished(waiting), "the cancelled task still waits for the head")
        #expect(error?.isCancelled == true)
        #expect(session.cancellations == 1)
        #expect(body.task?.isCancelled == true)
    }
}
