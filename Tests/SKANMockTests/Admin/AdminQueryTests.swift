import SKANDomain
import Testing

@testable import SKANMock

@Suite("Admin query parsing")
struct AdminQueryTests {
    @Test func readsEveryFilter() throws {
        let filter = try JournalFilter(query: [
            ("endpoint", "skan4"), ("device", "D"), ("event", "buy"), ("window", "p1"),
            ("has_issues", "false"), ("since_id", "12"), ("limit", "5")
        ])
        #expect(
            filter
                == JournalFilter(
                    endpoint: .skan4, device: "D", event: "buy", window: .window(.p1), hasIssues: false, sinceId: 12,
                    limit: 5
                ))
        #expect(try JournalFilter(query: [("window", "null")]).window == JournalFilter.WindowMatch.none)
    }

    @Test(arguments: [
        ("endpoint", "skan5"), ("window", "p3"), ("has_issues", "yes"), ("since_id", "-1"), ("limit", "ten"),
        ("devcie", "D")
    ])
    func rejectsWhatItCannotUse(name: String, value: String) {
        #expect(throws: AdminQueryError.self) { try JournalFilter(query: [(name, value)]) }
    }
}

@Suite("Form bodies")
struct FormBodyTests {
    @Test func acceptsFormOrUnlabelledBodiesOnly() {
        #expect(SingularExchange.isFormEncoded(nil))
        #expect(SingularExchange.isFormEncoded("application/x-www-form-urlencoded"))
        #expect(SingularExchange.isFormEncoded("Application/X-WWW-Form-Urlencoded; charset=utf-8"))
        #expect(!SingularExchange.isFormEncoded("application/json"))
        #expect(!SingularExchange.isFormEncoded("multipart/form-data; boundary=x"))
    }
}

@Suite("Metrics text")
struct ServerMetricsTests {
    @Test func writesBucketBoundsAsExactDecimals() {
        #expect(MetricsExposition.seconds(100) == "0.0001")
        #expect(MetricsExposition.seconds(2_500) == "0.0025")
        #expect(MetricsExposition.seconds(1_000_000) == "1")
        #expect(MetricsExposition.seconds(2_500_000) == "2.5")
    }

    @Test func countsRequestsFindingsFaultsAndLatency() {
        let metrics = TenantMetrics()
        let finding = ValidationFinding(param: "n", code: .missingParameter, message: "n is missing")
        metrics.record(endpoint: .skan4, status: 200, findings: [finding], durationMicros: 300, fault: nil)
        metrics.record(endpoint: .skan4, status: 503, findings: [], durationMicros: 3_000_000, fault: "status")
        let scope = MetricsExposition.Scope(
            tenant: nil, counters: metrics.snapshot, journalEntries: 2, journalDropped: 0, devices: 1)
        let text = MetricsExposition(
            scopes: [scope], server: .init(unservedConnections: 0, uptimeSeconds: 9, journalFile: nil)
        ).text
        #expect(text.contains("skan_mock_requests_total{endpoint=\"skan4\",status=\"200\"} 1\n"))
        #expect(text.contains("skan_mock_requests_total{endpoint=\"skan4\",status=\"503\"} 1\n"))
        #expect(text.contains("skan_mock_findings_total{code=\"missing_parameter\"} 1\n"))
        #expect(text.contains("skan_mock_faults_total{type=\"status\"} 1\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_bucket{le=\"0.00025\"} 0\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_bucket{le=\"0.0005\"} 1\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_bucket{le=\"2.5\"} 1\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_bucket{le=\"+Inf\"} 2\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_sum 3.0003\n"))
    }
}

/// One endpoint, two names (issue 26): the journal's `event` and the path's `evt` in every filter.
@Suite("Endpoint names")
struct EndpointNameTests {
    @Test func filtersTakeBothNamesAndAnswerWithTheJournals() throws {
        let evt = try JournalFilter(query: [("endpoint", "evt")])
        let event = try JournalFilter(query: [("endpoint", "event")])
        #expect(evt.endpoint == .event && event.endpoint == .event)
        #expect(try JournalFilter(query: [("endpoint", "evt2")]).endpoint == .event2)
        #expect(JournalEndpoint(name: "unmatched") == .unmatched && SKANEndpoint(name: "unmatched") == nil)
        #expect(JournalEndpoint(name: "evt2") == .event2 && JournalEndpoint(name: "postback") == .postback)
        #expect(SKANEndpoint(name: "events") == nil)
        #expect(SKANEndpoint.event.rawValue == "event" && SKANEndpoint.event.routeName == "evt")
    }
}
