import Foundation
import Testing

/// Messages that say what to do next (issue 42 item 11), from the real executable.
@Suite("Command-line messages")
struct CommandLineMessageTests {
    @Test func healthNamesTheTokenVariableOnA401() throws {
        let mock = try TestSKANMock { $0.adminToken = "s3cret" }
        let port = String(mock.server.port)
        let none = try SKANMockExecutable.run(["health", "--port", port], environment: ["SKAN_MOCK_ADMIN_TOKEN": ""])
        #expect(none.status == 1)
        #expect(
            none.error.hasPrefix("skan-mock health: HTTP 401: the server has an admin token; set SKAN_MOCK_ADMIN_TOKEN")
        )
        let wrong = try SKANMockExecutable.run(
            ["health", "--port", port], environment: ["SKAN_MOCK_ADMIN_TOKEN": "nope"])
        #expect(wrong.error.contains("is not the one in SKAN_MOCK_ADMIN_TOKEN"), "\(wrong.error)")
        let right = try SKANMockExecutable.run(
            ["health", "--port", port], environment: ["SKAN_MOCK_ADMIN_TOKEN": "s3cret"])
        #expect(right.status == 0, "\(right.error)")
    }

    /// A command line that cannot be read is one line, with where to look (it was 3 or 4: the
    /// error, the option's help and the whole usage).
    @Test(arguments: [
        (["--port", "abc"], "skan-mock: The value 'abc' is invalid for '--port <port>' (see 'skan-mock serve --help')"),
        (["report"], "skan-mock: Missing expected argument '<journal>' (see 'skan-mock report --help')"),
        // Issue 50.9: a subcommand's own check points to that subcommand's help.
        (
            ["report", "journal.jsonl", "--framework", "x"],
            "skan-mock: --framework must be skan or aak (see 'skan-mock report --help')"
        ),
        (
            ["help", "bogus"],
            "skan-mock: no subcommand bogus; the subcommands are serve, validate, health, simulate, report, compare, record, check, ca (see 'skan-mock --help')"
        )
    ])
    func aBadCommandLineIsOneLine(arguments: [String], line: String) throws {
        let run = try SKANMockExecutable.run(arguments)
        #expect(run.status == 64)
        #expect(run.error == line + "\n")
        #expect(run.output.isEmpty)
    }

    @Test func helpIsStillTheWholeHelp() throws {
        let run = try SKANMockExecutable.run(["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("SUBCOMMANDS:"))
        let named = try SKANMockExecutable.run(["help", "report"])
        #expect(named.status == 0)
        #expect(named.output.contains("USAGE: skan-mock report"))
    }

    /// Issue 50.9: a host that does not resolve is `--host`'s fault, not `--port`'s.
    @Test func aHostThatDoesNotResolveBlamesHost() throws {
        let run = try SKANMockExecutable.run(["--host", "nosuchhost.invalid", "--port", "0"])
        #expect(run.status == 2)
        #expect(
            run.error.hasPrefix("skan-mock: --host nosuchhost.invalid: cannot resolve host 'nosuchhost.invalid'"),
            "\(run.error)")
        #expect(!run.error.contains("--port"))
    }

    /// Issue 50.3: each option's default is said once.
    @Test func healthHelpSaysEachDefaultOnce() throws {
        let run = try SKANMockExecutable.run(["health", "--help"])
        #expect(run.status == 0)
        #expect(run.output.components(separatedBy: "127.0.0.1").count == 2, "\(run.output)")
    }

    /// A model with several problems says how to see them all.
    @Test func aModelWithSeveralProblemsSaysHowToSeeThemAll() throws {
        let file = NSTemporaryDirectory() + "skan-mock-problems-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{"name":"m","skan3":{"mode":"nope"},"skan4":{"p0":{"combine":"xor"}},"extra":1}"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let run = try SKANMockExecutable.run(["--port", "0", "--model", file])
        #expect(run.status == 2)
        #expect(run.error.contains("more problems: skan-mock validate \(file) lists them all)"), "\(run.error)")
    }
}
