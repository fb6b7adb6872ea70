import Foundation
import SKANDomain
import Testing

@testable import SKANMock

/// Issue 46.6, G9 and G15: `--resume` of a journal that names more tenants than `--max-tenants`
/// restores the ones that wrote last, says which it left out, writes nothing to the file while it
/// reads, keeps nothing of a tenant it left out, and skips lines naming a tenant against the rule.
@Suite("--resume and the tenant bound")
struct TenantBoundResumeTests {
    private func json(_ answer: InProcessServer.Answer) -> JSONValue {
        (try? JSONParser.parse(Array(answer.text.utf8))) ?? .null
    }

    @Test func theTenantsThatWroteLastAreRestoredAndTheFileIsLeftAlone() throws {
        let path = NSTemporaryDirectory() + "skan-mock-bound-\(UInt64.random(in: 1...UInt64.max)).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let first = try InProcessServer { $0.logPath = path }
            for name in ["old1", "old2", "old3", "new1", "new2"] {
                first.session("D", path: "/t/" + name + "/api/v2/conversion_value")
            }
            // old1 wrote last but one: it is among the two restored.
            first.session("E", path: "/t/old1/api/v2/conversion_value")
            first.session("D")
            first.server.stop(gracePeriod: 0)
        }
        // Lines naming a tenant against the rule, as a hand-edited or hostile file has them.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let model = try #require(text.split(separator: "\n").first.map(String.init))
        for (n, bad) in ["../x", "a b", "<b>", ""].enumerated() {
            text +=
                model.replacingOccurrences(of: #""tenant":"old1""#, with: #""tenant":"\#(bad)""#)
                .replacingOccurrences(of: #""id":1,"#, with: #""id":\#(99 + n),"#) + "\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let second = try InProcessServer {
            $0.logPath = path
            $0.resume = true
            $0.maxTenants = 2
        }
        // Nothing written while reading: no reset marker for a tenant left out.
        second.server.flushJournalLog()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(second.server.tenantCount == 2)
        #expect(second.server.tenants.existing("old1") != nil && second.server.tenants.existing("new2") != nil)
        #expect(json(second.send(.get, "/t/old1/__admin/requests/count"))["count"] == 2)
        // No entry of a tenant left out, in any view.
        let tenantsKept = Set(second.server.journal.query().entries.map { $0.tenant })
        #expect(tenantsKept == [nil, "old1", "new2"])
        let note = try #require(second.server.notices.first { $0.contains("left out") })
        #expect(note.contains("--max-tenants 2"), "\(note)")
        #expect(note.contains("3 left out") && note.contains("new1, old2, old3"), "\(note)")
        // Each line against the rule is skipped with a warning that states it.
        let skips = second.server.notices.filter { $0.contains("is against the rule") }
        #expect(skips.count == 4, "\(second.server.notices)")
        #expect(skips.allSatisfy { $0.contains(TenantName.rule) })
    }
}
