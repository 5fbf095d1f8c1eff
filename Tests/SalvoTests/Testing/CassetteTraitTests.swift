import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Transport) import Salvo
import SalvoTesting

/// Item 5 of issue 15: each test gets its own cassette from a trait.
@Suite struct CassetteTraitTests {
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-cassette-trait-tests")

    @Test(.cassette(mode: .recordMissing, in: CassetteTraitTests.root))
    func theTraitGivesTheTestAFolderNamedAfterIt() throws {
        let cassette = try #require(Cassette.current)
        #expect(cassette.folder.lastPathComponent == "theTraitGivesTheTestAFolderNamedAfterIt")
        #expect(cassette.folder.deletingLastPathComponent().path == Self.root.path)
    }

    @Test(.cassette("checkout/step 1", mode: .passThrough, in: CassetteTraitTests.root))
    func aNamedCassetteGetsASafeFolderNameAndItsMode() throws {
        let cassette = try #require(Cassette.current)
        #expect(cassette.folder.lastPathComponent == "checkout_step_1")
        if ProcessInfo.processInfo.environment[FixtureMode.environmentVariable] == nil {
            #expect(cassette.mode == .passThrough)
        }
    }

    @Test func withoutTheTraitThereIsNoCurrentCassette() {
        #expect(Cassette.current == nil)
    }

    @Test func forTestDefaultsToAFixturesFolderNextToTheTestFile() {
        let cassette = Cassette.forTest("login")
        #expect(cassette.folder.path.hasSuffix("Tests/SalvoTests/Testing/Fixtures/CassetteTraitTests/login"))
    }

    @Test(.cassette(in: CassetteTraitTests.root), arguments: [1, 2])
    func parallelCasesEachGetTheirOwnCassette(index: Int) async throws {
        let cassette = try #require(Cassette.current)
        let call = NetCall(server: ServerConfig(host: "api.example.com"), endpoint: .get("/x/\(index)"), callbackQueue: .immediate,
                           firingFunction: cassette.firingFunction)
        let error = await #expect(throws: NetworkError.self) { try await call.response() }
        #expect(error?.description.contains("parallelCasesEachGetTheirOwnCassette") == true)
    }
}

/// A trait on a suite gives every test in it a cassette of its own.
@Suite(.cassette(in: CassetteTraitTests.root)) struct CassetteSuiteTraitTests {
    @Test func first() throws {
        #expect(try #require(Cassette.current).folder.lastPathComponent == "first")
    }

    @Test func second() throws {
        #expect(try #require(Cassette.current).folder.lastPathComponent == "second")
    }
}
