import Foundation

/// This process's resident memory, from Linux's `/proc/self/status`, for the streaming memory
/// check (benchmark 8b). `nil` where there is no `/proc` (Darwin): the check is then skipped.
public enum ResidentMemory {
    /// Resident set size now (`VmRSS`), in bytes.
    public static func current() -> Int? {
        field("VmRSS")
    }

    /// The highest resident set size since the process started or since ``resetPeak()`` (`VmHWM`), in bytes.
    public static func peak() -> Int? {
        field("VmHWM")
    }

    /// Starts the peak over from the current size (writes 5 to `/proc/self/clear_refs`);
    /// `false` if the kernel refused.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func field(_ name: String) -> Int? {
        guard let status = procFile("/proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first
            return number.flatMap { Int($0) }.map { $0 * 1_024 }
        }
        return nil
    }

    /// The text of a `/proc` file, read with `read(2)`: such files report a size of 0, which
    /// Foundation's whole-file readers take at its word.
    private static func procFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
