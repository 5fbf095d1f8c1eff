import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetCall {
    /// The request this call sends, before any action adapts it.
    ///
    /// It was built when the call was configured, so asking for it again costs nothing; a body
    /// read from files gets a stream of its own each time, so that two firings (or a firing and
    /// this) never read one stream. Every firing asks for it here.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming the part that is wrong: an empty host, one
    ///   with spaces or a port, an IPv6 literal that is not RFC 4291 text, a port outside 1–65535, a
    ///   path with `?`, `#` or a literal `.`/`..` segment, a method that is not an HTTP token, a header
    ///   with CR/LF, a body on a GET or HEAD, or a body that could not be encoded. Such a call never
    ///   reaches the wire.
    public func urlRequest() throws(NetworkError) -> URLRequest {
        var request = try configuredRequest.get()
        if endpoint.body.isStreamed { try endpoint.body.attachStream(to: &request) }
        return request
    }

    /// The request `server` and `endpoint` describe, or the invalid-request error saying why not.
    static func build(_ server: ServerConfig, _ endpoint: Endpoint) -> Result<URLRequest, NetworkError> {
        Result { () throws(NetworkError) in try makeRequest(server, endpoint) }
    }

    private static func makeRequest(_ server: ServerConfig, _ endpoint: Endpoint) throws(NetworkError) -> URLRequest {
        try validate(method: endpoint.method.rawValue)
        switch endpoint.body.content {
        case .data, .multipart, .file, .stream:
            try refuseBody(for: endpoint.method.rawValue)
        case .none, .unencodable:
            break
        }
        let url = try server.url(for: endpoint)
        var request = URLRequest(url: url)
        // A new request is already a GET; setting the method is not free on Linux (it is normalised).
        if endpoint.method != .get { request.httpMethod = endpoint.method.rawValue }
        // Exact: a transport that cannot honour it (Linux URLSession) rounds it itself.
        if let timeout = endpoint.timeout { request.timeoutInterval = timeout }
        let headers = server.defaultHeaders.merging(endpoint.headers)
        for field in headers {
            try validate(field)
        }
        request.setHeaderFields(headers)
        switch endpoint.body.content {
        case .none:
            break
        case .data(let data, _):
            request.httpBody = data
        case .multipart, .file, .stream:
            try endpoint.body.attachStream(to: &request)
        case .unencodable(let reason):
            throw .invalidRequest(RequestProblem(.body, reason))
        }
        if let contentType = endpoint.body.contentType, request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Checks what actions may have changed in `prepare` before it goes out, so a method, header
    /// or body an action sets is held to the same rules as the endpoint's own.
    static func validateForWire(_ request: URLRequest) throws(NetworkError) {
        let method = request.httpMethod ?? "GET"
        try validate(method: method)
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validate(HTTPHeaders.Field(name: name, value: value))
        }
        if request.httpBody != nil || request.httpBodyStream != nil {
            try refuseBody(for: method)
        }
    }

    /// A method is an RFC 9110 token; anything else (a space, CR/LF, non-ASCII) would rewrite the request line.
    private static func validate(method: String) throws(NetworkError) {
        guard !method.isEmpty, method.utf8.allSatisfy(isTokenCharacter) else {
            throw .invalidRequest(RequestProblem(.method, "method \"\(escaped(method))\" must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_`|~), such as GET or PROPFIND"))
        }
    }

    /// GET and HEAD carry no body (RFC 9110 §9.3.1–2): servers may ignore or reject it, and Linux
    /// URLSession fails such a request with a misleading "resource exceeds maximum size".
    private static func refuseBody(for method: String) throws(NetworkError) {
        let name = method.uppercased()
        guard name != "GET" && name != "HEAD" else {
            throw .invalidRequest(RequestProblem(.body, "a \(name) request cannot carry a body; send the data in the query, or use POST"))
        }
    }

    private static func validate(_ field: HTTPHeaders.Field) throws(NetworkError) {
        guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenCharacter) else {
            throw .invalidRequest(RequestProblem(.header, "header name \"\(escaped(field.name))\" must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_`|~)"))
        }
        guard !field.value.breaksHeaderLine else {
            throw .invalidRequest(RequestProblem(.header, "value of header \"\(escaped(field.name))\" contains a line break or NUL, which would inject headers"))
        }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension ServerConfig {
    /// The URL of `endpoint` on this server: scheme, host, port, base path, path and query, percent-encoded.
    ///
    /// - Throws: ``NetworkError/invalidRequest(_:)`` naming the scheme, host, port, path or URL that is wrong.
    func url(for endpoint: Endpoint) throws(NetworkError) -> URL {
        let path = (endpoint.basePath ?? basePath).appending(endpoint.path)
        if let problem = path.problem {
            throw .invalidRequest(RequestProblem(.path, problem))
        }
        // Built in one buffer: this runs on every firing, so no intermediate strings.
        var url = ""
        url.reserveCapacity(scheme.utf8.count + host.utf8.count + path.percentEncoded.utf8.count + 64)
        try appendOrigin(to: &url)
        url += "/"
        url += path.percentEncoded
        var separator = "?"
        for item in [defaultQuery, endpoint.query].joined() {
            url += separator
            url += PercentEncoding.component(item.name)
            if let value = item.value {
                url += "="
                url += PercentEncoding.component(value)
            }
            separator = "&"
        }
        guard let result = URL(string: url) else {
            throw .invalidRequest(RequestProblem(.url, "\"\(url)\" is not a valid URL"))
        }
        return result
    }

    /// Appends `scheme://host[:port]`, validated.
    private func appendOrigin(to url: inout String) throws(NetworkError) {
        guard let first = scheme.utf8.first, isLetter(first),
              scheme.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            throw .invalidRequest(RequestProblem(.scheme, "scheme \"\(escaped(scheme))\" must be letters, digits, '+', '-' or '.', starting with a letter, such as https"))
        }
        let lowercased = scheme.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? scheme.lowercased() : scheme
        // Anything else would reach the session and fail there as an unrelated transport error
        // (an unknown host for ftp), or not at all.
        guard lowercased == "https" || lowercased == "http" else {
            throw .invalidRequest(RequestProblem(.scheme, "scheme \"\(escaped(scheme))\" is not supported; Salvo sends HTTP requests, so use \"https\" (or \"http\" for a local server)"))
        }
        url += lowercased
        url += "://"
        try appendHost(to: &url)
        if let port {
            guard (1...65_535).contains(port) else {
                throw .invalidRequest(RequestProblem(.port, "port \(port) is outside 1–65535"))
            }
            url += ":"
            url += String(port)
        }
    }

    /// Appends the host, validated byte by byte; an IPv6 address gets its brackets.
    private func appendHost(to url: inout String) throws(NetworkError) {
        guard !host.isEmpty else {
            throw .invalidRequest(RequestProblem(.host, "the host is empty; set ServerConfig.host, e.g. \"api.example.com\""))
        }
        let isBracketed = host.hasPrefix("[") && host.hasSuffix("]") && host.utf8.count >= 2
        let bare = isBracketed ? host.dropFirst().dropLast() : host[...]
        // Brackets around a name ("[localhost]") are tolerated and dropped, as before; only text
        // with a colon, or empty brackets, is held to IPv6 rules. (The colon is looked for in the
        // bytes: `contains(":")` resolves to Foundation's substring search, ~5k instructions a request.)
        if bare.utf8.contains(UInt8(ascii: ":")) || (isBracketed && bare.isEmpty) {
            try validateIPv6(bare)
            url += "["
            url += bare
            url += "]"
            return
        }
        guard bare.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }) else {
            throw .invalidRequest(RequestProblem(.host, "host \"\(escaped(host))\" may only contain ASCII letters, digits, '-', '_' and '.' (no spaces, ports or paths; write international names in punycode)"))
        }
        url += bare
    }

    /// Refuses IPv6 text that is not an RFC 4291 address, with the likely mistake named: a port
    /// written into the host, empty brackets, or a zone ID.
    private func validateIPv6(_ bare: Substring) throws(NetworkError) {
        if IPv6Address.isValid(bare) { return }
        let reason: String
        if bare.isEmpty {
            reason = "host \"\(escaped(host))\" has nothing between the brackets; write an IPv6 address such as \"::1\" or a host name"
        } else if let colon = host.lastIndex(of: ":"), let port = Int(host[host.index(after: colon)...]),
                  !host[..<colon].isEmpty, host[..<colon].last == "]" || !host[..<colon].contains(":") {
            let name = host[..<colon]
            reason = "host \"\(escaped(host))\" includes a port; set ServerConfig.host to \"\(escaped(String(name)))\" and ServerConfig.port to \(port)"
        } else if bare.contains("%") {
            reason = "host \"\(escaped(host))\" has an IPv6 zone ID, which Salvo does not support; use a global or unique-local address"
        } else {
            reason = "host \"\(escaped(host))\" is not a valid IPv6 address (eight groups of 1–4 hex digits separated by ':', '::' once for a run of zero groups, optionally ending in an IPv4 address)"
        }
        throw .invalidRequest(RequestProblem(.host, reason))
    }
}

private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
}

private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}


/// `text` with quotes, control, format and line-separator characters written as Swift escapes
/// (`\r`, `\n`, `\0`, `\u{2028}`), so a message that quotes hostile input stays one readable line.
func escaped(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
            return scalar.escaped(asASCII: true)
        default:
            return scalar.escaped(asASCII: false)
        }
    }.joined()
}
