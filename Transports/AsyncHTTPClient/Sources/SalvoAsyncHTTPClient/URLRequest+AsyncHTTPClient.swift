import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import enum Salvo.NetworkError
@_spi(Transport) import struct Salvo.RequestProblem

extension URLRequest {
    /// The header fields `URLSession` adds to a request without them, so that a server sees
    /// the same request from either transport (AsyncHTTPClient adds `Host` and the framing itself,
    /// and `Accept-Encoding` when it decompresses).
    static let defaultFields: KeyValuePairs<String, String> = [
        "Accept": "*/*",
        "User-Agent": "Salvo (AsyncHTTPClient)",
    ]

    /// This request as AsyncHTTPClient sends it; a body larger than a part is written on
    /// `eventLoop` part by part (``BodyUpload``).
    ///
    /// The body is `httpBody`, else `httpBodyStream`, sent with the request's `Content-Length`
    /// when it has one and chunked otherwise.
    ///
    /// - Throws: `URLError(.badURL)` or `.unsupportedURL` for a URL AsyncHTTPClient cannot
    ///   request, as `URLSession` fails it; `NetworkError.invalidRequest` for a method that is
    ///   no HTTP token (it would rewrite the request line). AsyncHTTPClient checks header names
    ///   and values when the request is sent.
    func asyncHTTPClientRequest(uploadingOn eventLoop: any EventLoop) throws -> HTTPClient.Request {
        guard let url else { throw URLError(.badURL) }
        // AsyncHTTPClient also speaks to Unix sockets (`unix:`, `http+unix:`); URLSession and
        // Salvo's redirect rules know HTTP and HTTPS only.
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw URLError(.unsupportedURL, userInfo: [NSURLErrorFailingURLErrorKey: url, NSLocalizedDescriptionKey: "only http and https URLs can be requested"])
        }
        let methodName = httpMethod ?? "GET"
        // A method with a space or line break would rewrite the request line: AsyncHTTPClient
        // sends whatever it is given.
        guard !methodName.isEmpty, methodName.utf8.allSatisfy(Self.isTokenCharacter) else {
            throw NetworkError.invalidRequest(RequestProblem(.method, "method \"\(methodName)\" must be a non-empty HTTP token, such as GET or PROPFIND"))
        }
        let method = HTTPMethod(rawValue: methodName)
        var headers = HTTPHeaders()
        let fields = allHTTPHeaderFields ?? [:]
        headers.reserveCapacity(fields.count + 2)
        for (name, value) in fields {
            headers.add(name: name, value: value)
        }
        for (name, value) in Self.defaultFields where !headers.contains(name: name) {
            headers.add(name: name, value: value)
        }
        do {
            return try HTTPClient.Request(url: url, method: method, headers: headers, body: body(uploadingOn: eventLoop))
        } catch {
            throw TransportError.map(error, url: url)
        }
    }

    /// An RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private func body(uploadingOn eventLoop: any EventLoop) -> HTTPClient.Body? {
        if let httpBody {
            return BodyUpload.body(sending: httpBody, on: eventLoop)
        }
        guard let httpBodyStream else { return nil }
        let length = value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        return BodyUpload.body(streaming: httpBodyStream, contentLength: length.flatMap { $0 >= 0 ? $0 : nil }, on: eventLoop)
    }
}
