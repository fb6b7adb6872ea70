import Foundation
import Testing

/// docs/command-line.md names exactly what `skan-mock --help` and each subcommand's `--help` offer:
/// an option added to the code and not to the page, or left on the page after it is gone, fails here.
@Suite("The command-line page against --help")
struct CommandLinePageTests {
    /// What one `--help` lists.
    struct Help {
        var subcommands: [String] = []
        var options: Set<String> = []
    }

    /// Options every subcommand has, named once on the page's last synopsis line.
    static let common: Set<String> = ["--help", "-h", "--version"]

    @Test func everySubcommandAndOptionIsOnThePage() throws {
        let page = try DocumentationPages.text("docs/command-line.md")
        let synopsis = try #require(
            DocumentationPages.block(after: "## Synopsis", language: "text", in: page), "no synopsis block")
        let lines = Self.synopsisLines(synopsis)
        let top = try Self.help([])
        #expect(top.subcommands.count >= 8, "skan-mock --help lists \(top.subcommands)")
        var known = top.options
        for subcommand in top.subcommands {
            let help = try Self.help([subcommand, "--help"])
            known.formUnion(help.options)
            let line = lines[subcommand]
            #expect(line != nil, "the synopsis has no line for skan-mock \(subcommand)")
            #expect(page.contains("\n## \(subcommand)"), "docs/command-line.md has no section for \(subcommand)")
            let named = Set(Self.options(in: line ?? ""))
            for option in help.options.subtracting(Self.common).subtracting(named).sorted() {
                Issue.record("skan-mock \(subcommand) \(option) is not in the synopsis of docs/command-line.md")
            }
            for option in named.subtracting(help.options).sorted() {
                Issue.record("the synopsis names \(option) for skan-mock \(subcommand), which has no such option")
            }
        }
        for name in lines.keys where name != "help" && name != "" && !top.subcommands.contains(name) {
            Issue.record("the synopsis names skan-mock \(name), which is not a subcommand")
        }
        for option in Self.common {
            #expect(synopsis.contains(option), "the synopsis does not name \(option)")
        }
        let serve = try Self.help(["serve", "--help"])
        for option in serve.options.subtracting(Self.common).sorted() {
            #expect(
                page.split(separator: "\n").contains {
                    $0.hasPrefix("| `") && $0.split(separator: "|").first?.contains("`\(option)`") == true
                },
                "the options table has no row for \(option)")
        }
        for option in Set(Self.options(in: page)).subtracting(known).sorted() {
            Issue.record("docs/command-line.md names \(option), which no subcommand has")
        }
    }

    /// Every `skan-mock ...` command in the `sh` blocks of README.md and docs/*.md uses options its
    /// subcommand has, so a renamed option cannot linger in an example on another page.
    @Test func everyCommandOnEveryPageUsesRealOptions() throws {
        let top = try Self.help([])
        var helps: [String: Help] = [:]
        for subcommand in top.subcommands { helps[subcommand] = try Self.help([subcommand, "--help"]) }
        var commands = 0
        for page in DocumentationPages.names {
            for line in DocumentationPages.shellBlocks(in: try DocumentationPages.text(page)).joined() {
                let code = line.components(separatedBy: " #").first ?? line
                guard let start = code.firstMatch(of: #/(^|[ /])skan-mock (?=[a-z-])/#) else { continue }
                let words = code[start.range.upperBound...].split(separator: " ").map(String.init)
                let subcommand = words.first.flatMap { helps[$0] != nil ? $0 : nil } ?? "serve"
                let known = try #require(helps[subcommand]).options
                commands += 1
                for option in Self.options(in: words.joined(separator: " ")) where !known.contains(option) {
                    Issue.record("\(page): skan-mock \(subcommand) has no \(option): \(line)")
                }
            }
        }
        #expect(commands >= 20, "only \(commands) skan-mock commands found in the pages")
    }

    /// The synopsis by subcommand: `skan-mock [serve] ...` is serve, continuation lines join the
    /// line above, `skan-mock [<subcommand>] ...` (the common options) is "".
    static func synopsisLines(_ block: String) -> [String: String] {
        var lines: [String: String] = [:]
        var current: String?
        for line in block.split(separator: "\n").map(String.init) {
            if line.hasPrefix("skan-mock ") {
                let word = line.split(separator: " ")[1]
                current = word == "[serve]" ? "serve" : word.hasPrefix("[") || word.hasPrefix("-") ? "" : String(word)
                lines[current ?? "", default: ""] += line
            } else if let current {
                lines[current, default: ""] += " " + line
            }
        }
        return lines
    }

    /// The `--option` (and `-x`) names written in a text.
    static func options(in text: String) -> [String] {
        text.matches(of: /(^|[^\w-])(--[a-z][a-z0-9-]*|-h)(?![\w-])/).map { String($0.2) }
    }

    /// Runs `skan-mock ARGUMENTS` (no arguments: `--help`) and reads its subcommands and options.
    static func help(_ arguments: [String]) throws -> Help {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var help = Help()
        var section = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && line.hasSuffix(":") {
                section = String(line)
                continue
            }
            if section == "SUBCOMMANDS:", let name = line.firstMatch(of: /^  ([a-z]+)( \(default\))?\s\s/) {
                help.subcommands.append(String(name.1))
            }
            // `OPTIONS:`, or a group's own heading (`serve`'s `UPSTREAM:`, `HTTPS:`, ...).
            if section.hasSuffix(":"), section != "SUBCOMMANDS:",
                let option = line.firstMatch(of: /^  (-h, )?(--[a-z][a-z0-9-]*)/)
            {
                help.options.insert(String(option.2))
                if option.1 != nil { help.options.insert("-h") }
            }
        }
        return help
    }
}
