import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``NetworkSession`` that answers from fixtures SalvoTesting's `RecordingSession` wrote (or a HAR capture imported), with no network access.
///
/// Requests are matched by method and URL (and body hash when ``FixtureOptions/matchesBody`` is
/// on), after the same redaction recording applied. A request with no fixture, or a fixture that
/// is empty, not JSON or not in the format, fails with ``NetworkError/incompleteSetup(_:)`` (part
/// `.fixture`) naming the request, the folder and the file. A response recorded after a redirect
/// reports the URL it came from, as in production, so relative `Link` targets resolve the same way.
///
/// ```swift
/// call.firingFunction = .replaying(from: fixtures)
/// ```
public struct ReplaySession: NetworkSession {
    /// The folder fixtures are read from.
    let folder: URL
    /// How fixtures are named, matched and redacted; use the options they were recorded with.
    let options: FixtureOptions
    private let mock: MockSession
    private let occurrences = FixtureOccurrences()

    /// A session serving fixtures from `folder`, optionally under simulated `conditions`.
    ///
    /// - Parameters:
    ///   - folder: the folder the fixtures were recorded into.
    ///   - options: how fixtures are named, matched and redacted; use the options they were recorded with.
    ///   - conditions: simulated latency, bandwidth and failures; none by default.
    ///   - clock: what waits out simulated latency and the recorded timing of streamed
    ///     responses; ``NetworkClock/live`` by default.
    public init(from folder: URL, options: FixtureOptions = FixtureOptions(), conditions: NetworkConditions = NetworkConditions(), clock: NetworkClock = .live) {
        self.folder = folder
        self.options = options
        mock = MockSession(conditions: conditions, clock: clock) { request in
            Self.answer(request.request, occurrence: 1, folder: folder, options: options)
        }
    }

    /// Answers `request` from its fixture; the n-th identical request gets the n-th recorded
    /// occurrence, or the last one recorded when there are fewer. A recorded stream arrives in
    /// its recorded chunks, at their recorded times.
    @_spi(Transport) public func start(_ request: URLRequest, options exchangeOptions: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let name = FixtureName.fileName(for: request, options: options)
        let answer = Self.answer(request, named: name, occurrence: occurrences.next(for: name), folder: folder, options: options)
        return mock.start(request, options: exchangeOptions, answering: answer, receiver: receiver)
    }

    /// The recorded answer to `occurrence` of `request`, whose fixture is `name` (worked out from
    /// the request when nil), or a problem naming the missing or broken file.
    package static func answer(_ request: URLRequest, named name: String? = nil, occurrence: Int, folder: URL, options: FixtureOptions) -> MockResponse {
        let name = name ?? FixtureName.fileName(for: request, options: options)
        let method = (request.httpMethod ?? "GET").uppercased()
        let url = FixtureName.matchURL(request.url, options: options)
        // Reading the expected file straight away saves looking for it first, the common case.
        let expected = FixtureOccurrences.file(name, occurrence: occurrence, in: folder)
        let expectedData = try? Data(contentsOf: expected)
        guard let file = expectedData != nil ? expected : FixtureOccurrences.existingFile(name, occurrence: occurrence, in: folder) else {
            return MockResponse(.problem(
                reason: "no recorded fixture for \(method) \(url) in \(folder.path) (expected \(name)); record it with SalvoTesting's FiringFunction.recording(to:), or run once with \(Fixture.modeVariable)=record-missing",
                part: .fixture
            ))
        }
        do {
            let fixture = if let expectedData { try Fixture.load(expectedData, from: file) } else { try Fixture.load(from: file) }
            // Recorded URLs are stored redacted, so with origins matched they usually compare as they are.
            let isSameURL = (options.matchesOrigin && fixture.request.url == url)
                || (URL(string: fixture.request.url).map { FixtureName.matchURL($0, options: options) } ?? fixture.request.url) == url
            guard fixture.request.method.uppercased() == method, isSameURL else {
                return MockResponse(.problem(
                    reason: "fixture file \(file.path) was recorded for \(fixture.request.method) \(fixture.request.url), not \(method) \(url)",
                    part: .fixture
                ))
            }
            return MockResponse(.http(status: fixture.response.status, headers: [:], body: .recorded(fixture.response)))
        } catch {
            return MockResponse(.problem(reason: FixtureFile.reason(of: error), part: .fixture))
        }
    }
}
