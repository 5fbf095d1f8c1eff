import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo
import SalvoDemoKit
// Recording lives in SalvoTesting: the demo records its fixtures the way a test target would.
import SalvoTesting

// The demo fires the catalogue's calls; SalvoDemoKit configured them. Offline by default.

/// Writes `text` to standard output at once, unbuffered, so lines and the redrawn progress bar
/// come out in order through a pipe too.
@Sendable func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("salvo-demo: \(message)\n".utf8))
    exit(code)
}

let arguments: DemoArguments
do {
    arguments = try DemoArguments(CommandLine.arguments.dropFirst())
} catch {
    fail("\(error)\n\n\(DemoArguments.usage)", code: 2)
}
if arguments.showsHelp {
    write(DemoArguments.usage + "\n")
    exit(0)
}

var environment = CatalogEnvironment.offline
var origin = "offline, replaying the fixtures shipped with the demo"
if let liveURL = arguments.liveURL {
    do {
        environment = try CatalogEnvironment.live(baseURL: liveURL)
    } catch {
        fail("\(error)", code: 2)
    }
    origin = "live at \(liveURL)"
}
if let folder = arguments.recordFolder {
    environment.firing = .recording(to: folder, options: CatalogEnvironment.fixtureOptions)
    origin += ", recording fixtures to \(folder.path)"
}
if arguments.isVerbose {
    environment = environment.logging { line in
        write(line.split(separator: "\n", omittingEmptySubsequences: false).map { "    │ " + $0 }.joined(separator: "\n") + "\n")
    }
}

// Every call has a timeout; this is the backstop for the whole tour.
DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
    fail("gave up after 60 seconds", code: 3)
}

write("Salvo demo: a book catalogue (\(origin))\n\n")
// The server the cache step takes away: the fixtures offline, the live server otherwise.
let server = SwitchableOrigin(wrapping: arguments.liveURL == nil ? CatalogEnvironment.offlineSession as any NetworkSession : URLSession.shared)
do {
    let tour = CatalogTour(api: CatalogAPI(environment: environment), origin: server, say: { write($0 + "\n") }, redraw: { write("\r" + $0) })
    try await tour.run()
} catch {
    let hint = arguments.liveURL == nil ? "" : "\nIs the server running? python3 Tests/SalvoTests/Transport/Support/Servers/loopback_server.py --port 8080 --no-stdin-watch"
    fail(error.message + hint, code: 1)
}
