import Foundation

/// Context switches of this whole process (every thread), from `getrusage(RUSAGE_SELF)`, and its
/// thread count, for the per-request context-switch check (benchmark 5cs, issue 28).
public enum ContextSwitches {
    /// Voluntary (the thread blocked or waited) and involuntary (it was preempted) switches so far.
    public struct Count: Sendable {
        public let voluntary: Int
        public let involuntary: Int

        /// Switches since `earlier`.
        public static func - (later: Count, earlier: Count) -> Count {
            Count(voluntary: later.voluntary - earlier.voluntary, involuntary: later.involuntary - earlier.involuntary)
        }
    }

    /// The process's switches so far (the kernel sums every thread's, living and exited).
    public static func now() -> Count {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)  // glibc declares the constant as an enum
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Count(voluntary: Int(usage.ru_nvcsw), involuntary: Int(usage.ru_nivcsw))
    }

    /// The process's threads now (`/proc/self/task`), `nil` where there is no `/proc`.
    public static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }
}
