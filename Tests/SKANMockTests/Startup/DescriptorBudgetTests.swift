import SystemPOSIX
import Testing

@testable import SKANMock

/// The start-up's descriptor arithmetic, with the limit call replaced: a Mac's 256 (raisable), a
/// hard limit that forbids the raise, and Linux's usual 1,024.
@Suite("Descriptor budget")
struct DescriptorBudgetTests {
    @Test func raisesTheSoftLimitForEveryConnectionOnEveryPort() {
        var asked: [Int] = []
        let budget = DescriptorBudget.fit(maxConnections: 1024, listeners: 2, processors: 2) { wanted in
            asked.append(wanted)
            return OpenFileLimit(soft: wanted, hard: Int.max, wanted: wanted)
        }
        #expect(asked == [2 * 1024 + DescriptorBudget.reserve(listeners: 2, processors: 2)])
        #expect(budget == DescriptorBudget(maxConnections: 1024, notice: nil))
    }

    @Test func servesWhatFitsWhenTheHardLimitForbidsTheRaise() throws {
        let budget = DescriptorBudget.fit(maxConnections: 1024, listeners: 1, processors: 2) { wanted in
            OpenFileLimit(soft: 256, hard: 256, wanted: wanted)
        }
        let reserve = DescriptorBudget.reserve(listeners: 1, processors: 2)
        #expect(budget.maxConnections == 256 - reserve)
        let notice = try #require(budget.notice)
        #expect(notice.contains("open-file limit is 256 (hard limit 256)"))
        #expect(notice.contains("serving at most \(256 - reserve) connections per port instead of 1024"))
        #expect(notice.contains("ulimit -n \(1024 + reserve)"))
    }

    @Test func neverGoesBelowAFloorNorAboveWhatWasAsked() {
        let tiny = DescriptorBudget.fit(maxConnections: 1024, listeners: 2, processors: 8) { wanted in
            OpenFileLimit(soft: 40, hard: 40, wanted: wanted)
        }
        #expect(tiny.maxConnections == DescriptorBudget.minimumConnections)
        let small = DescriptorBudget.fit(maxConnections: 10, listeners: 1, processors: 1) { wanted in
            OpenFileLimit(soft: 1024, hard: 1024, wanted: wanted)
        }
        #expect(small == DescriptorBudget(maxConnections: 10, notice: nil))
    }

    /// The real call: never lowers the soft limit, and reports the hard one it is capped by.
    @Test func theSystemCallNeverLowersTheLimit() {
        let before = System.currentOpenFileLimit()
        let after = System.raiseOpenFileLimit(to: 64)
        #expect(after.soft == before.soft)
        #expect(after.hard == before.hard)
        #expect(after.suffices == (before.soft >= 64))
    }
}
