import Foundation
import Testing

/// `skan-mock report --tenant NAME` through the real executable when no line names the tenant
/// (issue 47.9): a misspelt name used to give a green CI step with an empty JUnit file; it is an
/// error that lists the tenants the file has, and writes no JUnit.
@Suite("report --tenant names a tenant the journal has")
struct ReportTenantTests {
    private static let journal = """
        {"id":1,"tenant":"checkout-ui"}
        {"id":2}
        {"type":"reset","through":2,"devices":true,"tenant":"login-ui"}

        """

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skan-report-tenant-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aTenantNoLineNamesIsAnErrorListingTheFilesTenants() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = dir + "/journal.jsonl"
        try Self.journal.write(toFile: journal, atomically: true, encoding: .utf8)
        let junit = dir + "/junit.xml"

        let typo = try SKANMockExecutable.run(
            ["report", journal, "--tenant", "checkout-iu", "--junit", junit, "--fail-on-findings"])
        #expect(typo.status == 2, "\(typo.output)\(typo.error)")
        #expect(typo.error.contains("no line of \(journal) names tenant checkout-iu"), "\(typo.error)")
        #expect(
            typo.error.contains("tenants checkout-ui, login-ui and the default tenant (no --tenant)"), "\(typo.error)")
        #expect(!FileManager.default.fileExists(atPath: junit), "a JUnit file was written for a tenant with no line")

        let right = try SKANMockExecutable.run(["report", journal, "--tenant", "checkout-ui", "--junit", junit])
        #expect(right.status == 0, "\(right.error)")
        #expect(FileManager.default.fileExists(atPath: junit))
    }

    /// `compare` and `record` read through the same reader, and refuse alike.
    @Test(arguments: ["compare", "record"])
    func theOtherJournalCommandsRefuseAlike(command: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = dir + "/journal.jsonl"
        try Self.journal.write(toFile: journal, atomically: true, encoding: .utf8)
        var arguments = [command, journal, "--tenant", "nobody"]
        if command == "record" { arguments += ["--out", dir + "/replay.json"] }
        let run = try SKANMockExecutable.run(arguments)
        #expect(run.status == 2, "\(run.output)\(run.error)")
        #expect(run.error.contains("skan-mock \(command): no line of \(journal) names tenant nobody"), "\(run.error)")
    }
}
