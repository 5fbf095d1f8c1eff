import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo

// The code in Docs/Actions.md, kept here so it cannot rot. Namespaced so that its names do not
// clash with other guides' samples.
enum ActionsGuide {
    // MARK: - Writing an action

    struct UserAgent: NetworkAction {
        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            request.setValue("MyApp/2.1", forHTTPHeaderField: "User-Agent")
            return request
        }
    }

    struct MissingSigningKey: Error, CustomStringConvertible {
        var description: String { "no signing key; call Signer.configure() first" }
    }

    struct RequestSigner: NetworkAction {
        let key: String

        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            guard !key.isEmpty else {
                throw MissingSigningKey()  // the caller gets .refusedByAction(MissingSigningKey())
            }
            var request = request
            let body = request.httpBody ?? Data()
            request.setValue("\(key):\(body.count)", forHTTPHeaderField: "X-Signature")
            return request
        }
    }

    struct MaintenanceMode: NetworkAction {
        func decide(after outcome: AttemptOutcome, for call: NetCall, attempt: Int) async -> ActionDecision {
            guard outcome.head?.statusCode == 503, outcome.head?.headers["X-Maintenance"] != nil else {
                return .proceed
            }
            return .fail(.unacceptableResponse(ResponseProblem("the service is down for maintenance", outcome: outcome)))
        }
    }

    struct DebugHeaders: NetworkAction {
        let isEnabled: @Sendable () -> Bool

        func isActive(for call: NetCall) -> Bool { isEnabled() }

        func prepare(_ request: URLRequest, for call: NetCall) async throws -> URLRequest {
            var request = request
            request.setValue("1", forHTTPHeaderField: "X-Debug")
            return request
        }
    }

    // MARK: - Auth and refresh

    /// Where the app keeps its tokens (the keychain, in a real app).
    actor TokenStore {
        private(set) var accessToken: String?
        func store(_ token: String?) { accessToken = token }
    }

    /// `{"access_token": "…"}`: the API spells its keys in snake case.
    struct TokenReply: Decodable {
        let accessToken: String
    }

    static let tokens = TokenStore()

    static func makeServer(log: @escaping @Sendable (String) -> Void = { print($0) }) -> ServerConfig {
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        var api = ServerConfig(host: "api.example.com", basePath: "v1", decoder: snakeCase)
        let renewalCall = NetCall(server: api, endpoint: .post("/auth/refresh"))
        let renewal = TokenRenewalAction {
            let reply = try await renewalCall.value(as: TokenReply.self)   // decoded with the server's decoder
            await tokens.store(reply.accessToken)
        }
        api.actions = [
            RetryAction(maxAttempts: 4),                                // outermost: decides last
            renewal,
            AuthTokenAction(for: api) { await tokens.accessToken },
            ValidationAction.json,
            LoggingAction(includesHeaders: true, sink: log),            // innermost: closest to the wire
        ]
        return api
    }

    static func profileCall(on api: ServerConfig) -> NetCall {
        let me = NetCall(server: api, endpoint: Endpoint.get("/me").requiringAuthentication())
        return me
    }

    /// "The token follows the call's server": switching environments is one value swap.
    static func stagingServer() -> ServerConfig {
        var production = ServerConfig(host: "api.example.com")
        production.actions = [AuthTokenAction { await tokens.accessToken }]
        var staging = production
        staging.host = "staging.example.com"   // staging calls carry the token to staging only
        return staging
    }

    /// "Validation": the server's rule, and a call that replaces it.
    static func validating(_ server: ServerConfig) -> ServerConfig {
        var api = server
        api.actions = [ValidationAction.json]        // application/json and application/*+json
        return api
    }

    static func avatarCall(on api: ServerConfig) -> NetCall {
        var avatar = NetCall(server: api, endpoint: Endpoint.get("/me/avatar").requiringAuthentication())
        avatar.actions = [ValidationAction(contentTypes: ["image/png", "image/jpeg"])]   // replaces the server's JSON rule
        return avatar
    }

    // MARK: - Retry

    static let patientPolicy: RetryAction = {
        var patient = RetryAction(maxAttempts: 5, baseDelay: 1, maxDelay: 20)
        patient.retryableStatusCodes.insert(425)
        patient.retryableMethods.insert(.post)   // only if your POSTs are safe to repeat
        return patient
    }()

    // MARK: - Logging and cURL

    static func verboseLogging() -> LoggingAction {
        let verbose = LoggingAction(
            includesHeaders: true,
            includesBodies: true,
            bodyLimit: 1_000,
            redaction: .default.adding(headers: ["X-Api-Key"], queryKeys: ["session_key"])
        ) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        return verbose
    }

    static func debugCommand() throws(NetworkError) -> String {
        let login = NetCall(server: ServerConfig(host: "api.example.com"),
                            endpoint: .post("/login", body: .form(["user": "ann", "password": "hunter2"])))
        let command = try login.curlCommand()
        return command
    }
}

/// Answers every request with `200 {"token":"t-2"}` as JSON, so the samples run without a network.
private struct ActionsSampleSession: NetworkSession {
    func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> any NetworkSessionTask {
        let response = HTTPURLResponse(url: request.url ?? URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])
        completion(Data(#"{"access_token":"t-2"}"#.utf8), response, nil)
        return NoTask()
    }

    struct NoTask: NetworkSessionTask {
        func cancel() {}
    }
}

@Suite struct ActionsSamples {
    @Test func theRecommendedChainRunsAndLogsWithoutTheToken() async throws {
        await ActionsGuide.tokens.store("t-1")
        let lines = ActionsSampleLines()
        var call = ActionsGuide.profileCall(on: ActionsGuide.makeServer(log: lines.append))
        call.actions = [ActionsGuide.UserAgent(), ActionsGuide.RequestSigner(key: "k")]
        call.firingFunction = .session(ActionsSampleSession())
        let reply = try await call.value(as: ActionsGuide.TokenReply.self)
        #expect(reply.accessToken == "t-2")
        #expect(lines.text.contains("Authorization: <redacted>"))
        #expect(!lines.text.contains("t-1"))
    }

    @Test func environmentsAndValidationAreOneValueSwap() {
        #expect(ActionsGuide.stagingServer().host == "staging.example.com")
        #expect(ActionsGuide.validating(ActionsGuide.stagingServer()).actions.count == 1)
        _ = ActionsGuide.verboseLogging()
    }

    @Test func theCurlSampleHidesThePassword() throws {
        let command = try ActionsGuide.debugCommand()
        #expect(command == "curl -X POST 'https://api.example.com/login' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'user=ann&password=<redacted>'")
    }
}

/// Collects log lines from any thread.
private final class ActionsSampleLines: @unchecked Sendable {
    // Safe: every access to `lines` holds `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
