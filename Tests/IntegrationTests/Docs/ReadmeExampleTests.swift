import Foundation
import SKANDomain
import Testing

@testable import SKANMock

/// Every example in README.md and docs/*.md is true: each `sh` block that calls the server runs, in
/// order, against a fresh server, and each answer is compared with the `# {...}` line under it, or
/// with the `| jq -en 'input.key == value'` after it; the samples outside those blocks are compared with
/// what the server says for the same request.
@Suite("Documentation examples against a fresh server")
struct ReadmeExampleTests {
    /// Checks a page must yield at least, so a change of format that silently skips them fails.
    static let minimumChecks: [String: Int] = [
        "README.md": 1, "docs/admin-api.md": 22, "docs/testing-your-app.md": 3,
        "docs/comparing-with-production.md": 7, "docs/docker.md": 3, "docs/operations.md": 6,
        "docs/endpoints.md": 4, "docs/postbacks.md": 5
    ]

    @Test(arguments: DocumentationPages.names)
    func examplesRunAsShown(page: String) throws {
        let text = try DocumentationPages.text(page)
        let files = try Self.write(DocumentationPages.namedFiles(in: text))
        defer { for url in files.values { try? FileManager.default.removeItem(at: url) } }
        var checks = 0
        for block in DocumentationPages.shellBlocks(in: text) where block.contains(where: ReadmeRunner.callsServer) {
            var runner = ReadmeRunner(page: page, root: DocumentationPages.root, files: files)
            for line in block { try runner.step(line) }
            checks += runner.checks
        }
        #expect(checks >= Self.minimumChecks[page] ?? 0, "\(page): \(checks) checks; did the page's format change?")
    }

    @Test func everyPageIsRead() {
        let names = DocumentationPages.names
        for page in Self.minimumChecks.keys { #expect(names.contains(page), "\(page) is gone") }
    }

    /// The samples outside the runnable blocks cannot drift from the server (issue 26): the clock
    /// sample's `now` is its `now_s`, and the journal sample has the members, in the order, of an
    /// entry the server writes for the same request.
    @Test func samplesAgreeWithTheServer() throws {
        let page = try DocumentationPages.text("docs/admin-api.md")
        let clockLine = try #require(page.split(separator: "\n").first { $0.hasPrefix("# {\"offset_s\":") })
        let clock = try JSONParser.parse(Array(clockLine.dropFirst(2).utf8))
        let seconds = try #require(clock["now_s"]?.intValue)
        #expect(clock["now"]?.stringValue == RFC3339.format(milliseconds: seconds * 1000))

        let block = try #require(DocumentationPages.block(after: "\n## The journal\n", language: "json", in: page))
        let sample = try JSONParser.parse(Array(block.replacingOccurrences(of: "\n", with: "").utf8))
        let mock = try TestSKANMock()
        let params = try #require(sample["params"]?.objectValue).map { ($0.key, $0.value.stringValue ?? "") }
        _ = try mock.get("/api/v2/conversion_value", params)
        let entry = try #require(try mock.journal().first)
        #expect(sample.objectValue?.map(\.key) == entry.objectValue?.map(\.key))
        #expect(sample["response"]?["body"] == entry["response"]?["body"])
    }

    /// "The default model, complete" is the model the server serves when given none.
    @Test func theDefaultModelIsTheBuiltInOne() throws {
        let page = try DocumentationPages.text("docs/conversion-model.md")
        let block = try #require(
            DocumentationPages.block(after: "The default model, complete:", language: "json", in: page))
        let shown = try JSONParser.parse(block)
        let served = try #require(try TestSKANMock().admin("/__admin/model").objectValue)
        #expect(JSONValue.object(served.filter { $0.key != "$schema" && $0.key != "description" }) == shown)
    }

    /// The README's test command is the one CI runs, word for word.
    @Test func theReadmeTestCommandIsWhatCIRuns() throws {
        let ci = try DocumentationPages.text(".ci/run")
        let command = try #require(
            ci.split(separator: "\n").first { $0.hasPrefix("./Tests/") }?.split(separator: " ").first.map(String.init))
        let readme = try DocumentationPages.text("README.md")
        let first = try #require(DocumentationPages.shellBlocks(in: readme).first)
        #expect(first.contains { $0.hasPrefix(command + " ") }, "README's first block does not run \(command)")
    }

    /// The admin API page's route table has every path of the OpenAPI document.
    @Test func theAdminPageHasEveryRoute() throws {
        let openAPI = try DocumentationPages.text("openapi/skan-mock-admin.yaml")
        let page = try DocumentationPages.text("docs/admin-api.md")
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
        let paths = openAPI.matches(of: /\n  (\/__admin[^:\s]*):/).map { String($0.1) }
        #expect(paths.count >= 10)
        for path in paths {
            let shown = path.replacing(/\{[a-z_]+\}/, with: "ID")
            #expect(
                rows.contains(shown + "`") || rows.contains(shown + "["), "docs/admin-api.md has no row for \(path)")
        }
    }

    /// Issue 50.10: the architecture page's table names every target folder in `Sources`.
    @Test func theArchitectureTableHasEveryTarget() throws {
        let page = try DocumentationPages.text("docs/architecture.md")
        let sources = DocumentationPages.root.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        #expect(targets.count >= 10)
        for target in targets.sorted() {
            #expect(page.contains("`Sources/\(target)`"), "docs/architecture.md does not name Sources/\(target)")
        }
    }

    /// The Docker page names every variable the compose file passes through from the host.
    @Test func theDockerPageListsEveryComposeVariable() throws {
        let compose = try DocumentationPages.text("docker/compose.yaml")
        let page = try DocumentationPages.text("docs/docker.md")
        let passed = Set(compose.matches(of: /\$\{(SKAN_MOCK_[A-Z_]+)/).map { String($0.1) })
        #expect(passed.count >= 10)
        for name in passed.sorted() { #expect(page.contains("`\(name)`"), "docs/docker.md does not name \(name)") }
    }

    private static func write(_ files: [String: String]) throws -> [String: URL] {
        var written: [String: URL] = [:]
        for (name, text) in files {
            let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "skan-mock-doc-\(UUID().uuidString)-\(name)")
            try text.write(to: url, atomically: true, encoding: .utf8)
            written[name] = url
        }
        return written
    }
}

/// Reads `sh` blocks as a very small shell: `curl` commands (with `-X`, `-d`, `--data-binary @file`,
/// `-H`, `-s`, `-f`, `-o FILE`, whose file is not written), `VAR=$(curl ... | jq -r .key)`, `$VAR`, `$(date +%s)`, `| jq -en 'input.key == value'`,
/// `# {expected JSON}` and `# metric_name ...` lines, and the lines that start a server
/// (`skan-mock [serve] OPTIONS`, `docker run -e SKAN_MOCK_...`): the next `curl` gets a fresh server
/// started so. `curl -N` (a stream that does not end) is left out; anything else is ignored.
struct ReadmeRunner {
    let page: String
    let root: URL
    /// Files the page defines (`<!-- file: NAME -->`), by the name its examples use.
    let files: [String: URL]
    private var mock: TestSKANMock?
    private var served = Served()
    private var variables: [String: String] = [:]
    private var last: (command: String, body: JSONValue?, text: String)?
    private(set) var checks = 0

    /// The options of the last server line, applied when the next server starts.
    private struct Served {
        var replayPath: String?
        var modelPath: String?
        var strict = false
        var adminToken: String?
        var clockOffset: Int64 = 0
        var routes: [RouteAlias] = []
    }

    init(page: String, root: URL, files: [String: URL]) {
        self.page = page
        self.root = root
        self.files = files
    }

    static func callsServer(_ line: String) -> Bool {
        line.contains("curl ") && line.contains("http://127.0.0.1:8080/")
    }

    mutating func step(_ line: String) throws {
        if line.hasPrefix("# {") || line.hasPrefix("# [") {
            let expected = String(line.dropFirst(2))
            let (command, body, _) = try #require(last, "\(page): expected output with no command before it: \(line)")
            let actual = try #require(body, "\(page): \(command) did not answer JSON")
            let pattern = try JSONParser.parse(Self.patternText(expected))
            #expect(Self.matches(actual, pattern), "\(page): \(command)\n  page:   \(expected)\n  server: \(actual)")
            checks += 1
            return
        }
        if let metric = line.firstMatch(of: /^# (skan_mock_[a-z_]+)/) {
            let (command, _, text) = try #require(last, "\(page): expected output with no command before it: \(line)")
            #expect(text.contains(String(metric.1)), "\(page): \(command) has no \(metric.1)")
            checks += 1
            return
        }
        if let assignment = line.firstMatch(of: /^(\w+)=\$\((curl .+) \| jq -r \.(\w+)\)$/) {
            let (body, _) = try curl(String(assignment.2))
            let value = try #require(body?[String(assignment.3)], "\(page): \(line): no \(assignment.3)")
            variables[String(assignment.1)] = value.stringValue ?? value.description
            return
        }
        if try startsServer(line) { return }
        guard line.hasPrefix("curl ") else { return }
        let parts = line.components(separatedBy: " | ")
        if try Self.words(parts[0]).contains("-N") {
            last = nil
            return
        }
        let (body, text) = try curl(parts[0])
        last = (parts[0], body, text)
        for filter in parts.dropFirst() {
            // `jq -en 'input.key == value'`: unlike `jq -e '.key == value'`, fails on empty input.
            guard let jq = filter.firstMatch(of: /^jq -en 'input\.(\w+) == (.+)'$/) else {
                Issue.record("\(page): unsupported pipe in a command: \(filter)")
                continue
            }
            let expected = try JSONParser.parse(String(jq.2))
            #expect(body?[String(jq.1)] == expected, "\(page): \(line)\n  server: \(body.map { "\($0)" } ?? "no JSON")")
            checks += 1
        }
    }

    /// A line that starts a server: its options apply to a fresh server for the commands after it.
    private mutating func startsServer(_ line: String) throws -> Bool {
        var words = try Self.words(line)
        if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
        // `NAME=VALUE ... docker compose ... up`: Compose passes those variables to the container.
        let assignments = words.prefix { $0.contains("=") && !$0.hasPrefix("-") }
        if words.dropFirst(assignments.count).starts(with: ["docker", "compose"]), words.contains("up") {
            var next = Served()
            for assignment in assignments {
                let pair = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                if pair[0] == "SKAN_MOCK_ADMIN_TOKEN" { next.adminToken = pair[1] }
                if pair[0] == "SKAN_MOCK_STRICT" { next.strict = pair[1] == "1" }
            }
            restart(next)
            return true
        }
        if words.starts(with: ["docker", "run"]) {
            var next = Served()
            for (flag, value) in zip(words, words.dropFirst()) where flag == "-e" {
                let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[0] == "SKAN_MOCK_ADMIN_TOKEN" { next.adminToken = pair[1] }
                if pair[0] == "SKAN_MOCK_STRICT" { next.strict = pair[1] == "1" }
            }
            restart(next)
            return true
        }
        guard words.first == "skan-mock" else { return false }
        words.removeFirst()
        if words.first == "serve" { words.removeFirst() }
        if let first = words.first, !first.hasPrefix("-") { return true }  // another subcommand: not run here
        var next = Served()
        while !words.isEmpty {
            let word = words.removeFirst()
            switch word {
            case "--replay": next.replayPath = path(words.removeFirst())
            case "--model": next.modelPath = path(words.removeFirst())
            case "--admin-token": next.adminToken = words.removeFirst()
            case "--clock-offset": next.clockOffset = Int64(words.removeFirst()) ?? 0
            case "--strict": next.strict = true
            case "--route": next.routes.append(try RouteAlias(parsing: words.removeFirst()))
            case "--port", "--host", "--log": words.removeFirst()
            default: Issue.record("\(page): an option the examples' server does not take: \(word) in \(line)")
            }
        }
        restart(next)
        return true
    }

    private mutating func restart(_ next: Served) {
        mock = nil
        served = next
    }

    private mutating func server() throws -> TestSKANMock {
        if let mock { return mock }
        let served = self.served
        let started = try TestSKANMock { options in
            options.replayPath = served.replayPath
            if let model = served.modelPath { options.modelPath = model }
            options.strict = served.strict
            options.adminToken = served.adminToken
            options.clockOffsetSeconds = served.clockOffset
            options.routes = served.routes
        }
        mock = started
        return started
    }

    /// A file the page defines, else a path from the repository's root.
    private func path(_ name: String) -> String {
        files[name]?.path ?? root.appendingPathComponent(name).path
    }

    /// Runs one `curl` command line against the test server; the answer as JSON (if it is) and text.
    private mutating func curl(_ command: String) throws -> (JSONValue?, String) {
        let mock = try server()
        var text = command.replacingOccurrences(of: "$(date +%s)", with: String(TestSKANMock.start))
        for (name, value) in variables { text = text.replacingOccurrences(of: "$" + name, with: value) }
        var words = try Self.words(text)
        words.removeFirst()  // curl
        var method = "GET"
        var url: String?
        var body: [UInt8]?
        var headers: [String] = []
        var failOnError = false
        while !words.isEmpty {
            let word = words.removeFirst()
            switch word {
            case "-X": method = words.removeFirst()
            case "-H": headers.append(words.removeFirst())
            case "-d", "--data": body = Array(words.removeFirst().utf8)
            case "--data-binary":
                let value = words.removeFirst()
                body =
                    value.hasPrefix("@")
                    ? try [UInt8](Data(contentsOf: URL(fileURLWithPath: path(String(value.dropFirst())))))
                    : Array(value.utf8)
            case "-s": break
            case "-f", "-sf", "-fs": failOnError = true
            // The answer saved to a file (`-o session.har`) for a command the runner does not run.
            case "-o": words.removeFirst()
            case ">/dev/null": break
            default:
                guard word.hasPrefix("http://127.0.0.1:8080/") else {
                    Issue.record("\(page): unsupported curl argument: \(word)")
                    continue
                }
                url = mock.url(String(word.dropFirst("http://127.0.0.1:8080".count)))
            }
        }
        let target = try #require(url, "\(page): no URL in \(command)")
        if body != nil && method == "GET" { method = "POST" }
        let response = try mock.client.request(
            method, target, body: body ?? (method == "GET" ? nil : []), headers: headers)
        if failOnError {
            #expect(response.status < 400, "\(page): \(command) answered \(response.status) \(response.text)")
        }
        return (try? JSONParser.parse(response.body), response.text)
    }

    /// Splits a command line into words as a shell would for these examples (quotes, a `#` comment
    /// after the command, no globbing).
    static func words(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == "#" && !inWord {
                break
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// `[...]` matches any array, `"..."` any string, and `,...}` or `,...,` let an object have more members.
    static func patternText(_ expected: String) -> String {
        expected.replacingOccurrences(of: "[...]", with: "\"\(anyValue)\"")
            .replacingOccurrences(of: ",...}", with: ",\"\(moreMembers)\":true}")
            .replacingOccurrences(of: ",...,", with: ",\"\(moreMembers)\":true,")
    }

    static let anyValue = "<<any array>>"
    static let moreMembers = "<<more members>>"
    /// Members whose values change from run to run; compared by type.
    static let volatile: Set<String> = [
        "uptime_s", "time", "first_seen", "last_seen", "now", "now_s", "remote", "duration_us"
    ]

    static func matches(_ actual: JSONValue, _ pattern: JSONValue, key: String? = nil) -> Bool {
        if pattern.stringValue == anyValue { return true }
        if pattern.stringValue == "..." { return actual.stringValue != nil }
        if let key, volatile.contains(key) { return actual.typeName == pattern.typeName }
        switch (actual, pattern) {
        case (.object(let a), .object(let p)):
            let open = p.contains { $0.key == moreMembers }
            let wanted = p.filter { $0.key != moreMembers }
            if !open && a.map(\.key) != wanted.map(\.key) { return false }
            return wanted.allSatisfy { member in
                a.first { $0.key == member.key }.map { matches($0.value, member.value, key: member.key) } ?? false
            }
        case (.array(let a), .array(let p)):
            return a.count == p.count && zip(a, p).allSatisfy { matches($0, $1) }
        default:
            return actual == pattern
        }
    }
}
