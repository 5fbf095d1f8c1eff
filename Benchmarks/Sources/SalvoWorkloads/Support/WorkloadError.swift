/// A workload that could not be set up or whose two sides did not do the same work.
public struct WorkloadError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
