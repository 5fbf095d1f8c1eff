import Foundation

extension MockResponse {
    /// A response whose body arrives in `chunks`: the first with the head, then one every
    /// `interval` seconds (`Content-Type: application/octet-stream` unless `headers` set one).
    ///
    /// A streamed call receives each chunk as it arrives; a whole-body call waits for them all
    /// and gets them joined. Waits run on the session's clock, so a test clock steps through them.
    ///
    /// ```swift
    /// call.firingFunction = .mock(.chunks([Data("Hel".utf8), Data("lo".utf8)], every: 0.1))
    /// ```
    public static func chunks(_ chunks: [Data], every interval: TimeInterval, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        streamed(chunks, every: interval, status: status, headers: defaulting(headers, contentType: "application/octet-stream"))
    }

    /// A Server-Sent Events stream (`text/event-stream`) of `events`: the first with the head,
    /// then one every `interval` seconds, each written as a server would (`event:`, `id:` when it
    /// changes, `retry:` in milliseconds, one `data:` line per line of data), so the call reads
    /// back the same events.
    ///
    /// ```swift
    /// .get("/prices", .events([
    ///     ServerSentEvent(event: "price", data: #"{"eur": 101}"#, id: "1"),
    ///     ServerSentEvent(event: "price", data: #"{"eur": 99}"#, id: "2"),
    /// ], every: 1))
    /// ```
    public static func events(_ events: [ServerSentEvent], every interval: TimeInterval, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        var headers = defaulting(headers, contentType: "text/event-stream; charset=utf-8")
        if !headers.contains("Cache-Control") { headers["Cache-Control"] = "no-cache" }
        return streamed(ServerSentEvent.eventStream(of: events), every: interval, status: status, headers: headers)
    }

    /// A text response whose `lines` arrive one every `interval` seconds, the first with the head,
    /// each ended by LF (`Content-Type: text/plain` unless `headers` set one).
    ///
    /// ```swift
    /// .get("/build/42/log", .lines(["compiling…", "linking…", "done"], every: 0.5))
    /// ```
    public static func lines(_ lines: [String], every interval: TimeInterval, status: Int = 200, headers: HTTPHeaders = [:]) -> MockResponse {
        streamed(lines.map { Data(($0 + "\n").utf8) }, every: interval, status: status, headers: defaulting(headers, contentType: "text/plain; charset=utf-8"))
    }

    /// A JSON Lines (NDJSON) response: each of `values` encoded as JSON on a line of its own, one
    /// every `interval` seconds, the first with the head (`Content-Type: application/x-ndjson`).
    ///
    /// A value that cannot be encoded fails the call with a clear ``NetworkError/incompleteSetup(_:)``;
    /// so does an encoder whose output spans lines (`.prettyPrinted`).
    ///
    /// ```swift
    /// .get("/orders/live", .jsonLines([Order(id: 1), Order(id: 2)], every: 2))
    /// ```
    public static func jsonLines<Value: Encodable>(
        _ values: [Value],
        every interval: TimeInterval,
        status: Int = 200,
        headers: HTTPHeaders = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        var lines: [Data] = []
        for value in values {
            do {
                let line = try encoder.encode(value)
                guard !line.contains(UInt8(ascii: "\n")) else {
                    return MockResponse(.problem(reason: "the JSON Lines mock's encoder writes \(Value.self) over several lines; drop .prettyPrinted from its outputFormatting", part: .mock))
                }
                lines.append(line + Data("\n".utf8))
            } catch {
                return MockResponse(.problem(reason: "the JSON Lines mock value of type \(Value.self) could not be encoded as JSON: \(error)", part: .mock))
            }
        }
        return streamed(lines, every: interval, status: status, headers: defaulting(headers, contentType: "application/x-ndjson"))
    }

    /// A response of `status` and `headers` whose body is `chunks`, `interval` seconds apart.
    private static func streamed(_ chunks: [Data], every interval: TimeInterval, status: Int, headers: HTTPHeaders) -> MockResponse {
        let spacing = NetworkConditions.clampedDelay(interval)
        let timed = chunks.enumerated().map { BodyPacing.Chunk(bytes: $1.count, time: spacing * Double($0)) }
        return MockResponse(.http(status: status, headers: headers, body: .streamed(chunks.reduce(into: Data()) { $0.append($1) }, timed)))
    }
}
