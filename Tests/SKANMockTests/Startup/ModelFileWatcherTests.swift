import Foundation
import SystemPOSIX
import Testing

@testable import SKANMock

/// The watcher on a timer moved by hand: each tick is the test's, so nothing here waits.
@Suite("Model file watcher")
struct ModelFileWatcherTests {
    final class Fixture {
        let path = NSTemporaryDirectory() + "skan-watch-\(UUID().uuidString).json"
        let timer = ManualTimer()
        let calls = Mutex(0)
        let watcher: ModelFileWatcher

        /// `dealtWith(n)`: what the `n`th call answers.
        init(dealtWith: @escaping @Sendable (Int) -> Bool = { _ in true }) throws {
            try "{}".write(toFile: path, atomically: true, encoding: .utf8)
            watcher = ModelFileWatcher(path: path, timer: timer.timer)
            watcher.start { [calls] in
                dealtWith(
                    calls.withLock {
                        $0 += 1
                        return $0
                    })
            }
        }

        deinit {
            watcher.stop()
            try? FileManager.default.removeItem(atPath: path)
        }

        /// One period on: the tick runs on this thread.
        func tick() { timer.advance(milliseconds: ModelFileWatcher.periodMilliseconds) }

        func write(_ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        var count: Int { calls.withLock { $0 } }
    }

    @Test func aChangeIsSeenOnTheNextTickOnce() throws {
        let fixture = try Fixture()
        #expect(fixture.timer.pending == [ModelFileWatcher.periodMilliseconds])
        fixture.tick()
        #expect(fixture.count == 0)
        try fixture.write("{\"name\": \"x\"}")
        fixture.tick()
        #expect(fixture.count == 1)
        fixture.tick()
        #expect(fixture.count == 1)
    }

    /// A change it could not deal with (the file could not be read: out of descriptors,
    /// mid-replace) is tried again on the next tick, without waiting for another change (issue 22).
    @Test func aChangeThatCouldNotBeReadIsTriedAgain() throws {
        let fixture = try Fixture(dealtWith: { $0 >= 2 })
        try fixture.write("{\"name\": \"x\"}")
        fixture.tick()
        #expect(fixture.count == 1)
        fixture.tick()
        #expect(fixture.count == 2)
        // Dealt with: no further calls without a change.
        fixture.tick()
        fixture.tick()
        #expect(fixture.count == 2)
    }

    @Test func aStoppedWatcherLooksNoMore() throws {
        let fixture = try Fixture()
        fixture.watcher.stop()
        try fixture.write("{\"name\": \"x\"}")
        fixture.tick()
        #expect(fixture.count == 0 && fixture.timer.pending.isEmpty)
    }
}
