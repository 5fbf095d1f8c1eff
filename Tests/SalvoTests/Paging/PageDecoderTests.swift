import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct PageDecoderTests {
    private func response(_ json: String) -> NetworkResponse {
        NetworkResponse(data: Data(json.utf8), urlResponse: nil)
    }

    @Test func decodesABareArray() throws {
        let page = try PageDecoder<ListItem>.array().decode(response(#"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#))
        #expect(page.items.map(\.id) == [1, 2])
        #expect(page.totalCount == nil && page.nextCursor == nil)
    }

    @Test func decodesAnObjectWithItsMetadata() throws {
        let json = #"{"items":[{"id":1,"name":"a"}],"total":95,"total_pages":10,"next_cursor":"c2","has_more":true}"#
        let page = try PageDecoder<ListItem>.object().decode(response(json))
        #expect(page.items.map(\.id) == [1])
        #expect(page.totalCount == 95 && page.totalPages == 10 && page.nextCursor == "c2" && page.hasMore == true)
    }

    @Test func readsNestedKeysAndNumericCursors() throws {
        let json = #"{"data":{"results":[{"id":7,"name":"x"}]},"meta":{"next":42,"count":"oops"}}"#
        let decoder = PageDecoder<ListItem>.object(itemsKey: "data.results", totalCountKey: "meta.count", nextCursorKey: "meta.next")
        let page = try decoder.decode(response(json))
        #expect(page.items.map(\.id) == [7])
        #expect(page.nextCursor == "42")
        #expect(page.totalCount == nil, "metadata of another type is ignored, not an error")
    }

    @Test func nullMetadataIsNil() throws {
        let page = try PageDecoder<ListItem>.object().decode(response(#"{"items":[],"next_cursor":null}"#))
        #expect(page.items.isEmpty && page.nextCursor == nil)
    }

    @Test(arguments: [#"{"elements":[]}"#, "not json", #"[1,2]"#, ""])
    func aBodyWithoutItemsIsADecodingError(_ json: String) {
        #expect {
            try PageDecoder<ListItem>.object().decode(response(json))
        } throws: { error in
            guard case .decoding(let failure) = error as? NetworkError else { return false }
            return failure.body == Data(json.utf8)
        }
    }

    @Test func decodesAnyWrapperWithATransform() throws {
        struct Wrapper: Decodable, Sendable {
            struct Meta: Decodable, Sendable { let next: String? }
            let results: [ListItem]
            let meta: Meta
        }
        let decoder = PageDecoder<ListItem>.decoding(Wrapper.self) { body in
            Page(items: body.results, nextCursor: body.meta.next)
        }
        let page = try decoder.decode(response(#"{"results":[{"id":3,"name":"c"}],"meta":{"next":"n"}}"#))
        #expect(page.items.map(\.id) == [3] && page.nextCursor == "n")
    }

    @Test func aNetworkErrorThrownByTheClosurePassesThrough() {
        let decoder = PageDecoder<ListItem> { _ in throw NetworkError.cancelled }
        #expect(throws: NetworkError.self) { try decoder.decode(response("{}")) }
    }
}
