import Testing

@testable import SKANMock

/// Issue 46.4: one scope per metrics answer. The root labels each named tenant's series and keeps
/// the default tenant's as they always were; a tenant's route shows its own series only.
@Suite("Metrics by tenant")
struct TenantMetricsTests {
    private func lines(_ text: String, _ prefix: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test func theRootLabelsEachTenantAndATenantSeesItsOwn() throws {
        let mock = try InProcessServer()
        mock.session("D1")
        mock.session("D1", path: "/t/a/api/v2/conversion_value")
        mock.session("D2", path: "/t/a/api/v2/conversion_value")
        mock.session("D1", path: "/t/b/api/v2/conversion_value")

        let root = mock.metrics
        // The default tenant's series keep their names and count its own requests only.
        #expect(root.contains("\nskan_mock_requests_total{endpoint=\"skan4\",status=\"200\"} 1\n"))
        #expect(root.contains("\nskan_mock_devices 1\n"))
        #expect(root.contains("\nskan_mock_journal_entries 1\n"))
        #expect(root.contains("\nskan_mock_request_duration_seconds_count 1\n"))
        // Each named tenant's, labelled.
        #expect(root.contains("\nskan_mock_requests_total{tenant=\"a\",endpoint=\"skan4\",status=\"200\"} 2\n"))
        #expect(root.contains("\nskan_mock_requests_total{tenant=\"b\",endpoint=\"skan4\",status=\"200\"} 1\n"))
        #expect(root.contains("\nskan_mock_devices{tenant=\"a\"} 2\n"))
        #expect(root.contains("\nskan_mock_journal_entries{tenant=\"a\"} 2\n"))
        #expect(root.contains("\nskan_mock_request_duration_seconds_count{tenant=\"b\"} 1\n"))
        #expect(root.contains("\nskan_mock_uptime_seconds "))
        // One HELP per family, whatever the number of tenants.
        #expect(lines(root, "# HELP skan_mock_requests_total").count == 1)

        let a = mock.send(.get, "/t/a/__admin/metrics").text
        #expect(
            lines(a, "skan_mock_requests_total") == [
                #"skan_mock_requests_total{tenant="a",endpoint="skan4",status="200"} 2"#
            ])
        #expect(lines(a, "skan_mock_devices") == [#"skan_mock_devices{tenant="a"} 2"#])
        #expect(lines(a, "skan_mock_journal_entries") == [#"skan_mock_journal_entries{tenant="a"} 2"#])
        // Nothing of another tenant's, nor the server's own.
        #expect(!a.contains("tenant=\"b\"") && !a.contains("status=\"200\"} 1"))
        #expect(!a.contains("skan_mock_uptime_seconds") && !a.contains("skan_mock_connections_unserved_total"))
    }

    @Test func aDroppedTenantsSeriesGo() throws {
        let mock = try InProcessServer()
        mock.session("D1", path: "/t/gone/api/v2/conversion_value")
        #expect(mock.metrics.contains("tenant=\"gone\""))
        #expect(mock.send(.delete, "/__admin/tenants/gone").status == 200)
        #expect(!mock.metrics.contains("tenant=\"gone\""))
    }
}
