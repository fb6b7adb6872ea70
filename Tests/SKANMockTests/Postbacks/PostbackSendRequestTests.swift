import SKANDomain
import Testing

@testable import SKANMock

/// The sender's body, read strictly and once, before anything is sent: tier 3 and SKAdNetwork
/// unless asked, an unknown member or a value of the wrong kind refused with its JSON path.
@Suite struct PostbackSendRequestTests {
    private func reason(_ body: String) -> String {
        switch PostbackSendRequest.parse(Array(body.utf8)) {
        case .success: "accepted"
        case .failure(let failure): failure.reason
        }
    }

    @Test func readsTheURLTierAndFramework() throws {
        let plain = try PostbackSendRequest.parse(Array(#"{"url":"http://127.0.0.1:9"}"#.utf8)).get()
        #expect(plain.url == "http://127.0.0.1:9" && plain.options.tiers == [3] && plain.options.framework == .skan)
        let asked = try PostbackSendRequest.parse(Array(#"{"url":"http://h","tier":1,"framework":"aak"}"#.utf8)).get()
        #expect(asked.options.tiers == [1] && asked.options.framework == .aak)
    }

    @Test func refusesWhatItCannotReadNamingWhere() {
        #expect(reason("").hasPrefix("the body is not JSON"))
        #expect(reason("{}").contains("url"))
        #expect(reason(#"{"url":"http://h","tier":4}"#).hasPrefix("$.tier"))
        #expect(reason(#"{"url":"http://h","framework":"x"}"#).hasPrefix("$.framework: expected skan or aak"))
        #expect(reason(#"{"url":"http://h","extra":1}"#).contains("extra"))
        #expect(reason(#"{"url":1}"#).hasPrefix("$.url"))
    }
}
