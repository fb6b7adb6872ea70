import Foundation
import SKANDomain
import SystemPOSIX
import Testing

/// `--log` on a file that stops taking writes (a file-size limit standing in for a full disk,
/// issue 22): no partial line, the server keeps serving and keeps the in-memory journal, health
/// says `failing`, and once writing works again the waiting lines are written, in order.
@Suite("Journal file on a full disk")
struct JournalFileFailureTests {
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"),
            "needs util-linux's prlimit to lift the limit"))
    func aFailingFileLosesNoLineAndCatchesUp() throws {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let log = NSTemporaryDirectory() + "skan-mock-full-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // A soft limit of a few KiB: a few journal lines fit, the rest do not. (The hard limit stays,
        // so that the limit can be lifted below without privileges, as space comes back on a disk.)
        process.arguments = ["-c", "ulimit -S -f 4 && exec \"$0\" --port 0 --log \"$1\"", binary.path, log]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            if process.isRunning { System.killProcess(process.processIdentifier) }
            process.waitUntilExit()
        }
        let said = PipeText(errors)
        let port = try #require(ListeningLine.port(of: output))
        let base = "http://127.0.0.1:\(port)"
        let client = CurlClient()
        for n in 1...20 {
            let query =
                "a=K&i=com.x&p=iOS&idfv=FULL-\(n)&n=__SESSION__&conversion_value=0&padding="
                + String(repeating: "x", count: 200)
            #expect(try client.get("\(base)/api/v1/conversion_value?\(query)").status == 200)
        }
        // The in-memory journal has every request; the file fails and says how many wait.
        #expect(try JSONParser.parse(client.get("\(base)/__admin/requests/count").body)["count"] == 20)
        // The server says so on standard error once health reads it so.
        #expect(said.wait(for: "writing failed"))
        var health = try JSONParser.parse(client.get("\(base)/__admin/health").body)
        #expect(health["journal"]?["file"]?["state"] == "failing")
        #expect((health["journal"]?["file"]?["waiting"]?.intValue ?? 0) > 0)
        #expect(health["journal"]?["file"]?["reason"]?.stringValue?.isEmpty == false)
        // Only whole lines in the file.
        let partial = try String(contentsOfFile: log, encoding: .utf8)
        #expect(partial.isEmpty || partial.hasSuffix("\n"))
        #expect(partial.split(separator: "\n").allSatisfy { (try? JSONParser.parse(Array($0.utf8))) != nil })

        // Space returns: the limit is lifted, and the waiting lines follow, in order.
        let lift = Process()
        lift.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        lift.arguments = ["--pid", String(process.processIdentifier), "--fsize=unlimited:"]
        try lift.run()
        lift.waitUntilExit()
        #expect(lift.terminationStatus == 0)
        #expect(said.wait(for: "writing works again"))
        health = try JSONParser.parse(client.get("\(base)/__admin/health").body)
        #expect(health["journal"]?["file"]?["state"] == "ok")
        let ids = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONParser.parse(Array($0.utf8))["id"]?.intValue }
        #expect(ids == Array(1...20))
        #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        let all = said.all()
        #expect(all.components(separatedBy: "writing failed").count == 2)  // said once
        #expect(all.contains("writing works again"))
    }
}
