import Foundation
import SKANDomain
import Testing

@testable import SKANMock

/// The model file watched by a started server, its tick moved by hand: an edit is in force after
/// the next tick, a bad file keeps the model in use and says why in health, a good one clears it.
@Suite("Live reload of the model file")
struct ModelReloadTests {
    private static func config(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/\(name)").path
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    private func health(_ mock: InProcessServer) -> JSONValue {
        (try? JSONParser.parse(Array(mock.send(.get, "/__admin/health").text.utf8))) ?? .null
    }

    @Test func reloadsTheModelWhenItsFileChangesAndKeepsItOnABadFile() throws {
        let path = NSTemporaryDirectory() + "skan-mock-model-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let testing = try Self.config("singular-testing.json")
        try testing.write(toFile: path, atomically: true, encoding: .utf8)
        let mock = try InProcessServer {
            $0.modelPath = path
            $0.watchModel = true
        }
        try mock.server.start()
        defer { mock.server.stop(gracePeriod: 0) }
        #expect(mock.server.runningParts.contains("model watcher"))
        #expect(health(mock)["model"]?["name"] == "singular-testing")
        let tick = ModelFileWatcher.periodMilliseconds

        try Self.config("retention.json").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(health(mock)["model"]?["name"] == "singular-testing")
        mock.timer.advance(milliseconds: tick)
        #expect(health(mock)["model"]?["name"] == "singular-retention")

        try "{\"name\": \"broken\",".write(toFile: path, atomically: true, encoding: .utf8)
        mock.timer.advance(milliseconds: tick)
        let broken = health(mock)
        #expect(broken["model"]?["reload_error"] != nil && broken["model"]?["name"] == "singular-retention")

        try testing.write(toFile: path, atomically: true, encoding: .utf8)
        mock.timer.advance(milliseconds: tick)
        let good = health(mock)
        #expect(good["model"]?["name"] == "singular-testing" && good["model"]?["reload_error"] == nil)
    }

    /// `--no-watch-model`: no watcher, so no tick ever looks at the file (SIGHUP still reloads).
    @Test func withoutWatchingNoTickLooks() throws {
        let path = NSTemporaryDirectory() + "skan-mock-model-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.config("singular-testing.json").write(toFile: path, atomically: true, encoding: .utf8)
        let mock = try InProcessServer {
            $0.modelPath = path
            $0.watchModel = false
        }
        try mock.server.start()
        defer { mock.server.stop(gracePeriod: 0) }
        #expect(!mock.server.runningParts.contains("model watcher") && mock.timer.pending.isEmpty)
        try Self.config("retention.json").write(toFile: path, atomically: true, encoding: .utf8)
        mock.timer.advance(milliseconds: 10 * ModelFileWatcher.periodMilliseconds)
        #expect(health(mock)["model"]?["name"] == "singular-testing")
    }
}
