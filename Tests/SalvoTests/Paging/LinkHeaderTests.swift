import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct LinkHeaderTests {
    @Test func findsNextAmongSeveralLinks() {
        let header = LinkHeader(parsing: #"<https://a.test/x?page=1>; rel="first", <https://a.test/x?page=3>; rel="next", <https://a.test/x?page=9>; rel="last""#)
        #expect(header.links.count == 3)
        #expect(header.target(forRelation: "next") == "https://a.test/x?page=3")
        #expect(header.target(forRelation: "prev") == nil)
    }

    @Test func acceptsUnquotedAndCaseInsensitiveRelations() {
        let header = LinkHeader(parsing: "</items?page=2>;REL=Next")
        #expect(header.target(forRelation: "next") == "/items?page=2")
        #expect(header.target(forRelation: "NEXT") == "/items?page=2")
    }

    @Test func splitsSeveralRelationTypesInOneRel() {
        let header = LinkHeader(parsing: #"</p/9>; rel="next last""#)
        #expect(header.links.first?.relations == ["next", "last"])
        #expect(header.target(forRelation: "last") == "/p/9")
    }

    @Test func keepsCommasAndSemicolonsInsideQuotesAndTargets() {
        let header = LinkHeader(parsing: #"<https://a.test/x?ids=1,2;3>; title="a, b; c"; rel="next", </y>; rel=prev"#)
        #expect(header.links.count == 2)
        #expect(header.target(forRelation: "next") == "https://a.test/x?ids=1,2;3")
        #expect(header.links.first?.parameters["title"] == "a, b; c")
        #expect(header.target(forRelation: "prev") == "/y")
    }

    @Test func unescapesQuotedPairs() {
        let header = LinkHeader(parsing: #"</a>; title="say \"hi\"\\"; rel="next""#)
        #expect(header.links.first?.parameters["title"] == #"say "hi"\"#)
        #expect(header.target(forRelation: "next") == "/a")
    }

    @Test func firstOccurrenceOfARepeatedParameterWins() {
        let header = LinkHeader(parsing: #"</a>; rel="prev"; rel="next""#)
        #expect(header.target(forRelation: "next") == nil)
        #expect(header.target(forRelation: "prev") == "/a")
    }

    @Test(arguments: ["", "   ", "garbage", "<unterminated; rel=next", #"no-brackets; rel="next""#, ";;;,,,"])
    func malformedInputYieldsNoNextLink(_ value: String) {
        #expect(LinkHeader(parsing: value).target(forRelation: "next") == nil)
    }

    @Test func skipsAMalformedLinkAndKeepsTheOthers() {
        let header = LinkHeader(parsing: #"junk; rel="prev", </ok>; rel="next""#)
        #expect(header.links.count == 1)
        #expect(header.target(forRelation: "next") == "/ok")
    }

    @Test func resolvesRelativeTargetsAgainstABase() throws {
        let base = try #require(URL(string: "http://a.test:8080/api/v1/items?page=1"))
        let header = LinkHeader(parsing: #"<items?page=2>; rel="next", </root?x=1>; rel="first""#)
        #expect(header.url(forRelation: "next", relativeTo: base)?.absoluteString == "http://a.test:8080/api/v1/items?page=2")
        #expect(header.url(forRelation: "first", relativeTo: base)?.absoluteString == "http://a.test:8080/root?x=1")
    }
}
