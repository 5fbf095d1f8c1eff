#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

extension URLSession {
    /// The session to start `request` on so that its own `Cookie` header goes out as written.
    ///
    /// swift-corelibs-foundation's `URLSession._Configuration.setCookies(on:)` runs when a task is
    /// created and **replaces** the request's `Cookie` header with the cookies stored for its URL;
    /// it ignores `URLRequest.httpShouldHandleCookies` (measured: `mine=abc` went out as
    /// `session=…`). Only a session whose configuration has `httpShouldSetCookies = false` leaves
    /// the header alone, so such a request goes through a companion of this session with that one
    /// setting changed: same cookie storage (cookies the response sets are still stored), same
    /// delegate queue, every other setting copied. Requests without a `Cookie` header, or whose
    /// URL has no stored cookies, stay on this session.
    func keepingCookieHeader(of request: URLRequest) -> URLSession {
        guard request.value(forHTTPHeaderField: "Cookie") != nil,
              configuration.httpShouldSetCookies,
              let url = request.url,
              let stored = configuration.httpCookieStorage?.cookies(for: url), !stored.isEmpty
        else { return self }
        return CookieHeaderCompanions.companion(of: self)
    }
}

/// One companion session per session that needed one, for as long as that session lives.
private enum CookieHeaderCompanions {
    private struct Entry {
        weak var original: URLSession?
        let companion: URLSession
    }

    private static let entries = Locked<[ObjectIdentifier: Entry]>([:])

    static func companion(of session: URLSession) -> URLSession {
        let (companion, released) = entries.withLock { entries in
            if let entry = entries[ObjectIdentifier(session)], entry.original === session {
                return (entry.companion, [URLSession]())
            }
            guard let configuration = session.configuration.copy() as? URLSessionConfiguration else {
                return (session, [])
            }
            configuration.httpShouldSetCookies = false
            // An identifier can be reused once its session is gone: drop every dead entry first.
            let dead = entries.filter { $0.value.original == nil }
            for key in dead.keys { entries[key] = nil }
            // No delegate of its own: Salvo's task delegate consults the original session's delegate.
            let companion = URLSession(configuration: configuration, delegate: nil, delegateQueue: session.delegateQueue)
            entries[ObjectIdentifier(session)] = Entry(original: session, companion: companion)
            return (companion, dead.values.map(\.companion))
        }
        released.forEach { $0.finishTasksAndInvalidate() }
        return companion
    }
}
#endif
