import Foundation
import SystemPOSIX
import Testing

@testable import SKANMock

/// The watcher tries again a change it could not deal with (the file could not be read: out of
/// descriptors, mid-replace), without waiting for another change (issue 22).
@Suite("Model file watcher")
struct ModelFileWatcherTests {
    @Test func aChangeThatCouldNotBeReadIsTriedAgain() throws {
        let path = NSTemporaryDirectory() + "skan-watch-\(UUID().uuidString).json"
        try "{}".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calls = Mutex(0)
        let watcher = ModelFileWatcher(path: path)
        watcher.start {
            // The first call fails as a read would; the second succeeds.
            calls.withLock {
                $0 += 1
                return $0 >= 2
            }
        }
        defer { watcher.stop() }
        System.sleep(microseconds: 50_000)
        try "{\"name\": \"x\"}".write(toFile: path, atomically: true, encoding: .utf8)
        for _ in 0..<100 where calls.withLock({ $0 }) < 2 { System.sleep(microseconds: 50_000) }
        #expect(calls.withLock { $0 } == 2)
        // Dealt with: no further calls without a change.
        System.sleep(microseconds: 1_300_000)
        #expect(calls.withLock { $0 } == 2)
    }
}
