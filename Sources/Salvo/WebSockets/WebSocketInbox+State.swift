import Foundation

// The inbox's state as a value: each event (a message from the reader, the app's loop taking one
// or reading the channel, a close, a cancel) changes it under the inbox's lock and returns what to
// resume, which `WebSocketInbox` resumes outside the lock.

extension WebSocketInbox {
    enum End {
        case finished
        case failed(any Error)
        case cancelled
    }

    /// What a waiting app's loop gets.
    enum Delivery {
        case message(WebSocketMessage)
        /// The channel, to read itself.
        case read(Source)
        case end
    }

    struct State {
        var unread: [WebSocketMessage] = []
        var end: End?
        var isReleased = false
        var app: UnsafeContinuation<Delivery, any Error>?
        /// The reader, waiting for room.
        var reader: UnsafeContinuation<Void, Never>?
        /// The channel, parked for the app's loop; `nil` while a task reads it.
        var source: Source?
        /// The reader, parked until the channel comes back.
        var parked: UnsafeContinuation<Resume, Never>?
        /// The channel came back before the reader parked: what it takes when it does.
        var handedBack: Resume?
        /// How many times the app's loop took the channel to read it.
        var appReads = 0
        /// How many times the reader parked the channel for the app's loop.
        var handOvers = 0
        var onCancel: (@Sendable () -> Void)?
    }
}

extension WebSocketInbox.State {
    typealias Source = WebSocketInbox.Source
    typealias Resume = WebSocketInbox.Resume
    typealias HandBack = (reader: UnsafeContinuation<Resume, Never>, resume: Resume)

    enum Taken {
        case message(WebSocketMessage, reader: UnsafeContinuation<Void, Never>?)
        case ended((any Error)?)
        case read(Source)
        case empty
    }

    enum Handed {
        case toApp(UnsafeContinuation<WebSocketInbox.Delivery, any Error>, parks: Bool)
        case kept, full, dropped
    }

    enum AppRead {
        case parked
        case toApp(UnsafeContinuation<WebSocketInbox.Delivery, any Error>)
        case handedBack(HandBack?)
    }

    func hasRoom(_ limit: Int) -> Bool {
        isReleased || end != nil || unread.count < limit
    }

    mutating func takeReader() -> UnsafeContinuation<Void, Never>? {
        defer { reader = nil }
        return reader
    }

    /// The reader's message: to the waiting app (with the channel, unless the app closed), or kept.
    mutating func yield(_ message: WebSocketMessage, from source: Source?, limit: Int) -> Handed {
        guard end == nil else { return .dropped }
        if let app {
            self.app = nil
            let parks = source != nil && !isReleased
            if parks {
                self.source = source
                handOvers &+= 1
            }
            return .toApp(app, parks: parks)
        }
        unread.append(message)
        return hasRoom(limit) ? .kept : .full
    }

    /// The first unread message and the reader to wake if that made room; or the end, once; or the
    /// channel parked for the app, when it `mayRead` (its task is not cancelled).
    mutating func take(_ limit: Int, mayRead: Bool) -> Taken {
        if !unread.isEmpty {
            let message = unread.removeFirst()
            return .message(message, reader: hasRoom(limit) ? takeReader() : nil)
        }
        switch end {
        case .failed(let error)?:
            end = .finished
            return .ended(error)
        case .finished?, .cancelled?:
            return .ended(nil)
        case nil:
            guard mayRead, let source else { return .empty }
            self.source = nil
            appReads &+= 1
            return .read(source)
        }
    }

    /// The app's loop read the channel: it parks the channel again (or gives it to another waiting
    /// loop) after a message, unless the app closed or stopped reading; otherwise the reader takes it.
    mutating func appRead(_ source: Source, message: WebSocketMessage?, resume: Resume) -> AppRead {
        guard message != nil, end == nil, !isReleased else { return .handedBack(handBack(resume)) }
        if let app {
            self.app = nil
            return .toApp(app)
        }
        self.source = source
        return .parked
    }

    /// The channel parked for the app goes back to the reader.
    mutating func reclaim() -> HandBack? {
        guard source != nil else { return nil }
        return handBack(.readOn)
    }

    private mutating func handBack(_ resume: Resume) -> HandBack? {
        source = nil
        guard let reader = parked else {
            handedBack = resume
            return nil
        }
        parked = nil
        return (reader, resume)
    }
}
