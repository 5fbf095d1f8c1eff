import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InMemoryTracing
import Salvo
import SalvoTesting
import SalvoTracing
import Testing
import Tracing

/// Issue 31: one span per call and per attempt, OpenTelemetry's HTTP client attributes, and the
/// context injected into each request through the instrument.
@Suite struct TracingTests {
    @Test func aCallIsOneSpanWithAChildSpanPerAttempt() async throws {
        let tracer = InMemoryTracer()
        let seen = Transcript()
        let firing = FiringFunction.mock(clock: .immediate) { request in
            seen.append(request.header(InMemoryTracer.spanIDKey) ?? "-")
            return seen.all.count == 1 ? .status(503) : .text("ok")
        }
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/users/42", query: ["token": "t-secret-value"]),
            actions: [RetryAction(baseDelay: 0)], callbackQueue: .immediate, firingFunction: .traced(firing, tracer: tracer)
        )
        _ = try await call.response()
        let spans = tracer.finishedSpans
        try #require(spans.count == 3)
        let callSpan = try #require(spans.first { $0.operationName == "GET /users/{id}" })
        let attempts = spans.filter { $0.operationName == "GET" }
        #expect(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.parentSpanID == callSpan.spanID && $0.traceID == callSpan.traceID })
        #expect(callSpan.kind == .client && attempts.allSatisfy { $0.kind == .client })
        #expect(callSpan.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(callSpan.attributes["server.address"]?.toSpanAttribute() == "api.test")
        #expect(callSpan.attributes["server.port"]?.toSpanAttribute() == 443)
        #expect(callSpan.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(callSpan.status == nil)
        let first = try #require(attempts.first { $0.attributes["http.request.resend_count"] == nil })
        let retry = try #require(attempts.first { $0.attributes["http.request.resend_count"] != nil })
        #expect(first.attributes["http.response.status_code"]?.toSpanAttribute() == 503)
        #expect(first.attributes["error.type"]?.toSpanAttribute() == "503")
        #expect(first.status?.code == .error)
        #expect(retry.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
        #expect(retry.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        guard case .string(let url)? = first.attributes["url.full"]?.toSpanAttribute() else {
            Issue.record("the attempt span has no url.full")
            return
        }
        #expect(url.hasPrefix("https://api.test/users/42?token="))
        #expect(!url.contains("t-secret-value"))
        // Each attempt's request carried its own span's context, injected by the instrument.
        #expect(seen.all == [first.spanID, retry.spanID])
    }

    @Test func withoutABootstrappedTracerTheCallFiresUntouched() async throws {
        let headers = Transcript()
        let firing = FiringFunction.mock { request in
            headers.append(request.request.allHTTPHeaderFields?.keys.sorted().joined(separator: ",") ?? "")
            return .text("ok")
        }
        let call = NetCall(server: ServerConfig(host: "api.test"), endpoint: .get("/x"), callbackQueue: .immediate, firingFunction: .traced(firing))
        #expect(try await call.response().data == Data("ok".utf8))
        #expect(headers.all.count == 1)
        #expect(!headers.text.lowercased().contains("trace"))
    }

    @Test func aFailedCallEndsItsSpanWithTheErrorType() async throws {
        let tracer = InMemoryTracer()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/x"), callbackQueue: .immediate,
            firingFunction: .traced(.mock(.failure(.timedOut)), tracer: tracer)
        )
        _ = try? await call.response()
        let callSpan = try #require(tracer.finishedSpans.first { $0.operationName == "GET /x" })
        #expect(callSpan.attributes["error.type"]?.toSpanAttribute() == "timeout")
        #expect(callSpan.status?.code == .error)
    }

    @Test func aCancelledCallEndsItsSpanAndTheOpenAttempt() async throws {
        let tracer = InMemoryTracer()
        let time = TestClock()
        let call = NetCall(
            server: ServerConfig(host: "api.test"), endpoint: .get("/slow"), callbackQueue: .immediate,
            firingFunction: .traced(.mock(.text("late").delayed(by: 60), clock: time.clock), tracer: tracer)
        )
        let task = call.fire()
        #expect(await time.waitForSleepers(1, timeout: 10))
        task.cancel()
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        #expect(spans.allSatisfy { $0.attributes["error.type"]?.toSpanAttribute() == "cancelled" })
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aCallFiredFromAnActionIsAChildOfTheCallSpan() async throws {
        let tracer = InMemoryTracer()
        let renewal = NetCall(
            server: ServerConfig(host: "auth.test"), endpoint: .post("/token"), callbackQueue: .immediate,
            firingFunction: .traced(.mock(.text("token")), tracer: tracer)
        )
        let call = NetCall(
            server: ServerConfig(host: "api.test", defaultHeaders: ["Authorization": "Bearer old"]), endpoint: .get("/me"),
            actions: [TokenRenewalAction { _ = try await renewal.response() }],
            callbackQueue: .immediate,
            firingFunction: .traced(.mock(.sequence([.status(401)], then: .text("me"))), tracer: tracer)
        )
        _ = try await call.response()
        let spans = tracer.finishedSpans
        let callSpan = try #require(spans.first { $0.operationName == "GET /me" })
        let renewalSpan = try #require(spans.first { $0.operationName == "POST /token" })
        #expect(renewalSpan.parentSpanID == callSpan.spanID)
    }
}
