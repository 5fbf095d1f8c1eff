/// An observation of a pager's or refresher's state; ``cancel()`` stops it.
///
/// Dropping the value does not stop the observation: it lasts as long as the observed object
/// unless cancelled.
public final class StateObservation: Sendable {
    private let stop: Locked<(@Sendable () -> Void)?>

    init(stop: @escaping @Sendable () -> Void) {
        self.stop = Locked(stop)
    }

    /// Stops delivering changes; changes already queued may still arrive.
    public func cancel() {
        stop.withLock { stop in
            defer { stop = nil }
            return stop
        }?()
    }
}
