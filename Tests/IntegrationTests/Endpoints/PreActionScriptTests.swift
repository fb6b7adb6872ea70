import Foundation
import SystemPOSIX
import Testing

/// `Scripts/xcode-pre-action.sh` with the built binary (issue 31.4): it stops only the server it
/// started before (by `--pid-file`, not `pkill`), and fails in one clear line when the port is
/// another server's instead of leaving the tests to talk to it.
@Suite("The Xcode pre-action script and --pid-file", .serialized)
struct PreActionScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Scripts/xcode-pre-action.sh")

    /// A port nobody listens on now.
    func freePort() throws -> Int {
        let fd = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { System.close(fd) }
        return System.localPort(fd)
    }

    /// Runs the script through the shell, as Xcode does; on Linux with `system`, because
    /// Foundation's `Process.waitUntilExit` there also waits for the server the script leaves
    /// running in the background.
    func run(port: Int, dir: String) throws -> (status: Int32, said: String) {
        let binary = try #require(ProcessLifecycleTests.executable)
        let said = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: said) }
        let command =
            "env -u SKAN_MOCK_ADMIN_TOKEN SKAN_MOCK_BINARY='\(binary.path)' SKAN_MOCK_PORT=\(port) "
            + "SKAN_MOCK_PRE_ACTION_DIR='\(dir)' /bin/bash '\(Self.script.path)' >/dev/null 2>'\(said)'"
        #if os(Linux)
            let status = (system(command) >> 8) & 0xFF
        #else
            // Darwin's `system` is unavailable to Swift; its Process does not wait for the server.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            try process.run()
            process.waitUntilExit()
            let status = process.terminationStatus
        #endif
        let text = (try? String(contentsOfFile: said, encoding: .utf8)) ?? ""
        return (status, text)
    }

    func pid(in dir: String) -> Int32? {
        (try? String(contentsOfFile: dir + "/skan-mock.pid", encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func restartsItsOwnServerAndRefusesAPortTakenByAnother() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        let other = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        defer {
            for folder in [dir, other] {
                if let pid = pid(in: folder) { kill(pid, SIGTERM) }
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
        let first = try run(port: port, dir: dir)
        #expect(first.status == 0, "\(first.said)")
        let firstPid = try #require(pid(in: dir))
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)

        // Run again: the server it started is stopped, a new one serves.
        let second = try run(port: port, dir: dir)
        #expect(second.status == 0, "\(second.said)")
        let secondPid = try #require(pid(in: dir))
        #expect(secondPid != firstPid)
        #expect(!System.processExists(firstPid))

        // Another project's pre-action (another folder) finds the port taken: one line, exit 1,
        // and the first project's server is left alone.
        let third = try run(port: port, dir: other)
        #expect(third.status == 1)
        #expect(third.said.contains("the server did not start") && third.said.contains("\(port)"))
        #expect(System.processExists(secondPid))

        // The pid file names a running server: a second server given the same file is refused.
        let binary = try #require(ProcessLifecycleTests.executable)
        let refused = Process()
        refused.executableURL = binary
        refused.arguments = ["--port", "0", "--pid-file", dir + "/skan-mock.pid"]
        let errors = Pipe()
        refused.standardError = errors
        refused.standardOutput = FileHandle.nullDevice
        try refused.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 2)
        #expect(said.contains("names process \(secondPid), which is still running"))

        // Stopped with SIGTERM, the server removes its pid file.
        kill(secondPid, SIGTERM)
        for _ in 0..<100 where FileManager.default.fileExists(atPath: dir + "/skan-mock.pid") { usleep(50_000) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/skan-mock.pid"))
    }
}
