import Foundation

extension ServerSentEvent {
    /// `events` written as a `text/event-stream` body, one block of bytes per event, so that a
    /// parser reads back the same events.
    ///
    /// An event's `id` is the last ID in effect, so `id:` is written only when it changes (an
    /// empty `id:` when it goes back to nil); `event:` is left out for `"message"`; `retry:` is in
    /// whole milliseconds; each line of `data` is a `data:` line of its own. Line breaks in `event`
    /// and `id` would end the field early, and a NUL makes a reader ignore an `id:`, so they are dropped.
    static func eventStream(of events: [ServerSentEvent]) -> [Data] {
        var lastID: String?
        return events.map { event in
            var block = ""
            if event.event != "message" { block += "event: \(singleLine(event.event))\n" }
            if event.id != lastID {
                block += "id: \(singleLine(event.id ?? ""))\n"
                lastID = event.id
            }
            if let retry = event.retry, retry.isFinite {
                block += "retry: \(Int(min(retry * 1_000, Double(Int32.max)).rounded()))\n"
            }
            var line = ""
            for character in event.data {
                if character == "\n" || character == "\r" || character == "\r\n" {
                    block += "data: \(line)\n"
                    line = ""
                } else {
                    line.append(character)
                }
            }
            block += "data: \(line)\n\n"
            return Data(block.utf8)
        }
    }

    private static func singleLine(_ text: String) -> String {
        text.contains(where: { $0.isNewline || $0 == "\0" }) ? text.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" && $0 != "\0" } : text
    }
}
