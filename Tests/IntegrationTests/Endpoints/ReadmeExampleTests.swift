import Foundation
import SKANDomain
import Testing

/// The README's admin examples are true: every `curl` in the `sh` blocks of "Admin API" and
/// "Asserting on the journal from a test" runs, in order, against a fresh server, and its answer is
/// compared with the `# {...}` line under it, or with the `| jq -e '.key == value'` after it.
@Suite("README examples against a fresh server")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func adminAPIWalkThrough() throws {
        let checks = try run(section: "## Admin API")
        #expect(checks >= 18, "the walk-through's checks were not all found; did the README's format change?")
    }

    @Test func assertingOnTheJournalRecipes() throws {
        let checks = try run(section: "## Asserting on the journal from a test")
        #expect(checks >= 3)
    }

    /// The samples outside the walk-throughs cannot drift from the server (issue 26): the clock
    /// sample's `now` is its `now_s`, and the journal sample has the members, in the order, of an
    /// entry the server writes for the same request.
    @Test func samplesAgreeWithTheServer() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let clockLine = try #require(readme.split(separator: "\n").first { $0.hasPrefix("# {\"offset_s\":") })
        let clock = try JSONParser.parse(Array(clockLine.dropFirst(2).utf8))
        let seconds = try #require(clock["now_s"]?.intValue)
        #expect(clock["now"]?.stringValue == RFC3339.format(milliseconds: seconds * 1000))

        let section = try #require(readme.components(separatedBy: "## The journal\n").dropFirst().first)
        let opened = try #require(section.components(separatedBy: "```json\n").dropFirst().first)
        let block = try #require(opened.components(separatedBy: "```").first)
        let sample = try JSONParser.parse(Array(block.replacingOccurrences(of: "\n", with: "").utf8))
        let mock = try TestSKANMock()
        let params = try #require(sample["params"]?.objectValue).map { ($0.key, $0.value.stringValue ?? "") }
        _ = try mock.get("/api/v2/conversion_value", params)
        let entry = try #require(try mock.journal().first)
        #expect(sample.objectValue?.map(\.key) == entry.objectValue?.map(\.key))
        #expect(sample["response"]?["body"] == entry["response"]?["body"])
    }

    /// Runs one section's commands on a fresh server; returns how many answers were compared.
    private func run(section title: String) throws -> Int {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let mock = try TestSKANMock()
        var runner = ReadmeRunner(mock: mock, root: Self.root)
        for line in ReadmeRunner.shellLines(of: title, in: readme) {
            try runner.step(line)
        }
        return runner.checks
    }
}

/// Reads README `sh` blocks as a very small shell: `curl` commands (with `-X`, `-d`, `--data-binary @file`,
/// `-H`, `-s`, `-f`), `VAR=$(curl ... | jq -r .key)`, `$VAR`, `$(date +%s)`, `| jq -e '.key == value'` and
/// `# {expected JSON}` comment lines. Anything else is ignored.
struct ReadmeRunner {
    let mock: TestSKANMock
    let root: URL
    private var variables: [String: String] = [:]
    private var last: (command: String, body: JSONValue?)?
    private(set) var checks = 0

    init(mock: TestSKANMock, root: URL) {
        self.mock = mock
        self.root = root
    }

    /// The lines of the `sh` blocks in the section headed `title`, `\`-continuations joined.
    static func shellLines(of title: String, in readme: String) -> [String] {
        guard let start = readme.range(of: "\n" + title + "\n") else { return [] }
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var lines: [String] = []
        var inBlock = false
        var pending = ""
        for raw in section.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```") {
                inBlock = line == "```sh" ? true : false
                continue
            }
            guard inBlock else { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            lines.append(pending + line.trimmingCharacters(in: .whitespaces))
            pending = ""
        }
        return lines
    }

    mutating func step(_ line: String) throws {
        if line.hasPrefix("# {") || line.hasPrefix("# [") {
            let expected = String(line.dropFirst(2))
            let (command, body) = try #require(last, "expected output with no command before it: \(line)")
            let actual = try #require(body, "\(command) did not answer JSON")
            let pattern = try JSONParser.parse(Self.patternText(expected))
            #expect(Self.matches(actual, pattern), "\(command)\n  README: \(expected)\n  server: \(actual)")
            checks += 1
            return
        }
        if let assignment = line.firstMatch(of: /^(\w+)=\$\((curl .+) \| jq -r \.(\w+)\)$/) {
            let body = try curl(String(assignment.2))
            let value = try #require(body?[String(assignment.3)], "\(line): no \(assignment.3)")
            variables[String(assignment.1)] = value.stringValue ?? value.description
            return
        }
        guard line.hasPrefix("curl ") else { return }
        let parts = line.components(separatedBy: " | ")
        let body = try curl(parts[0])
        last = (parts[0], body)
        for filter in parts.dropFirst() {
            guard let jq = filter.firstMatch(of: /^jq -e '\.(\w+) == (.+)'$/) else {
                Issue.record("unsupported pipe in README command: \(filter)")
                continue
            }
            let expected = try JSONParser.parse(String(jq.2))
            #expect(body?[String(jq.1)] == expected, "\(line)\n  server: \(body.map { "\($0)" } ?? "no JSON")")
            checks += 1
        }
    }

    /// Runs one `curl` command line against the test server; the answer parsed as JSON, if it is.
    private func curl(_ command: String) throws -> JSONValue? {
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
                    ? try [UInt8](Data(contentsOf: root.appendingPathComponent(String(value.dropFirst()))))
                    : Array(value.utf8)
            case "-s": break
            case "-f", "-sf", "-fs": failOnError = true
            case ">/dev/null": break
            default:
                guard word.hasPrefix("http://127.0.0.1:8080/") else {
                    Issue.record("unsupported curl argument in README: \(word)")
                    continue
                }
                url = mock.url(String(word.dropFirst("http://127.0.0.1:8080".count)))
            }
        }
        let target = try #require(url, "no URL in \(command)")
        if body != nil && method == "GET" { method = "POST" }
        let response = try mock.client.request(
            method, target, body: body ?? (method == "GET" ? nil : []), headers: headers)
        if failOnError { #expect(response.status < 400, "\(command) answered \(response.status) \(response.text)") }
        return try? JSONParser.parse(response.body)
    }

    /// Splits a command line into words as a shell would for these examples (quotes, no globbing).
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

    /// `[...]` matches any array, `"..."` any string, and `,...}` lets an object have more members.
    static func patternText(_ expected: String) -> String {
        expected.replacingOccurrences(of: "[...]", with: "\"\(anyValue)\"")
            .replacingOccurrences(of: ",...}", with: ",\"\(moreMembers)\":true}")
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
