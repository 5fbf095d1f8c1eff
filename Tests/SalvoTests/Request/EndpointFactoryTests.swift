import Foundation
import Testing
@_spi(Transport) @testable import Salvo

/// Every method factory takes the same query and headers; bodies where a method carries one.
@Suite struct EndpointFactoryTests {
    @Test func everyFactoryTakesQueryAndHeaders() {
        let query: KeyValuePairs<String, String> = ["v": "1", "v": "2"]
        let endpoints: [Endpoint] = [
            .get("/x", query: query, headers: ["H": "h"]),
            .head("/x", query: query, headers: ["H": "h"]),
            .delete("/x", query: query, headers: ["H": "h"]),
            .post("/x", query: query, body: .text("b"), headers: ["H": "h"]),
            .put("/x", query: query, body: .json(["a": 1]), headers: ["H": "h"]),
            .patch("/x", query: query, body: .form(["a": "1"]), headers: ["H": "h"]),
        ]
        for endpoint in endpoints {
            #expect(endpoint.query == [URLQueryItem(name: "v", value: "1"), URLQueryItem(name: "v", value: "2")])
            #expect(endpoint.headers["h"] == "h")
        }
        #expect(endpoints.map(\.method) == [.get, .head, .delete, .post, .put, .patch])
    }

    @Test func deleteMayCarryABody() {
        #expect(Endpoint.delete("/items", body: .text("ids=1,2")).body.data == Data("ids=1,2".utf8))
        #expect(Endpoint.delete("/items", body: .json([1, 2])).body.contentType == "application/json")
        #expect(Endpoint.delete("/items").body == .none)
    }

    @Test func putAndPatchSendForms() {
        #expect(Endpoint.put("/p", body: .form(["a b": "c&d"])).body.data == Data("a+b=c%26d".utf8))
        #expect(Endpoint.patch("/p", body: .form(["k": "v"])).body.contentType == "application/x-www-form-urlencoded")
    }

    @Test func addingQueryTakesTheFactoriesKeyValueForm() {
        let endpoint = Endpoint.get("/tags", query: ["t": "a"]).adding(query: ["t": "b", "sort": "name"])
        #expect(endpoint.query.map(\.name) == ["t", "t", "sort"])
        #expect(endpoint.query.map(\.value) == ["a", "b", "name"])
    }
}
