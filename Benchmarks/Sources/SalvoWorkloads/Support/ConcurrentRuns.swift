/// Runs `once` `count` times, `concurrency` at a time: that many workers, each doing its share
/// one after another.
public func runConcurrently(count: Int, concurrency: Int, _ once: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
            group.addTask {
                for _ in 0..<share { try await once() }
            }
        }
        try await group.waitForAll()
    }
}
