import Foundation

/// The user documentation as files: README.md and every docs/*.md present (a page added later is
/// picked up with no change here), read into the `sh` blocks and named files their examples use.
struct DocumentationPages {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `README.md`, then `docs/NAME.md` in name order.
    static var names: [String] {
        let docs =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The page's `sh` blocks, each as its command lines: `\`-continuations joined, and a command that
    /// leaves a single quote open before any ` #` comment (a JSON body over several lines) joined with
    /// the next lines, and an expected answer shown over several `#` lines joined into one.
    static func shellBlocks(in page: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        var pending = ""
        for raw in page.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```") {
                if var block = current {
                    if !pending.isEmpty { block.append(pending.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    blocks.append(block)
                    current = nil
                } else if line == "```sh" {
                    current = []
                }
                pending = ""
                continue
            }
            guard current != nil else { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let joined = pending + (pending.isEmpty ? line.trimmingCharacters(in: .whitespaces) : line)
            let command = joined.components(separatedBy: " #").first ?? joined
            if !joined.hasPrefix("#") && command.filter({ $0 == "'" }).count % 2 == 1 {
                pending = joined + "\n"
                continue
            }
            let text = joined.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#"), let previous = current?.last,
                previous.hasPrefix("# {") || previous.hasPrefix("# ["),
                openBrackets(previous) > 0
            {
                // An answer shown over several comment lines is one `# {...}` line.
                current?.removeLast()
                current?.append(previous + text.dropFirst().trimmingCharacters(in: .whitespaces))
            } else {
                current?.append(text)
            }
            pending = ""
        }
        return blocks
    }

    /// How many `{` and `[` a JSON text leaves open (those inside strings do not count).
    static func openBrackets(_ text: String) -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        for c in text {
            if inString {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
            } else if c == "\"" {
                inString = true
            } else if c == "{" || c == "[" {
                depth += 1
            } else if c == "}" || c == "]" {
                depth -= 1
            }
        }
        return depth
    }

    /// Files a page defines for its examples: a fenced block right after `<!-- file: NAME -->`.
    static func namedFiles(in page: String) -> [String: String] {
        var files: [String: String] = [:]
        for part in page.components(separatedBy: "<!-- file: ").dropFirst() {
            guard let close = part.range(of: " -->\n") else { continue }
            let name = String(part[..<close.lowerBound])
            let rest = part[close.upperBound...]
            guard rest.hasPrefix("```"), let open = rest.firstIndex(of: "\n") else { continue }
            let body = rest[rest.index(after: open)...]
            guard let end = body.range(of: "```") else { continue }
            files[name] = String(body[..<end.lowerBound])
        }
        return files
    }

    /// The first fenced block of `language` after the line `marker` (a heading or a sentence).
    static func block(after marker: String, language: String, in page: String) -> String? {
        guard let start = page.range(of: marker) else { return nil }
        guard let open = page[start.upperBound...].range(of: "```" + language + "\n") else { return nil }
        guard let end = page[open.upperBound...].range(of: "```") else { return nil }
        return String(page[open.upperBound..<end.lowerBound])
    }
}
