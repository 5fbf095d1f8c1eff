import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

@Suite struct ResponderLogTests {
    @Test func eventsCompareByKindNotMessage() {
        #expect(ResponderEvent.error(.transport(URLError(.timedOut))) == .error(.transport(URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "other"]))))
        #expect(ResponderEvent.error(.transport(URLError(.timedOut))) != .error(.transport(URLError(.cannotFindHost))))
        #expect(ResponderEvent.error(.cancelled) != .serverError(status: 500))
        #expect(ResponderEvent.data(Data("a".utf8)) != .data(Data("b".utf8)))
        #expect(ResponderEvent.errorData(nil) != .errorData(Data()))
    }

    @Test func descriptionsReadWellInFailureMessages() {
        #expect(ResponderEvent.httpResponse(status: 404).description == "httpResponse(404)")
        #expect(ResponderEvent.data(Data("hi".utf8)).description == #"data("hi")"#)
        #expect(ResponderEvent.error(.transport(URLError(.notConnectedToInternet))).description == "error(transport -1009)")
    }

    @Test func theOutcomeEndsAfterServerErrorNotAtItsErrorData() async {
        let log = ResponderLog()
        let call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), responder: log.responder, callbackQueue: .immediate,
                           firingFunction: .mock(.status(404, body: Data("x".utf8))))
        call.fire()
        #expect(await log.waitForOutcome() == [.task, .response, .httpResponse(status: 404), .errorData(Data("x".utf8)), .serverError(status: 404)])
        #expect(log.isFinished)
    }

    @Test func fireAndRecordKeepsTheCallsOwnHandlers() async {
        let seen = Locked(false)
        var call = NetCall(server: ServerConfig(host: "h.example"), endpoint: .get("/"), firingFunction: .mock(.text("x")))
        call.responder.dataHandler = { _ in seen.withLock { $0 = true } }
        #expect(await call.fireAndRecord().last == .data(Data("x".utf8)))
        #expect(seen.withLock { $0 })
    }
}
