import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkTask {
    /// The firing's state as a value: it takes an ``Event`` and returns the ``Action`` to run
    /// once the lock is released. No I/O and no callbacks happen here.
    struct State {
        /// The awaiting caller, parked until the outcome is made.
        typealias Waiter = CheckedContinuation<Result<NetworkResponse, NetworkError>, Never>

        enum Event {
            /// A session task started; kept to cancel.
            case started(any NetworkSessionTask)
            case head(ResponseHead)
            case chunk(Data)
            case sent(Int64, of: Int64?)
            case redirected
            case collected(URLSessionTaskMetrics)
            /// The exchange ended: the whole exchange at once when the head is given.
            case end(ResponseHead?, Data?, NetworkError?)
            /// The attempt loop's outcome, or a request that could not be built.
            case finish(AttemptOutcome)
            case cancel
            /// The awaiting caller parks until the outcome is made.
            case awaited(Waiter)
            /// The finish handlers ran: the outcome may reach the awaiting caller.
            case handled(AttemptOutcome)
        }

        enum Action {
            case none
            /// A streamed body's head or chunk for the body receiver, and progress to report.
            case report(head: ResponseHead?, chunk: Data?, progress: TransferProgress?)
            case cancelExchange(any NetworkSessionTask)
            case resume(Waiter, Result<NetworkResponse, NetworkError>)
            /// End the firing with the outcome; stop what is still running; `hasStreamedHead`
            /// says the body receiver has had the head; the awaiting caller, if parked; the
            /// download progress of a body that arrived whole.
            case finish(
                AttemptOutcome,
                stopping: [any NetworkSessionTask],
                hasStreamedHead: Bool,
                resuming: (Waiter, Result<NetworkResponse, NetworkError>)?,
                progress: TransferProgress? = nil
            )
        }

        /// The only attempt's request; `nil` when the attempt loop reports.
        let request: URLRequest?
        let streamsBody: Bool
        /// Whether the only attempt's reports make progress (the loop's attempts report their own).
        let reportsProgress: Bool
        /// Whether the outcome waits for ``NetworkTask/outcome()`` rather than going to a destination.
        let parksOutcome: Bool
        /// Whether the outcome reaches the awaiting caller only after the finish handlers ran.
        let handsOverAfterHandlers: Bool
        private(set) var isFinished = false
        private(set) var isCancelled = false
        private var cancellables: [any NetworkSessionTask] = []
        private var head: ResponseHead?
        private var body: Data?
        /// Body bytes received, for progress.
        private var received: Int64 = 0
        /// The body's length the head announced, for progress.
        private var expected: Int64?
        /// Whether a 2xx head went to the body receiver, so chunks follow it there.
        private var isStreaming = false
        private var meter: AttemptMeter?
        private var waiter: Waiter?
        /// The outcome made before the awaiting caller asked for it, as the caller takes it.
        private var unclaimed: Result<NetworkResponse, NetworkError>?

        init(request: URLRequest?, streamsBody: Bool, reportsProgress: Bool, parksOutcome: Bool, handsOverAfterHandlers: Bool, meter: AttemptMeter?) {
            self.request = request
            self.streamsBody = streamsBody
            self.reportsProgress = reportsProgress
            self.parksOutcome = parksOutcome
            self.handsOverAfterHandlers = handsOverAfterHandlers
            self.meter = meter
        }

        /// The outcome, if it was made and nobody has taken it.
        mutating func takeOutcome() -> Result<NetworkResponse, NetworkError>? { unclaimed.take() }

        mutating func handle(_ event: consuming Event) -> Action {
            // Consumed: each payload moves out of the event instead of being copied.
            switch consume event {
            case .awaited(let continuation):
                if let unclaimed = unclaimed.take() { return .resume(continuation, unclaimed) }
                waiter = continuation
                return .none
            case .handled(let outcome):
                let reported = NetworkTask.reported(outcome)
                if let waiter = waiter.take() { return .resume(waiter, reported) }
                unclaimed = reported
                return .none
            case .cancel:
                guard !isFinished else { return .none }
                isCancelled = true
                return finished(AttemptOutcome(request: nil, error: .cancelled))
            case .started(let sessionTask):
                if isCancelled { return .cancelExchange(sessionTask) }
                if !isFinished { cancellables.append(sessionTask) }
                return .none
            case .finish(let outcome):
                guard !isFinished else { return .none }
                return finished(outcome)
            case .head(let head):
                guard !isFinished else { return .none }
                return received(head)
            case .chunk(let chunk):
                guard !isFinished else { return .none }
                return received(chunk)
            case .sent(let bytesSent, let bytesExpected):
                guard !isFinished else { return .none }
                meter?.sent(bytesSent)
                guard reportsProgress else { return .none }
                return .report(head: nil, chunk: nil, progress: TransferProgress(direction: .upload, completedBytes: bytesSent, expectedBytes: bytesExpected))
            case .redirected:
                if !isFinished { meter?.followedRedirect() }
                return .none
            case .collected(let taskMetrics):
                if !isFinished { meter?.collected(taskMetrics) }
                return .none
            case .end(let wholeHead, let wholeBody, let failure):
                guard !isFinished else { return .none }
                return ended(wholeHead, wholeBody, failure)
            }
        }

        /// The head of the exchange while the firing runs.
        private mutating func received(_ head: ResponseHead) -> Action {
            if meter != nil {
                let bodyLength = NetworkTask.bodyLength(of: request)
                meter?.headArrived(requestBodyLength: bodyLength, cacheStatus: head.cacheStatus)
            }
            if reportsProgress { expected = head.expectedContentLength }
            guard streamsBody, head.isSuccess else {
                self.head = head
                return .none
            }
            self.head = head
            isStreaming = true
            return .report(head: head, chunk: nil, progress: nil)
        }

        /// A chunk of the body while the firing runs.
        private mutating func received(_ chunk: Data) -> Action {
            received += Int64(chunk.count)
            meter?.received(chunk.count)
            let progress = reportsProgress
                ? TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected) : nil
            if isStreaming { return .report(head: nil, chunk: chunk, progress: progress) }
            if body == nil { body = chunk } else { body?.append(chunk) }
            return progress.map { .report(head: nil, chunk: nil, progress: $0) } ?? .none
        }

        /// The end of the exchange: the whole exchange at once when `wholeHead` is given.
        private mutating func ended(_ wholeHead: ResponseHead?, _ wholeBody: Data?, _ failure: NetworkError?) -> Action {
            var progress: TransferProgress?
            let head: ResponseHead?
            let body: Data?
            if let wholeHead {
                // The whole exchange at once: made into the outcome without passing through the state.
                if meter != nil {
                    let bodyLength = NetworkTask.bodyLength(of: request)
                    meter?.headArrived(requestBodyLength: bodyLength, cacheStatus: wholeHead.cacheStatus)
                    if let wholeBody { meter?.received(wholeBody.count) }
                }
                if reportsProgress, let wholeBody, !wholeBody.isEmpty {
                    progress = TransferProgress(direction: .download, completedBytes: Int64(wholeBody.count), expectedBytes: wholeHead.expectedContentLength)
                }
                head = wholeHead
                body = isStreaming ? nil : (wholeBody ?? Data())
            } else {
                head = self.head.take()
                body = isStreaming ? nil : (self.body.take() ?? (head == nil ? nil : Data()))
            }
            let failure = failure.map { NetworkTask.telling($0, head: head, received: received) }
            var outcome = AttemptOutcome(request: request, head: head, data: body, error: failure)
            if meter != nil, let metrics = meter?.ended() { outcome.metrics = [metrics] }
            guard parksOutcome, !handsOverAfterHandlers else { return finished(outcome, progress: progress) }
            // Classified here, right where it is made, for the awaiting caller.
            let reported: Result<NetworkResponse, NetworkError> = switch outcome.result {
            case .success(let data): .success(NetworkResponse(data: data, head: outcome.head, metrics: outcome.metrics))
            case .failure(let error): .failure(error)
            }
            return finished(outcome, reporting: reported, progress: progress)
        }

        /// Finishes the firing with `outcome`: it goes to the parked caller, waits for one, or to the destination.
        private mutating func finished(
            _ outcome: consuming AttemptOutcome,
            reporting reported: Result<NetworkResponse, NetworkError>? = nil,
            progress: TransferProgress? = nil
        ) -> Action {
            isFinished = true
            let stopping = isCancelled ? cancellables : []
            cancellables = []
            var resuming: (Waiter, Result<NetworkResponse, NetworkError>)?
            if parksOutcome, !handsOverAfterHandlers {
                let reported = reported ?? NetworkTask.reported(outcome)
                if let waiter = waiter.take() { resuming = (waiter, reported) } else { unclaimed = reported }
            }
            return .finish(outcome, stopping: stopping, hasStreamedHead: isStreaming, resuming: resuming, progress: progress)
        }
    }
}
