import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Salvo
import SalvoTesting

// The code in Docs/Errors.md, kept here so it cannot rot. Namespaced so that its names do not
// clash with other guides' samples.
enum ErrorsGuide {
    struct Profile: Decodable, Sendable { let name: String }
    struct OAuthProblem: Decodable, Sendable { let error: String }

    /// The app's sign-in state.
    actor Session {
        private(set) var isSignedIn = true
        func signOut() { isSignedIn = false }
    }

    /// Where the app logs (an `os.Logger` in a real app).
    static let log: @Sendable (String) -> Void = { _ in }

    static func profile(_ call: NetCall, session: Session) async throws -> Profile? {
        do {
            return try await TypedCall<Profile, OAuthProblem>(call).value()
        } catch {
            guard error.error.isRenewalFailure else { throw error }
            // The refresh endpoint answered, say, 401 {"error": "invalid_grant"}.
            log("renewal failed with status \(error.error.renewalError?.statusCode ?? 0): \(error.body?.error ?? "")")
            await session.signOut()
            return nil
        }
    }
}

@Suite struct ErrorsSamples {
    @Test func aRefusedRenewalSignsTheUserOut() async throws {
        let api = ScriptedSession(.status(401))
        let auth = ScriptedSession(.status(401, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"invalid_grant"}"#.utf8)))
        let renewalCall = NetCall(server: ServerConfig(host: "auth.example.com"), endpoint: .post("/oauth/token"), firingFunction: auth.firingFunction)
        var server = ServerConfig(host: "api.example.com")
        server.actions = [TokenRenewalAction { _ = try await renewalCall.response() }, AuthTokenAction { "expired" }]
        let call = NetCall(server: server, endpoint: Endpoint.get("/me").requiringAuthentication(), firingFunction: api.firingFunction)
        let session = ErrorsGuide.Session()
        #expect(try await ErrorsGuide.profile(call, session: session) == nil)
        #expect(await session.isSignedIn == false)
    }
}
