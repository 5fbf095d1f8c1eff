import Foundation
import Testing

/// A stream's spill files (`salvo-stream-*` in the temporary directory) and this process's open
/// descriptors on them (from `/proc/self/fd`, where there is one), to check that streams leave
/// nothing behind. A spill file loses its name as soon as it is open, so a stream that spills
/// shows as a descriptor (its target ends in " (deleted)"); a named file is one that leaked.
///
/// Tests run in parallel, so a count taken while another test streams may be high for a moment:
/// ``leftovers(since:within:)`` waits until every file and descriptor that appeared since a
/// baseline is gone, which it will be unless something leaks.
struct SpillFiles: Sendable {
    /// Names of the spill files now.
    let files: Set<String>
    /// Open descriptors on spill files now, as "fd -> target" (a deleted file's target ends in " (deleted)").
    let descriptors: Set<String>

    static let prefix = "salvo-stream-"

    /// The spill files and descriptors now.
    static func now() -> SpillFiles {
        let directory = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return SpillFiles(files: Set(names.filter { $0.hasPrefix(prefix) }), descriptors: openDescriptors())
    }

    /// This process's descriptors on spill files; none where `/proc/self/fd` does not exist.
    private static func openDescriptors() -> Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(fds.compactMap { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.contains(prefix)
            else { return nil }
            return "\(fd) -> \(target)"
        })
    }

    /// The spill files and descriptors that appeared since `baseline` and are still there after
    /// waiting up to `seconds`: empty unless a stream leaked its backlog.
    static func leftovers(since baseline: SpillFiles, within seconds: Double = 20) async -> [String] {
        var left: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let current = now()
            left = current.files.subtracting(baseline.files).sorted() + current.descriptors.subtracting(baseline.descriptors).sorted()
            if left.isEmpty { return [] }
            try? await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return left
    }
}

/// A suite trait that fails the suite when its streams leave a spill file or an open descriptor
/// on one behind once all its tests have run.
struct LeavesNoSpillFiles: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let baseline = SpillFiles.now()
        try await function()
        let left = await SpillFiles.leftovers(since: baseline)
        #expect(left.isEmpty, "spill files or descriptors left behind: \(left)")
    }
}

extension Trait where Self == LeavesNoSpillFiles {
    /// Checks, after the suite, that its streams left no spill file and no descriptor on one.
    static var leavesNoSpillFiles: Self { LeavesNoSpillFiles() }
}
