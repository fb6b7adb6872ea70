import Foundation
import SystemPOSIX
import Testing

/// `skan-mock` started under an open-file limit it may not raise (hard limit 200, below the 1,024
/// connections it serves by default): it says so in one line on standard error, serves fewer
/// connections, and answers.
@Suite("skan-mock under a low open-file limit")
struct DescriptorLimitProcessTests {
    @Test func saysSoInOneLineAndServes() throws {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `ulimit -n` in sh sets both limits, so the server cannot raise the soft one.
        process.arguments = ["-c", "ulimit -n 200 && exec \"$0\" --port 0", binary.path]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        defer {
            if process.isRunning { System.killProcess(process.processIdentifier) }
            process.waitUntilExit()
        }
        let port = try #require(ListeningLine.port(of: output), "no listening line")
        let health = try CurlClient().get("http://127.0.0.1:\(port)/__admin/health")
        #expect(health.status == 200)
        #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        let errors = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").filter { $0.contains("open-file limit") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("the open-file limit is 200 (hard limit 200)") == true)
        #expect(errors.first?.contains("instead of 1024") == true)
    }
}
