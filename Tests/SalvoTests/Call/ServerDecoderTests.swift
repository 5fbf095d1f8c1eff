import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

/// One rule for every untyped path: the server's decoder, unless the call passes its own
/// (issue 27, defect 5). The server here decodes snake-case keys; a plain `JSONDecoder` does not.
@Suite struct ServerDecoderTests {
    struct Token: Decodable, Sendable, Equatable {
        let accessToken: String
    }

    struct Problem: Decodable, Sendable, Equatable {
        let errorMessage: String
    }

    struct Book: Decodable, Sendable, Equatable {
        let bookTitle: String
    }

    private static let token = Data(#"{"access_token":"t-1"}"#.utf8)

    private static var server: ServerConfig {
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        return ServerConfig(host: "api.test", decoder: snakeCase)
    }

    private func call(answering response: MockResponse) -> NetCall {
        NetCall(server: Self.server, endpoint: .get("/token"), callbackQueue: .immediate, firingFunction: .mock(response))
    }

    @Test func valueDecodesWithTheServersDecoder() async throws {
        #expect(try await call(answering: .data(Self.token)).value(as: Token.self) == Token(accessToken: "t-1"))
    }

    @Test func valueWithAnErrorBodyDecodesBothWithTheServersDecoder() async throws {
        let refused = call(answering: .data(Data(#"{"error_message":"expired"}"#.utf8), status: 401))
        let error = await #expect(throws: APIError<Problem>.self) { try await TypedCall<Token, Problem>(refused).value() }
        #expect(error?.body == Problem(errorMessage: "expired"))
        #expect(try await TypedCall<Token, Problem>(call(answering: .data(Self.token))).value().accessToken == "t-1")
    }

    @Test func aDecoderOfTheCallsOwnWins() async {
        await #expect(throws: NetworkError.self) {
            try await call(answering: .data(Self.token)).value(as: Token.self, decoder: JSONDecoder())
        }
    }

    @Test func aDecodingResponderUsesTheServersDecoder() async throws {
        var fired = call(answering: .data(Self.token))
        let result = await withCheckedContinuation { continuation in
            fired.responder = .decoding(Token.self) { continuation.resume(returning: $0) }
            fired.fire()
        }
        #expect(try result.get() == Token(accessToken: "t-1"))
    }

    @Test func aTypedCallsCallbackDecodesTheErrorBodyWithTheServersDecoder() async {
        let fired = call(answering: .data(Data(#"{"error_message":"expired"}"#.utf8), status: 401))
        let result = await withCheckedContinuation { continuation in
            TypedCall<Token, Problem>(fired).fire(on: .immediate) { continuation.resume(returning: $0) }
        }
        guard case .failure(let error) = result else {
            Issue.record("a 401 succeeded")
            return
        }
        #expect(error.body == Problem(errorMessage: "expired"))
    }

    @Test func aDecodingResponderWithADecoderOfItsOwnUsesThatOne() async {
        var fired = call(answering: .data(Self.token))
        let result = await withCheckedContinuation { continuation in
            fired.responder = .decoding(Token.self, decoder: JSONDecoder()) { continuation.resume(returning: $0) }
            fired.fire()
        }
        #expect(throws: NetworkError.self) { try result.get() }
    }

    @Test func pageDecoderObjectUsesTheServersDecoder() async throws {
        let page = Data(#"{"items":[{"book_title":"Dune"}],"has_more":false}"#.utf8)
        let pager = Pager(call: call(answering: .data(page)), strategy: .pageNumber(pageSize: 10), decoder: PageDecoder<Book>.object())
        await pager.loadNextPage()
        #expect(pager.error == nil)
        #expect(pager.items == [Book(bookTitle: "Dune")])
    }

    @Test func pageDecoderArrayUsesTheServersDecoder() async throws {
        let page = Data(#"[{"book_title":"Emma"}]"#.utf8)
        let pager = Pager(call: call(answering: .data(page)), strategy: .pageNumber(pageSize: 10), decoder: PageDecoder<Book>.array())
        await pager.loadNextPage()
        #expect(pager.items == [Book(bookTitle: "Emma")])
    }

    @Test func refresherUsesTheServersDecoder() async {
        let refresher = Refresher(call: call(answering: .data(Self.token)), as: Token.self)
        await refresher.refresh()
        #expect(refresher.error == nil)
        #expect(refresher.value == Token(accessToken: "t-1"))
    }

    @Test func anEventOfAStreamDecodesWithTheServersDecoder() async throws {
        let stream = call(answering: .text("data: {\"access_token\":\"t-2\"}\n\n", headers: ["Content-Type": "text/event-stream"]))
        var events = stream.events(reconnection: .never).makeAsyncIterator()
        let event = try #require(try await events.next())
        #expect(try event.decode(Token.self) == Token(accessToken: "t-2"))
        #expect(throws: NetworkError.self) { try event.decode(Token.self, using: JSONDecoder()) }
    }

    @Test func anEventMadeByHandDecodesWithAPlainDecoder() throws {
        let event = ServerSentEvent(data: #"{"accessToken":"t-3"}"#)
        #expect(try event.decode(Token.self) == Token(accessToken: "t-3"))
    }
}
