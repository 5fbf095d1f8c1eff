import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) @testable import Salvo
import SalvoTesting

/// `FiringFunction.unimplemented` fails the test that fires through it, naming the call.
@Suite struct UnimplementedFiringTests {
    @Test func firingRecordsAnIssueNamingTheCallAndFailsTheCall() async throws {
        let call = NetCall(server: ServerConfig(host: "api.test", basePath: "v1"), endpoint: .get("/users/42"), callbackQueue: .immediate,
                           firingFunction: .unimplemented("the cache should answer"))
        await withKnownIssue {
            let outcome = await result(of: call)
            guard case .failure(.incompleteSetup) = outcome else { Issue.record("the call must fail at once, got \(outcome)"); return }
        } matching: { issue in
            issue.description.contains("GET https://api.test/v1/users/42") && issue.description.contains("the cache should answer")
        }
    }
}
