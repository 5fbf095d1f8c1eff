import Benchmark
import Foundation
import SalvoWorkloads

// Each Salvo benchmark is registered right before its baseline, so both run in the same process
// and sit next to each other in the output. `salvo-bench-ratios` prints the paired ratios.
let benchmarks: @Sendable () -> Void = {
    // 1,000 operations per measured iteration; starred columns are per operation.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )
    registerRequestBuilding()
    registerMockFiring()
    registerMockDecoding()
    registerPaging()
    registerHTTPFiring()
    registerMocking()
}

func registerMocking() {
    let matching = RouteMatching()
    Benchmark("6 Route matching, 1,000 routes: Salvo") { benchmark in
        for index in benchmark.scaledIterations { matching.matchLarge(index) }
    }
    Benchmark("6 Route matching: baseline a 10-route table") { benchmark in
        for index in benchmark.scaledIterations { matching.matchSmall(index) }
    }
    // One iteration replays the whole cassette.
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, scalingFactor: .one)
    guard let cassette = try? CassetteReplay() else { return }
    Benchmark("7 Cassette replay, 1,000 exchanges: Salvo", configuration: configuration) { _ in
        blackHole(cassette.replayAll())
    }
    Benchmark("7 Cassette replay: baseline reading the files", configuration: configuration) { _ in
        blackHole(cassette.readFiles())
    }
}

func registerRequestBuilding() {
    let building = RequestBuilding()
    Benchmark("1 Request building: Salvo") { benchmark in
        for id in benchmark.scaledIterations { blackHole(try building.salvo(id: id)) }
    }
    Benchmark("1 Request building: baseline URLComponents") { benchmark in
        for id in benchmark.scaledIterations { blackHole(building.baseline(id: id)) }
    }
}

func registerMockFiring() {
    let firing = MockFiring()
    Benchmark("2 Mock fire to dataHandler: Salvo") { benchmark in
        for _ in benchmark.scaledIterations { firing.fire() }
    }
    Benchmark("2 Mock fire to dataHandler: baseline configuring the call (builds its request)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(firing.configure()) }
    }
}

func registerMockDecoding() {
    let decoding = MockDecoding()
    Benchmark("3 Mock fire + decode: Salvo") { benchmark in
        for _ in benchmark.scaledIterations { decoding.salvo() }
    }
    Benchmark("3 Mock fire + decode: Salvo, a new call per firing") { benchmark in
        for _ in benchmark.scaledIterations { decoding.salvoNewCall() }
    }
    Benchmark("3 Mock fire + decode: baseline JSONDecoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try decoding.baseline()) }
    }
}

func registerPaging() {
    // One iteration walks all 1,000 pages; with the `.kilo` scaling factor the starred columns are per page.
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 50
    )
    let walk = PagerWalk()
    Benchmark("4 Pager walk, 1,000 pages: Salvo Pager", configuration: configuration) { _ in
        blackHole(try await walk.pager())
    }
    Benchmark("4 Pager walk, 1,000 pages: baseline by hand", configuration: configuration) { _ in
        blackHole(try await walk.byHand())
    }
}
