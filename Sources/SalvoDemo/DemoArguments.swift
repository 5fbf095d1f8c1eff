import Foundation

/// The demo's command line: `salvo-demo [--live URL] [--record FOLDER] [--verbose]`.
struct DemoArguments {
    var liveURL: String?
    var recordFolder: URL?
    var isVerbose = false
    var showsHelp = false

    static let usage = """
    usage: swift run salvo-demo [--live URL] [--record FOLDER] [--verbose]

      (no options)     offline: replays the recorded fixtures shipped with the demo
      --live URL       fires the same calls at a real server, e.g. the project's test server:
                         python3 Tests/SalvoTests/Transport/Support/Servers/loopback_server.py --port 8080 --no-stdin-watch
                         swift run salvo-demo --live http://127.0.0.1:8080
      --record FOLDER  with --live, also writes every exchange to FOLDER as replay fixtures
      --verbose        prints the logging action's lines (secrets redacted)
      --help           shows this
    """

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init<Arguments: Sequence>(_ arguments: Arguments) throws(Problem) where Arguments.Element == String {
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--live":
                guard let url = remaining.popFirst(), !url.hasPrefix("--") else { throw Problem(description: "--live needs a URL, e.g. --live http://127.0.0.1:8080") }
                liveURL = url
            case "--record":
                guard let folder = remaining.popFirst(), !folder.hasPrefix("--") else { throw Problem(description: "--record needs a folder") }
                recordFolder = URL(fileURLWithPath: folder, isDirectory: true)
            case "--verbose", "-v":
                isVerbose = true
            case "--help", "-h":
                showsHelp = true
            default:
                throw Problem(description: "unknown argument \"\(argument)\"")
            }
        }
        if recordFolder != nil && liveURL == nil {
            throw Problem(description: "--record needs --live: fixtures are recorded from a real server")
        }
    }
}
