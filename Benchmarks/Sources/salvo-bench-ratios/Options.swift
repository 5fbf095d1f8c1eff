import SalvoWorkloads

/// The command line: `[--rounds N] [--batch N] [--requests N] [--stream-bytes N]
/// [--transfer-bytes N] [--memory-runs N] [--only SUBSTRING]`.
struct Options {
    var rounds = 11
    var batch = 20_000
    var requests = 2_000
    var streamBytes = ByteStreaming.defaultByteCount
    var transferBytes = FileDownload.defaultByteCount
    var memoryRuns = 3
    var only: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw WorkloadError("\(flag) needs a value") }
            switch flag {
            case "--rounds": rounds = try Self.count(value, flag)
            case "--batch": batch = try Self.count(value, flag)
            case "--requests": requests = try Self.count(value, flag)
            case "--stream-bytes": streamBytes = try Self.count(value, flag)
            case "--transfer-bytes": transferBytes = try Self.count(value, flag)
            case "--memory-runs": memoryRuns = try Self.count(value, flag)
            case "--only": only = value
            default: throw WorkloadError("unknown option \(flag)")
            }
        }
    }

    private static func count(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw WorkloadError("\(flag) needs a positive integer, got \(text)") }
        return value
    }
}

func selected(_ name: String, _ options: Options) -> Bool {
    options.only.map { name.localizedCaseInsensitiveContains($0) } ?? true
}
