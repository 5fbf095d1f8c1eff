import Benchmark
import Foundation
import SalvoWorkloads

/// The loopback server and the workload over it, started on first use. The server exits when this
/// process does (its stdin closes), so it is never stopped explicitly.
private let http = Result { () throws -> (server: LoopbackServer, firing: HTTPFiring) in
    let server = try LoopbackServer()
    return (server, try HTTPFiring(baseURL: server.baseURL))
}

func registerHTTPFiring() {
    // One iteration is 1,000 requests; with the `.kilo` scaling factor the starred columns are per request.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(10),
        maxIterations: 10
    )
    for concurrency in [1, 16] {
        Benchmark("5 HTTP c\(concurrency): Salvo response()", configuration: configuration) { benchmark in
            let firing = try http.get().firing
            benchmark.startMeasurement()
            try await firing.salvo(count: benchmark.scaledIterations.count, concurrency: concurrency)
        }
        Benchmark("5 HTTP c\(concurrency): baseline URLSession.data(for:)", configuration: configuration) { benchmark in
            let firing = try http.get().firing
            benchmark.startMeasurement()
            try await firing.raw(count: benchmark.scaledIterations.count, concurrency: concurrency)
        }
    }
}
