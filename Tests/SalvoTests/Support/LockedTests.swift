import Foundation
import Testing
@_spi(Transport) @testable import Salvo

@Suite struct LockedTests {
    @Test func concurrentUpdatesAreNeverLost() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func copiesShareOneValue() {
        let original = Locked([1])
        let copy = original
        copy.withLock { $0.append(2) }
        #expect(original.withLock { $0 } == [1, 2])
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
        final class Tracked: Sendable {}
        weak var tracked: Tracked?
        do {
            let object = Tracked()
            tracked = object
            let locked = Locked(object)
            #expect(locked.withLock { $0 } === object)
        }
        #expect(tracked == nil)
    }
}
