import Foundation
import Testing

@testable import SKANMock

/// The version is written twice, for the two worlds that read it: the top-level VERSION file for the
/// scripts (release, formula, Action: `Scripts/lib.sh`), `SKANMockVersion.current` for the binary
/// (`--version`, `/__admin/health`, HAR files). They must agree, or an archive named for one version
/// would report another.
@Suite("The VERSION file")
struct VersionFileTests {
    static func versionFile() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
    }

    @Test func isOneLineTheBinarysVersion() throws {
        let text = try Self.versionFile()
        #expect(text == SKANMockVersion.current + "\n")
    }

    @Test func healthReportsIt() throws {
        let mock = try InProcessServer()
        let body = mock.send(.get, "/__admin/health").text
        let version = try Self.versionFile().trimmingCharacters(in: .newlines)
        let field = "\"version\":\"" + version + "\""
        #expect(body.contains(field))
    }
}
