import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Transport) import Salvo

/// A `NetworkSession` that sends through another session and writes every HTTP exchange to a
/// fixtures folder, secrets redacted, for `ReplaySession` to serve back offline.
///
/// The fixture is written before the exchange's end is passed on, so once a handler has run its
/// file exists. A streamed call still streams, and its fixture keeps the chunk boundaries and
/// their timing for replay. Transport failures are passed on and not recorded. A fixture that cannot be written fails the
/// call with `.transport(URLError(.cannotWriteToFile))` naming the file: a recording that silently
/// lost exchanges would only surface later as a confusing replay miss.
///
/// ```swift
/// call.firingFunction = .recording(to: fixtures)   // same as .session(RecordingSession(…))
/// ```
public struct RecordingSession: NetworkSession {
    /// The session that really sends requests.
    let base: any NetworkSession
    /// The folder fixtures are written to; created when missing.
    let folder: URL
    /// How fixtures are named, matched and redacted.
    let options: FixtureOptions
    private let occurrences = FixtureOccurrences()

    /// A session recording what `base` exchanges into `folder`.
    public init(wrapping base: any NetworkSession = URLSession.shared, to folder: URL, options: FixtureOptions = FixtureOptions()) {
        self.base = base
        self.folder = folder
        self.options = options
    }

    /// Sends `request` through ``base`` and records the answer before passing its end on.
    ///
    /// Head and chunks reach `receiver` as ``base`` reports them, so a streamed call still
    /// streams; its fixture keeps the chunks' sizes and times. An exchange that repeats is kept
    /// occurrence by occurrence, in order (`….json`, `….2.json`, …), and replay answers them in
    /// the same order.
    @_spi(Transport) public func start(_ request: URLRequest, options exchangeOptions: ExchangeOptions, receiver: any ResponseReceiver) -> any NetworkSessionTask {
        let name = FixtureName.fileName(for: request, options: options)
        let destination = FixtureRecorder.Destination(
            request: request, name: name, occurrence: occurrences.next(for: name), folder: folder, options: options
        )
        return base.start(request, options: exchangeOptions, receiver: FixtureRecorder(passingTo: receiver, recordingTo: destination, isStreamed: exchangeOptions.readsBodyAsItArrives))
    }
}
