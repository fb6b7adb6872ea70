import Foundation
import SKANDomain
import SKANMock
import SKANMockClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A skan-mock started in process on a free port with a hand-moved clock, and a client for it.
final class ClientFixture: Sendable {
    let server: SKANMockServer
    let client: SKANMockClient
    /// 2026-09-15T12:00:00Z.
    static let start: Int64 = 1_789_473_600

    init(adminToken: String? = nil, clientToken: String? = nil) throws {
        var options = ServerOptions()
        options.host = "127.0.0.1"
        options.port = 0
        options.adminToken = adminToken
        server = try SKANMockServer(options: options, clock: ManualClock(seconds: Self.start))
        try server.start()
        client = SKANMockClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, adminToken: clientToken ?? adminToken)
    }

    deinit { server.stop(gracePeriod: 1) }

    /// One SKAN 4 request as an app would send it.
    func skan4(device: String, event: String = "__SESSION__", extra: String = "", status: Int = 200) async throws {
        let url = URL(
            string:
                "http://127.0.0.1:\(server.port)/api/v2/conversion_value?a=k&v=17.0&i=com.x&p=iOS&idfv=\(device)&n=\(event)"
                + "&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=\(Self.start)" + extra)!
        let (_, response) = try await get(url)
        #expect((response as? HTTPURLResponse)?.statusCode == status)
    }

    private func get(_ url: URL) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: url) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), response!))
                }
            }.resume()
        }
    }
}

@Suite("SKANMockClient against a real server")
struct SKANMockClientTests {
    @Test func readsTypedJournalEntries() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "C-1")
        let entries = try await mock.client.requests(RequestFilter(endpoint: "skan4", device: "C-1"))
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.id == 1)
        #expect(entry.method == "GET")
        #expect(entry.path == "/api/v2/conversion_value")
        #expect(entry.endpoint == "skan4")
        #expect(entry.device == "C-1")
        #expect(entry.event == "__SESSION__")
        #expect(entry.window == "p0")
        #expect(entry.param("idfv") == "C-1")
        #expect(entry.findings.isEmpty)
        #expect(entry.response.status == 200)
        #expect(entry.responseJSON?["conversion_value"]?.intValue == 1)
        #expect(try await mock.client.count(RequestFilter(device: "C-1")) == 1)
        #expect(try await mock.client.device("nobody") == nil)
    }

    @Test func readsTypedDeviceReportAndHealth() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "T-1")
        try await mock.skan4(device: "T-1", extra: "&p0_coarse=9")

        let device = try #require(try await mock.client.device("T-1"))
        #expect(device.device == "T-1")
        #expect(device.requests == 2)
        #expect(device.firstSeen == "2026-09-15T12:00:00.000Z")
        #expect(device.skan4.p0.events == ["__SESSION__": 2])
        let answered = try #require(device.skan4.p0.lastReturned)
        #expect(answered.fine == 2 && answered.coarse == 0 && !answered.lock)
        #expect(device.skan4.p1.lastReturned == nil)
        #expect(!device.skan4.p0.locked)
        #expect(device.skan3.events.isEmpty)

        let report = try await mock.client.report()
        #expect(report.requests == 2)
        #expect(report.findingCount == 1)
        #expect(report.upstream == nil)
        let summary = try #require(report.device("T-1"))
        #expect(summary.windows == ["p0"])
        #expect(summary.values == [1, 2])
        #expect(summary.findingsByCode == ["coarse_value_out_of_range": 1])
        #expect(summary.findings.map(\.requestId) == [2])
        #expect(summary.findings.map(\.param) == ["p0_coarse"])
        #expect(report.devices.map(\.values) == [[1, 2]])  // as the README's example reads it
        let filtered = try await mock.client.report(RequestFilter(hasIssues: true))
        #expect(filtered.requests == 1)

        let health = try await mock.client.health()
        #expect(health.status == "ok")
        #expect(!health.version.isEmpty)
        #expect(health.uptimeSeconds >= 0)
        #expect(health.model.name == "singular-testing")
        #expect(health.model.reloadError == nil)
        #expect(health.clockOffsetSeconds == 0)
        #expect(health.journal.size == 2 && health.journal.dropped == 0)
        #expect(health.journal.capacity >= 2 && health.journal.capacityBytes >= health.journal.bytes)
        #expect(health.journal.file == nil)  // no --log
        #expect(health.devices == 1)
    }

    @Test func readsTypedPostbacks() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "PB-C")
        let all = try #require(try await mock.client.postbacks("PB-C"))
        #expect(all.device == "PB-C" && all.skan4.map(\.tier) == [0, 1, 2, 3])
        let tier2 = try #require(try await mock.client.postbacks("PB-C", tier: 2)?.tier(2))
        #expect(tier2.map(\.status) == ["pending", "pending", "pending"])  // every window still ahead or open
        #expect(tier2[0].fine == 1 && tier2[0].window == "p0" && tier2[0].apple?["conversion-value"]?.intValue == 1)
        #expect(try await mock.client.postbacks("nobody") == nil)
    }

    /// Issue 29: the client asks for every postback parameter and reads the new members.
    @Test func readsPostbacksWithOptions() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "PB-O")
        let aak = try #require(
            try await mock.client.postbacks(
                "PB-O", tier: 3,
                options: PostbackOptions(didWin: false, developerMode: true, framework: .aak, digits: 2)))
        #expect(aak.framework == "aak" && aak.didWin == false && aak.developerMode == true)
        let p0 = try #require(aak.tier(3)?.first)
        #expect(
            p0.jws?["payload"]?["did-win"] == .bool(false) && p0.jws?["payload"]?["source-identifier"] == .string("12"))
        #expect(p0.apple?["jws-string"]?.stringValue != nil && p0.valueSource == "answered")
    }

    /// Issue 40.10: the client reads the received postbacks, verified and compared.
    @Test func readsReceivedPostbacks() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "PB-R")
        var request = URLRequest(
            url: URL(
                string:
                    "http://127.0.0.1:\(mock.server.port)/.well-known/skadnetwork/report-attribution/?device=PB-R")!)
        request.httpMethod = "POST"
        request.httpBody = Data(
            #"{"version":"4.0","ad-network-id":"n","source-identifier":"1234","app-id":1,"transaction-id":"t","redownload":false,"source-app-id":2,"fidelity-type":1,"did-win":true,"postback-sequence-index":0,"conversion-value":1}"#
                .utf8)
        let status: Int = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { _, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }.resume()
        }
        #expect(status == 200)
        let received = try await mock.client.receivedPostbacks(device: "PB-R")
        #expect(received.dropped == 0 && received.postbacks.count == 1)
        let first = try #require(received.postbacks.first)
        #expect(
            first.framework == "skan" && first.namedDevice == "PB-R" && first.postback["transaction-id"] == .string("t")
        )
        #expect(first.comparison.result == "matches" && first.comparison.window == "p0" && first.comparison.tier == 3)
        #expect(!first.verified.verified && !first.verified.badSignature)
        #expect(first.verified.reason.hasPrefix("unverified: the postback has no attribution-signature"))
    }

    @Test func marksWaitsAndTimesOut() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "W-0")
        let mark = try await mock.client.mark()
        #expect(mark == 1)
        // Answered the same whether it reaches the server before the requests or after.
        async let waited = mock.client.waitForRequests(count: 2, filter: RequestFilter(sinceId: mark), timeout: 20)
        try await mock.skan4(device: "W-1")
        try await mock.skan4(device: "W-2")
        let result = try await waited
        #expect(result.timedOut == false)
        #expect(result.requests.map(\.device) == ["W-1", "W-2"])
        let empty = try await mock.client.waitForRequests(count: 1, filter: RequestFilter(device: "none"), timeout: 0.1)
        #expect(empty.timedOut)
        #expect(empty.requests.isEmpty)
    }

    @Test func expectNoFindingsListsEachFindingAndItsRequest() async throws {
        let mock = try ClientFixture()
        try await mock.skan4(device: "F-1")
        let mark = try await mock.client.mark()
        try await mock.client.expectNoFindings(since: mark)
        try await mock.skan4(device: "F-1", extra: "&p0_coarse=9")
        do {
            try await mock.client.expectNoFindings(since: mark)
            Issue.record("expected a FindingsError")
        } catch let error as FindingsError {
            #expect(
                error.description.contains(
                    "request #2 GET /api/v2/conversion_value device F-1: p0_coarse coarse_value_out_of_range"))
        }
    }

    @Test func resetsFaultsClockAndModel() async throws {
        let mock = try ClientFixture()
        try await mock.client.setFaults([.status(503, endpoint: "skan4", times: 1)])
        try await mock.skan4(device: "R-1", status: 503)
        let faulted = try await mock.client.requests().first
        #expect(faulted?.response.status == 503)
        #expect(faulted?.fault?["type"] == .string("status"))
        try await mock.client.clearFaults()

        let clock = try await mock.client.advanceClock(seconds: 172_800)
        #expect(clock.offsetSeconds == 172_800)
        #expect(clock.nowSeconds == ClientFixture.start + 172_800)
        #expect(try await mock.client.clock().offsetSeconds == 172_800)

        let revenue = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/revenue.json"))
        #expect(try await mock.client.model().skan3?.mode == "increment")
        try await mock.client.replaceModel(revenue)
        let replaced = try await mock.client.model()
        #expect(replaced.name == "singular-revenue")
        #expect(replaced.skan3?.mode == "rules" && replaced.skan3?.combine == "or")
        #expect(replaced.skan3?.entries?.first?.value == 1)
        #expect(try await mock.client.health().model.source == "PUT /__admin/model")
        do {
            try await mock.client.replaceModel(Data(#"{"skan4": 5}"#.utf8))
            Issue.record("a bad model was accepted")
        } catch SKANMockClientError.unexpectedStatus(let status, _) {
            #expect(status == 400)
        }

        #expect(try await mock.client.reset() == ["journal", "devices", "faults"])
        #expect(try await mock.client.reset(scope: .all) == ["journal", "devices", "faults", "model", "clock"])
        #expect(try await mock.client.model().name == "singular-testing")
        #expect(try await mock.client.clock().offsetSeconds == 0)
        #expect(try await mock.client.requests().isEmpty)
        let report = try await mock.client.report()
        #expect(report.requests == 0 && report.devices.isEmpty)
    }

    @Test func sendsTheAdminToken() async throws {
        let mock = try ClientFixture(adminToken: "s3cret")
        #expect(try await mock.client.mark() == 0)
        let wrong = try ClientFixture(adminToken: "s3cret", clientToken: "nope")
        do {
            _ = try await wrong.client.mark()
            Issue.record("expected 401")
        } catch SKANMockClientError.unexpectedStatus(let status, _) {
            #expect(status == 401)
        }
    }
}
