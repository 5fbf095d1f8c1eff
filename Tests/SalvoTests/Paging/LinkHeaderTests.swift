import Foundation
import Testing
@testable import Salvo

@Suite struct LinkHeaderTests {
    @Test func parsesPlaceholder() {
        #expect(LinkHeader(parsing: "<a>; rel=next").target(forRelation: "next") == "a")
    }
}
