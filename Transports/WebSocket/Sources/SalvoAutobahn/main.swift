// Runs Autobahn|Testsuite's client cases over SalvoWebSocket: echoes every message of each case
// back to the fuzzing server, then asks it to write its report. See Autobahn/run.sh.
//   swift run --package-path Transports/WebSocket salvo-autobahn ws://127.0.0.1:9001
import Foundation
import Salvo
import SalvoWebSocket

let address = CommandLine.arguments.dropFirst().first ?? "ws://127.0.0.1:9001"
guard let components = URLComponents(string: address), let host = components.host else {
    FileHandle.standardError.write(Data("usage: salvo-autobahn ws://HOST:PORT\n".utf8))
    exit(2)
}
let server = ServerConfig(scheme: components.scheme ?? "ws", host: host, port: components.port)

func call(_ path: EndpointPath, query: KeyValuePairs<String, String> = [:], compression: WebSocketCompression = .permessageDeflate()) -> WebSocketCall {
    // Autobahn's largest messages are 16 MiB; its 9.x cases send them.
    var call = WebSocketCall(server: server, endpoint: .get(path, query: query), maximumMessageSize: 64 << 20)
    call.transport = .webSocketClient(compression: compression)
    return call
}

/// The case's id ("13.3.1"), from the server's getCaseInfo.
func caseID(_ index: Int) async -> String {
    do {
        let connection = try await call("/getCaseInfo", query: ["case": "\(index)"]).connect()
        for try await message in connection.messages {
            let info = try? JSONSerialization.jsonObject(with: message.data) as? [String: Any]
            return info?["id"] as? String ?? ""
        }
    } catch {}
    return ""
}

/// The offer each 13.x group wants (13.2 accepts only an offer with no context takeover, 13.3 and
/// 13.4 one with a window size, 13.5–13.7 both); permessage-deflate's defaults elsewhere.
func compression(forCase id: String) -> WebSocketCompression {
    switch id.split(separator: ".").prefix(2).joined(separator: ".") {
    case "13.2": .permessageDeflate(noContextTakeover: true)
    case "13.3": .permessageDeflate(maximumWindowBits: 9)
    case "13.4": .permessageDeflate(maximumWindowBits: 15)
    case "13.5", "13.7": .permessageDeflate(maximumWindowBits: 9, noContextTakeover: true)
    case "13.6": .permessageDeflate(maximumWindowBits: 15, noContextTakeover: true)
    default: .permessageDeflate()
    }
}

var count = 0
do {
    let counting = try await call("/getCaseCount").connect()
    for try await message in counting.messages {
        if case .text(let text) = message { count = Int(text) ?? 0 }
    }
} catch {
    print("getCaseCount: \(error)")  // the count may have arrived before the server dropped the connection
}
print("\(count) cases")
for index in 1...max(count, 1) where count > 0 {
    do {
        let id = await caseID(index)
        let connection = try await call("/runCase", query: ["case": "\(index)", "agent": "Salvo"], compression: compression(forCase: id)).connect()
        for try await message in connection.messages {
            try await connection.send(message)
        }
    } catch {
        // A case that fails the connection on purpose ends here; the server judges what it saw.
    }
}
do {
    let reporting = try await call("/updateReports", query: ["agent": "Salvo"]).connect()
    for try await _ in reporting.messages {}
} catch {
    print("updateReports: \(error)")
}
print("reports updated")
