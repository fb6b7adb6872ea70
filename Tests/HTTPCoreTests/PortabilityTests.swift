import Foundation
import Testing

/// The platform layer stays the only door to the C library (issue 11): no file in Sources outside
/// Sources/SystemPOSIX and Sources/CSystemLinux names a C library module or a symbol only one
/// platform has, and System+Glibc.swift and System+Darwin.swift declare the same functions. Test
/// files too must compile on a Mac (issue 20): they reach the C library through SystemPOSIX, and a
/// test file that imports Glibc has a Darwin branch and never calls `Glibc.` by name.
/// Reads the source tree from disk.
@Suite("Portability")
struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")
    static let tests = root.appendingPathComponent("Tests")
    static let platformTargets: Set<String> = ["SystemPOSIX", "CSystemLinux"]

    /// The C library modules.
    static let libraryModules: Set<String> = ["Glibc", "Musl", "Darwin", "WinSDK", "Bionic", "Android"]

    /// Symbols that exist on one platform only (Linux: accept4, the SOCK_ flags, epoll, eventfd,
    /// timerfd, inotify, ...; Darwin: SO_NOSIGPIPE, kqueue, st_mtimespec, ...). MSG_NOSIGNAL is not
    /// among them: Darwin has it since macOS 11.
    static let onePlatformSymbols: Set<String> = [
        "accept4", "MSG_MORE", "SOCK_CLOEXEC", "SOCK_NONBLOCK",
        "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_event",
        "eventfd", "eventfd_read", "eventfd_write", "timerfd_create", "timerfd_settime", "signalfd",
        "inotify_init", "inotify_init1", "inotify_add_watch", "TCP_QUICKACK", "TCP_CORK",
        "pipe2", "dup3", "sendmmsg", "recvmmsg", "splice", "sendfile", "st_mtim", "st_atim", "st_ctim",
        "SO_NOSIGPIPE", "st_mtimespec", "kqueue", "kevent", "F_NOCACHE", "mach_absolute_time"
    ]

    /// What Sources outside the platform layer may not name: both sets, matched as whole
    /// identifiers, outside comments.
    static let forbidden = libraryModules.union(onePlatformSymbols)

    @Test func onlyThePlatformLayerTouchesTheCLibrary() throws {
        var violations: [String] = []
        for file in try Self.swiftFiles(under: Self.sources) {
            let relative = String(file.path.dropFirst(Self.root.path.count + 1))
            let target = relative.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            guard !Self.platformTargets.contains(target) else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                for name in Self.identifiers(in: Self.code(of: line)) where Self.forbidden.contains(name) {
                    violations.append("\(relative):\(index + 1): '\(name)' belongs in Sources/SystemPOSIX")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test func testFilesCompileOnEveryPlatform() throws {
        var violations: [String] = []
        for file in try Self.swiftFiles(under: Self.tests) where file.lastPathComponent != "PortabilityTests.swift" {
            let relative = String(file.path.dropFirst(Self.root.path.count + 1))
            violations += Self.testFileViolations(try String(contentsOf: file, encoding: .utf8), name: relative)
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The test-file rule catches what a Mac would refuse, and lets a Darwin branch through.
    @Test func theTestFileCheckFindsGlibcOnlyCode() {
        let glibcOnly = "#if canImport(Glibc)\nimport Glibc\n#endif\nlet n = Glibc.read(fd, &b, 1)\n"
        #expect(
            Self.testFileViolations(glibcOnly, name: "a.swift") == [
                "a.swift:2: imports Glibc without a Darwin branch",
                "a.swift:4: calls Glibc. by name (Darwin has no such module)"
            ])
        let branched =
            "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\nlet n = read(fd, &b, 1)\n"
        #expect(Self.testFileViolations(branched, name: "b.swift").isEmpty)
        #expect(
            Self.testFileViolations("let fd = accept4(a, b, c, 0)\n", name: "c.swift") == [
                "c.swift:1: 'accept4' exists on one platform only; use SystemPOSIX"
            ])
    }

    /// What keeps a test file from compiling on Linux or on a Mac: an import of Glibc with no
    /// Darwin counterpart, a call qualified with `Glibc.`, a symbol only one platform has.
    static func testFileViolations(_ text: String, name: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let imports = Set(
            lines.compactMap { line -> String? in
                let words = code(of: line).split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
                return String(words[index + 1])
            })
        var violations: [String] = []
        for (index, line) in lines.enumerated() {
            let text = code(of: line)
            let names = identifiers(in: text)
            if text.split(separator: " ").contains("import"), names.contains("Glibc"), !imports.contains("Darwin") {
                violations.append("\(name):\(index + 1): imports Glibc without a Darwin branch")
            }
            if text.contains("Glibc.") {
                violations.append("\(name):\(index + 1): calls Glibc. by name (Darwin has no such module)")
            }
            for symbol in names.intersection(onePlatformSymbols).sorted() {
                violations.append("\(name):\(index + 1): '\(symbol)' exists on one platform only; use SystemPOSIX")
            }
        }
        return violations
    }

    @Test func glibcAndDarwinFilesDeclareTheSameFunctions() throws {
        let directory = Self.sources.appendingPathComponent("SystemPOSIX")
        let glibc = try Self.functionSignatures(in: directory.appendingPathComponent("System+Glibc.swift"))
        let darwin = try Self.functionSignatures(in: directory.appendingPathComponent("System+Darwin.swift"))
        #expect(!glibc.isEmpty)
        let onlyGlibc = glibc.subtracting(darwin).sorted()
        let onlyDarwin = darwin.subtracting(glibc).sorted()
        #expect(onlyGlibc.isEmpty, "in System+Glibc.swift, not in System+Darwin.swift: \(onlyGlibc)")
        #expect(onlyDarwin.isEmpty, "in System+Darwin.swift, not in System+Glibc.swift: \(onlyDarwin)")
    }

    /// Package.swift claims Apple platforms only as far as the Darwin file covers them: macOS; and
    /// iOS for SKANMockClient, the one target that does not use SystemPOSIX (Foundation only).
    @Test func packagePlatformsMatchThePlatformFiles() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let line = try #require(
            manifest.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("platforms: [") })
        let client = try String(
            contentsOf: Self.sources.appendingPathComponent("SKANMockClient/SKANMockClient.swift"), encoding: .utf8)
        #expect(!client.contains("SystemPOSIX") && !manifest.contains(#".target(name: "SKANMockClient", dependencies"#))
        for platform in [".tvOS(", ".watchOS(", ".visionOS(", ".macCatalyst("] {
            #expect(
                !line.contains(platform),
                "Package.swift claims \(platform) but SystemPOSIX is only written for macOS and Linux")
        }
        #expect(line.contains(".macOS("))
        #expect(
            FileManager.default.fileExists(
                atPath: Self.sources.appendingPathComponent("SystemPOSIX/System+Darwin.swift").path))
    }

    @Test func theCheckFindsWhatItLooksFor() {
        #expect(Self.identifiers(in: Self.code(of: "import Glibc")).contains("Glibc"))
        #expect(
            Self.identifiers(in: Self.code(of: "let fd = accept4(a, b, c, SOCK_CLOEXEC)")).isSuperset(of: [
                "accept4", "SOCK_CLOEXEC"
            ]))
        #expect(!Self.identifiers(in: Self.code(of: "/// rather than using inotify_init1")).contains("inotify_init1"))
        #expect(!Self.identifiers(in: Self.code(of: "x = 1  // MSG_NOSIGNAL")).contains("MSG_NOSIGNAL"))
        #expect(!Self.identifiers(in: Self.code(of: #"add("an Android request \"Glibc\"", x)"#)).contains("Android"))
        #expect(Self.identifiers(in: Self.code(of: #"let s = "x"; Glibc.read(fd)"#)).contains("Glibc"))
    }

    // MARK: - Helpers

    static func swiftFiles(under directory: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The line without a `//` comment and without the text of its string literals, where words
    /// like "Android" in a message name no module (good enough for this tree: no string literal
    /// holds ` //`, and none spans lines where a platform name matters).
    static func code(of line: Substring) -> Substring {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("//") { return "" }
        var code = line
        if let comment = line.firstRange(of: " //") { code = line[..<comment.lowerBound] }
        var kept = ""
        var inString = false
        var escaped = false
        for character in code {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            if character == "\"" { inString = true } else { kept.append(character) }
        }
        return Substring(kept)
    }

    static func identifiers(in code: Substring) -> Set<String> {
        Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    /// `name(labels...) -> Result` for each `func` declared in the file, whitespace normalised.
    static func functionSignatures(in file: URL) throws -> Set<String> {
        var signatures: Set<String> = []
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let text = code(of: line)
            guard let found = text.firstRange(of: "func ") else { continue }
            var signature = text[found.upperBound...]
            if let brace = signature.lastIndex(of: "{") { signature = signature[..<brace] }
            let prefix = text[..<found.lowerBound].split(separator: " ").joined(separator: " ")
            signatures.insert(
                (prefix + " func " + signature.split(separator: " ").joined(separator: " ")).trimmingCharacters(
                    in: .whitespaces))
        }
        return signatures
    }
}
