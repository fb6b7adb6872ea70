import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

/// The real `skan-mock` executable, started as a user would: the start-up line, and a SIGTERM in
/// the middle of a load that loses no journal line.
@Suite("skan-mock process")
struct ProcessLifecycleTests {
    /// The executable built next to the test bundle (`swift build --build-tests` builds both).
    static var executable: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "skan-mock"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    ".build/debug/skan-mock")
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Starts the server on a free port and returns it with its port, read from the start-up line.
    private func launch(_ arguments: [String]) throws -> (Process, Int) {
        try SKANMockExecutable.serve(arguments)
    }

    /// The start-up line promises that the server takes its signals: a SIGTERM sent the moment
    /// the line appears used to be lost now and then (Dispatch had not registered its source yet,
    /// and the signal was already ignored), and whoever waited for the server to end waited
    /// forever. Several starts, each stopped at once.
    @Test func aSIGTERMRightAfterTheStartupLineStopsTheServer() throws {
        for _ in 0..<12 {
            let (process, _) = try launch([])
            #expect(process.terminateAndWait(atMost: 10), "the server lost a SIGTERM sent after its start-up line")
            #expect(process.terminationStatus == 0)
        }
    }

    @Test func sigtermDuringALoadLosesNoJournalLine() throws {
        let log = NSTemporaryDirectory() + "skan-mock-sigterm-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (process, port) = try launch(["--log", log])
        let answered = Mutex(0)
        let underLoad = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for client in 0..<4 {
            DispatchQueue.global().async(group: group) {
                let curl = CurlClient()
                for request in 0..<5_000 {
                    let url =
                        "http://127.0.0.1:\(port)/api/v1/conversion_value?idfv=L\(client)&n=e&conversion_value=\(request % 2)"
                    guard let response = try? curl.get(url), response.status == 200, !response.body.isEmpty else {
                        return
                    }
                    if answered.withLock({
                        $0 += 1
                        return $0
                    }) == 300 {
                        underLoad.signal()
                    }
                }
            }
        }
        #expect(underLoad.wait(timeout: .now() + 60) == .success, "300 requests answered")
        let stopped = Date()
        #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        let seconds = Date().timeIntervalSince(stopped)
        group.wait()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(seconds < 5)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        for line in lines { _ = try JSONParser.parse(String(line)) }
        #expect(lines.count == answered.withLock { $0 })
    }

    /// SIGTERM while upstream exchanges are pending (issue 30.1): every request received is in the
    /// log (shadow: answered, with the upstream's timeout; proxy: with the 502 it got or, for a
    /// client that went away, what it would have got), and the stop ends within the drain bound.
    @Test(arguments: ["shadow", "proxy"])
    func sigtermWithUpstreamExchangesPendingJournalsEveryRequest(mode: String) throws {
        let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 16)
        defer { System.close(silent) }
        let log = NSTemporaryDirectory() + "skan-mock-drain-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (process, port) = try launch([
            "--log", log, "--upstream", "http://127.0.0.1:\(System.localPort(silent))", "--upstream-mode", mode,
            "--upstream-timeout", "2"
        ])
        let group = DispatchGroup()
        for client in 0..<5 {
            DispatchQueue.global().async(group: group) {
                let url =
                    "http://127.0.0.1:\(port)/api/v1/conversion_value?a=K&i=com.example&p=iOS&idfv=D\(client)&n=e&conversion_value=0"
                _ = try? CurlClient().get(url)
            }
        }
        // Shadow answers at once; proxy clients wait for the upstream. Either way all five are in
        // once the upstream has five connections, one per exchange: taken, and never answered.
        var exchanges: [Int32] = []
        defer { exchanges.forEach(System.close) }
        let deadline = Date().addingTimeInterval(30)
        while exchanges.count < 5 && Date() < deadline {
            guard System.waitReadable(silent, milliseconds: 1_000) else { continue }
            if case .done(let accepted)? = try? System.accept(silent) { exchanges.append(accepted.fd) }
        }
        #expect(exchanges.count == 5, "the upstream saw \(exchanges.count) of the 5 exchanges")
        let stopped = Date()
        #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        let seconds = Date().timeIntervalSince(stopped)
        group.wait()
        #expect(process.terminationStatus == 0)
        #expect(seconds < 10)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let entries = try lines.map { try JSONParser.parse(String($0)) }.filter { $0["device"] != nil }
        #expect(Set(entries.compactMap { $0["device"]?.stringValue }) == Set((0..<5).map { "D\($0)" }))
        for entry in entries {
            let error = entry["upstream"]?["error"]?.stringValue
            #expect(error == "timeout" || error == "not_sent", "\(entry)")
        }
    }

    @Test func aBadModelStopsTheStartWithItsPathAndStatus2() throws {
        let path = NSTemporaryDirectory() + "skan-mock-bad-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"name": "bad", "skan3": {"mode": "increment", "max": 64}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let binary = try #require(Self.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--model", path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2)
        #expect(message.contains(path))
        #expect(message.contains("$.skan3.max"))
    }

    @Test func sighupReloadsTheModelAndABadFileKeepsTheOldOne() throws {
        let path = NSTemporaryDirectory() + "skan-mock-hup-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"name": "first", "skan3": {"mode": "increment", "max": 2}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let errors = Pipe()
        let (process, port) = try SKANMockExecutable.serve(["--model", path, "--no-watch-model"], errors: errors)
        let said = PipeText(errors)
        defer {
            #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        }
        let client = CurlClient()
        func health() throws -> JSONValue {
            try JSONParser.parse(try client.get("http://127.0.0.1:\(port)/__admin/health").body)
        }
        /// Sends SIGHUP and waits for the server to say `line` (it says it once the reload is done).
        func hangUp(until line: String) -> Bool {
            kill(process.processIdentifier, SIGHUP)
            return said.wait(for: line)
        }
        #expect(try health()["model"]?["name"] == "first")

        // With --no-watch-model no tick looks at the file (`ModelReloadTests`, in process): SIGHUP does.
        try #"{"name": "second", "skan3": {"mode": "increment", "max": 5}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(hangUp(until: "SIGHUP: model reloaded: second"))
        #expect(try health()["model"]?["name"] == "second")

        try #"{"name": "third", "skan3": {"mode": "increment", "max": 99}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(hangUp(until: "SIGHUP: model not reloaded"))
        let after = try health()
        #expect(after["model"]?["name"] == "second")
        #expect(after["model"]?["reload_error"]?.stringValue?.contains("$.skan3.max") == true)
    }

    @Test func routeAliasesFromTheCommandLineAndTheEnvironment() throws {
        let (process, port) = try launch(["--route", "/cv=skan4", "--route", "/s2s/evt=evt"])
        defer {
            #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        }
        let client = CurlClient()
        #expect(try client.get("http://127.0.0.1:\(port)/cv?a=K&idfv=R&n=x").status == 200)
        #expect(
            try client.get("http://127.0.0.1:\(port)/s2s/evt?a=K&p=iOS&i=x&idfv=R&n=x").text == "{\"status\":\"ok\"}")
        let endpoints = try JSONParser.parse(try client.get("http://127.0.0.1:\(port)/__admin/requests?device=R").body)[
            "requests"]?
            .arrayValue?.map { $0["endpoint"]?.stringValue }
        #expect(endpoints == ["skan4", "event"])

        let binary = try #require(Self.executable)
        let bad = Process()
        bad.executableURL = binary
        bad.arguments = ["--port", "0"]
        bad.environment = ["SKAN_MOCK_ROUTES": "/a=skan4,/b=skan9"]
        let errors = Pipe()
        bad.standardError = errors
        try bad.run()
        bad.waitUntilExit()
        #expect(bad.terminationStatus == 64)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("/b=skan9"))
    }

    /// An alias on Singular's own path, or two aliases on one path, stop the start with one line.
    @Test(arguments: [
        RouteConflictCase(
            arguments: ["--route", "/api/v1/evt=skan4"], message: "/api/v1/evt is Singular's own path for evt"),
        RouteConflictCase(
            arguments: ["--route", "/v2/x=evt", "--route", "/v2/x=skan3"],
            message: "--route /v2/x=evt and --route /v2/x=skan3 both claim /v2/x"),
        RouteConflictCase(
            environment: ["SKAN_MOCK_ROUTES": "/v2/x=evt,/v2/x=skan3?a=K"],
            message: "SKAN_MOCK_ROUTES: /v2/x=evt and /v2/x=skan3?a=K both claim /v2/x")
    ])
    func routeConflictsStopTheStart(_ conflict: RouteConflictCase) throws {
        let (arguments, environment, message) = (conflict.arguments, conflict.environment, conflict.message)
        let binary = try #require(Self.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0"] + arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        let lines = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(message) == true)
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    /// `--admin-token "$SKAN_MOCK_ADMIN_TOKEN"` with the variable unset: no token, said once, and
    /// the admin API answers without one.
    @Test func anEmptyAdminTokenMeansNone() throws {
        let binary = try #require(Self.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--admin-token", ""]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        }
        let port = try #require(ListeningLine.port(of: output))
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)
        #expect(
            try CurlClient().get("http://127.0.0.1:\(port)/__admin/requests", headers: ["Authorization: Bearer "])
                .status == 200)
        #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("--admin-token is empty, so the admin API takes no token"))
    }

    /// `skan-mock validate a.json b.json`: each file in turn, one line each, exit 2 if any fails.
    @Test func validateChecksEveryFileGiven() throws {
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")
        let bad = NSTemporaryDirectory() + "skan-validate-\(UUID().uuidString).json"
        try #"{"name": "bad", "skan3": {"mode": "increment", "max": 64}}"#.write(
            toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let good = [
            config.appendingPathComponent("revenue.json").path,
            config.appendingPathComponent("singular-testing.json").path
        ]
        for (files, status) in [(good, Int32(0)), (good + [bad], Int32(2))] {
            let binary = try #require(Self.executable)
            let process = Process()
            process.executableURL = binary
            process.arguments = ["validate"] + files
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == status)
            #expect(out.split(separator: "\n").count == 2)
            #expect(
                out.contains("revenue.json: ok (model ")
                    && out.contains("singular-testing.json: ok (model \"singular-testing\")"))
            #expect(err.isEmpty == (status == 0))
            if status == 2 { #expect(err.contains(bad) && err.contains("$.skan3.max")) }
        }
    }

    /// `skan-mock validate config/*.json` as the README's reader types it: the models are checked, the
    /// JSON Schema and the scenarios are said to be what they are and skipped, and it exits 0.
    @Test func validateOfTheConfigFolderSkipsTheSchemaAndScenarios() throws {
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")
        // Every scenario the repository ships, as `config/scenarios/*.json` lists them.
        let scenarios = try FileManager.default.contentsOfDirectory(
            atPath: config.appendingPathComponent("scenarios").path
        )
        .filter { $0.hasSuffix(".json") }.sorted()
        #expect(scenarios.contains("lifecycle.json"))
        let files =
            ["event-bits.json", "model.schema.json", "retention.json", "revenue.json", "singular-testing.json"]
            .map { config.appendingPathComponent($0).path }
            + scenarios.map { config.appendingPathComponent("scenarios/" + $0).path }
        let run = try SKANMockExecutable.run(["validate"] + files)
        let out = run.output
        #expect(run.status == 0)
        #expect(run.error.isEmpty, "\(run.error)")
        #expect(out.contains("model.schema.json: skipped: a JSON Schema"))
        for scenario in scenarios {
            #expect(out.contains("\(scenario): skipped: a scenario for `skan-mock simulate --scenario`"), "\(scenario)")
        }
        #expect(out.split(separator: "\n").filter { $0.contains(": ok (model ") }.count == 4)
    }

    @Test func simulateWithAMissingScenarioFileExitsWith2NamingIt() throws {
        let binary = try #require(Self.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["simulate", "--url", "http://127.0.0.1:9", "--scenario", "/nonexistent/scenario.json"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("/nonexistent/scenario.json") && message.contains("cannot read the file"))
    }
}

/// `--route` arguments or environment, and the line the start stops with.
struct RouteConflictCase: Sendable, CustomTestStringConvertible {
    var arguments: [String] = []
    var environment: [String: String] = [:]
    var message: String

    var testDescription: String { message }
}
