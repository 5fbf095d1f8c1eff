#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
import Testing
@_spi(Transport) @testable import Salvo

/// What Linux `URLSession`'s transport changes in a request before corelibs sees it.
@Suite struct LinuxTransferTests {
    @Test(arguments: [(0.3, 1.0), (0.5, 1.0), (1.0, 1.0), (1.5, 2.0), (2.5, 3.0), (60.0, 60.0)])
    func aTimeoutIsRoundedUpToWholeSecondsForCorelibs(seconds: Double, sent: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(LinuxTransfer.withWholeSecondTimeout(request).timeoutInterval == sent)
    }

    @Test(arguments: [0.0, -1.0, Double.infinity])
    func aTimeoutCorelibsReadsAsNoneIsLeftAlone(_ seconds: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = seconds
        #expect(LinuxTransfer.withWholeSecondTimeout(request).timeoutInterval == request.timeoutInterval)
    }
}
#endif
