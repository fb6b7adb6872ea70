import Foundation
import SystemPOSIX
import Testing

/// Issue 50.2: the shell assertions of docs/testing-your-app.md, run by bash as a CI script runs
/// them, pass against a server that has seen the requests and fail against one that is not there.
/// (`jq -e` exits 0 on empty input, so `curl ... | jq -e ...` passed when curl got nothing.)
@Suite("The docs' shell assertions in bash")
struct ShellAssertionTests {
    static func block() throws -> String {
        let page = try DocumentationPages.text("docs/testing-your-app.md")
        return try #require(
            DocumentationPages.block(after: "## Asserting on the journal from a shell script", language: "sh", in: page)
        )
    }

    /// Runs `script` with `bash -e`: its exit status and what it printed.
    static func bash(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theBlockPassesAgainstARunningServer() throws {
        let mock = try TestSKANMock()
        // The test server's clock stands still at `start`: it stands for `date`.
        let script = try Self.block().replacingOccurrences(of: "http://127.0.0.1:8080", with: mock.url(""))
            .replacingOccurrences(of: "$(date +%s)", with: String(TestSKANMock.start))
        let run = try Self.bash(script)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test func eachAssertionFailsAgainstAStoppedServer() throws {
        let fd = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
        let port = System.localPort(fd)
        System.close(fd)
        let assertions = try Self.block().split(separator: "\n").filter { $0.contains("| jq -en") }
        #expect(assertions.count == 3)
        for line in assertions {
            let script = "mark=0\n" + line.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
            let run = try Self.bash(script)
            #expect(run.status != 0, "passed with no server: \(line)")
        }
    }
}
