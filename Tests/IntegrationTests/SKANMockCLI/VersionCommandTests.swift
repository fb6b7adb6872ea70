import Foundation
import Testing

/// `skan-mock --version`, run as a user runs it, prints the top-level VERSION file's version: the
/// one the release archives are named for (`Scripts/lib.sh`).
@Suite("skan-mock --version")
struct VersionCommandTests {
    @Test func printsTheVersionFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("VERSION"), encoding: .utf8)
        let run = try SKANMockExecutable.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == file)
    }
}
