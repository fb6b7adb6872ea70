import Foundation
import SKANDomain
import SKANMock
import Testing

/// The `SKANMockServer` library product as a user's own Swift tests use it: public API only.
@Suite("SKANMockServer as a library")
struct LibraryUsageTests {
    @Test func startsOnAFreePortAnswersAndShowsTheJournal() throws {
        let server = try SKANMockServer.start { $0.strict = false }
        defer { server.stop(gracePeriod: 1) }
        #expect(server.port > 0)
        #expect(server.url == "http://127.0.0.1:\(server.port)")
        let now = Int(Date().timeIntervalSince1970)
        let answer = try CurlClient().get(
            server.url
                + "/api/v2/conversion_value?a=K&i=app&p=iOS&idfv=LIB-1&n=__SESSION__&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=\(now)"
        )
        #expect(
            answer.text
                == "{\"status\":\"ok\",\"conversion_value\":1,\"skan_updated_coarse_value\":0,\"skan_updated_lock_window_value\":false}"
        )
        let entries = server.journal.query(JournalFilter(device: "LIB-1")).entries
        #expect(entries.count == 1)
        #expect(entries.first?.endpoint == .skan4)
        #expect(entries.first?.json["window"] == "p0")
        #expect(entries.first?.hasIssues == false)
    }

    @Test func aClockOffsetBeyondAHundredYearsStopsTheStart() {
        #expect(throws: SKANMockServer.StartupError.self) {
            _ = try SKANMockServer.start { $0.clockOffsetSeconds = ServerOptions.maxClockOffsetSeconds + 1 }
        }
        #expect(throws: SKANMockServer.StartupError.self) {
            _ = try SKANMockServer.start { $0.clockOffsetSeconds = Int64.min }
        }
    }
}
