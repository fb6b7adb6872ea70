import Dispatch
import SystemPOSIX
import Testing

/// The lock and the atomic word that replace Synchronization's (macOS 14, iOS 16): each update from
/// many threads at once counted exactly once.
@Suite struct MutexTests {
    @Test func updatesFromManyThreadsAreNeverLost() {
        let counter = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func bodyErrorsAndResultsPassThrough() {
        struct Refused: Error {}
        let names = Mutex<[String]>([])
        let count = names.withLock { names -> Int in
            names.append("a")
            return names.count
        }
        #expect(count == 1)
        #expect(throws: Refused.self) { try names.withLock { _ throws(Refused) in throw Refused() } }
        #expect(names.withLock { $0 } == ["a"])
    }

    @Test func holdsNoncopyableState() {
        struct Handle: ~Copyable { var open = true }
        let handle = Mutex(Handle())
        handle.withLock { $0.open = false }
        #expect(handle.withLock { $0.open } == false)
    }

    @Test func atomicAddsFromManyThreadsAreNeverLost() {
        let count = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { count.add(1, ordering: .relaxed) }
        }
        #expect(count.load(ordering: .acquiring) == 80_000)
        let result = count.subtract(5, ordering: .acquiringAndReleasing)
        #expect(result.oldValue == 80_000 && result.newValue == 79_995)
    }

    @Test func atomicFlagIsTakenOnce() {
        let armed = Atomic<Bool>(true)
        let takers = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if armed.exchange(false, ordering: .acquiringAndReleasing) { takers.withLock { $0 += 1 } }
        }
        #expect(takers.withLock { $0 } == 1)
        armed.store(true, ordering: .releasing)
        #expect(armed.load(ordering: .relaxed))
        let offset = Atomic<Int64>(-3)
        #expect(offset.add(-2, ordering: .relaxed).newValue == -5)
    }
}
