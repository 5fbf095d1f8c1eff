@_spi(Transport) import Salvo

/// The parts of the HTTP Archive 1.2 format (http://www.softwareishard.com/blog/har-12-spec/)
/// Salvo reads and writes. Fields Salvo does not need are optional on import and written with
/// neutral values on export (`-1` for unknown sizes, zero timings). A streamed response's chunks
/// travel in the custom field `content._chunks` (HAR allows fields starting with an underscore),
/// so an exported stream imports with its timing.
enum HARFormat {
    struct Archive: Codable {
        var log: Log
    }

    struct Log: Codable {
        var version: String?
        var creator: Creator?
        var entries: [Entry]
    }

    struct Creator: Codable {
        var name: String
        var version: String
    }

    struct Entry: Codable {
        var startedDateTime: String?
        var time: Double?
        var request: Request
        var response: Response
        var cache: Empty?
        var timings: Timings?
    }

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion: String?
        var headers: [Pair]?
        var queryString: [Pair]?
        var cookies: [Pair]?
        var headersSize: Int?
        var bodySize: Int?
        var postData: PostData?
    }

    struct PostData: Codable {
        var mimeType: String?
        var text: String?
    }

    struct Response: Codable {
        var status: Int
        var statusText: String?
        var httpVersion: String?
        var headers: [Pair]?
        var cookies: [Pair]?
        var content: Content?
        var redirectURL: String?
        var headersSize: Int?
        var bodySize: Int?
    }

    struct Content: Codable {
        var size: Int?
        var mimeType: String?
        var text: String?
        var encoding: String?
        var chunks: [Fixture.Chunk]?

        enum CodingKeys: String, CodingKey {
            case size, mimeType, text, encoding
            case chunks = "_chunks"
        }
    }

    struct Pair: Codable {
        var name: String
        var value: String
    }

    struct Timings: Codable {
        var send: Double
        var wait: Double
        var receive: Double
    }

    struct Empty: Codable {}
}
