import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo
import Testing

/// httpbin as a Salvo user sees it: a `ServerConfig`, and calls fired through a session of this
/// value's own over the transport under test.
///
/// The session has a cookie storage of its own, so each test never sees another test's cookies
/// (httpbin and the loopback server share the host 127.0.0.1, and a cookie is per host, not per port).
/// ```swift
/// let httpbin = try await HTTPBin(over: transport)
/// let echo = try await httpbin.call(.post("/anything", body: .json(["a": 1]))).value(as: HTTPBinEcho.self)
/// ```
struct HTTPBin: Sendable {
    let server: ServerConfig
    let firingFunction: FiringFunction

    /// httpbin on `host` (`"localhost"` is a second origin on the same server), through a new
    /// isolated session of `transport`.
    init(over transport: TransportUnderTest, host: String = "127.0.0.1", actions: [any NetworkAction] = []) async throws {
        server = ServerConfig(scheme: "http", host: host, port: try await HTTPBinServer.port(), actions: actions)
        firingFunction = .session(transport.makeIsolatedSession())
    }

    /// A call to `endpoint` on httpbin, through this value's session.
    func call(_ endpoint: Endpoint, actions: [any NetworkAction] = []) -> NetCall {
        NetCall(server: server, endpoint: endpoint, actions: actions, firingFunction: firingFunction)
    }

    /// The same server on another host name, through the same session (same cookie storage).
    func on(host: String) -> HTTPBin {
        var server = server
        server.host = host
        return HTTPBin(sharing: self, server: server)
    }

    /// `server` (httpbin with other actions or defaults), through the session of `other`.
    init(sharing other: HTTPBin, server: ServerConfig) {
        self.server = server
        self.firingFunction = other.firingFunction
    }
}

/// The `NetworkError` that `work` throws within `seconds`; nil, with an issue recorded, when it
/// succeeds, times out or throws something else.
func networkError<T: Sendable>(
    within seconds: Double = 10,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ work: @escaping @Sendable () async throws -> T
) async -> NetworkError? {
    do {
        let value = try await withTimeout(seconds, work)
        Issue.record("expected a NetworkError, got \(value)", sourceLocation: sourceLocation)
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record(error, sourceLocation: sourceLocation)
    }
    return nil
}

/// What httpbin's `/anything`, `/get`, `/delay/n`, `/headers`, `/gzip`… echo about the request;
/// each route fills some of the fields.
struct HTTPBinEcho: Decodable, Sendable {
    let method: String?
    let url: String?
    /// Query items; a name given twice has a list.
    let args: [String: OneOrMany]?
    let headers: [String: String]
    let form: [String: OneOrMany]?
    /// The body as text, or `data:application/octet-stream;base64,…` when it is not UTF-8.
    let data: String?
    let json: JSONValue?
    let gzipped: Bool?
    let deflated: Bool?
    let brotli: Bool?

    /// The request header `name` as httpbin saw it (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The body bytes: `data` decoded from its `data:` URL, or as UTF-8 text.
    var body: Data? {
        guard let data else { return nil }
        let prefix = "data:application/octet-stream;base64,"
        return data.hasPrefix(prefix) ? Data(base64Encoded: String(data.dropFirst(prefix.count))) : Data(data.utf8)
    }
}

/// A query or form value httpbin reports as a string, or as a list when the name repeats.
enum OneOrMany: Decodable, Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let list = try? container.decode([String].self) {
            self = .many(list)
        } else {
            self = .one(try container.decode(String.self))
        }
    }

    init(stringLiteral value: String) { self = .one(value) }
    init(arrayLiteral elements: String...) { self = .many(elements) }
}

/// Any JSON value, to compare what httpbin parsed from a body with what was sent.
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension NetCall {
    /// The body this call sends, as its request carries it; `nil` when it is streamed or absent.
    var sentBody: Data? { (try? urlRequest())?.httpBody }
}
