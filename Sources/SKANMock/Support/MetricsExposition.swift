/// The Prometheus text of `GET /__admin/metrics`, family by family: each tenant's series (the
/// default tenant's without a label, so its series keep the names they always had; a named
/// tenant's with `tenant="NAME"` first), then, at the root only, the server's own. A tenant's route
/// passes its own scope and no server part, so it never shows another tenant's traffic or the
/// server's (issue 46.4).
struct MetricsExposition {
    /// What one tenant's series say.
    struct Scope {
        /// nil: the default tenant, unlabelled.
        let tenant: String?
        let counters: TenantMetrics.Snapshot
        let journalEntries: Int
        let journalDropped: Int64
        let devices: Int
    }

    /// What belongs to the server, not to a tenant: the root shows it.
    struct Server {
        let unservedConnections: Int
        let uptimeSeconds: Int64
        let journalFile: JournalFileSink.Status?
    }

    let scopes: [Scope]
    let server: Server?

    var text: String {
        var out = MetricsText()
        requests(&out)
        journal(&out)
        if let server { serverSeries(server, &out) }
        out.family("skan_mock_devices", "gauge", "Devices whose state is kept.")
        for scope in scopes { out.sample("skan_mock_devices", scope.tenant, "\(scope.devices)") }
        if let server {
            out.family("skan_mock_uptime_seconds", "gauge", "Seconds since the server started.")
            out.line("skan_mock_uptime_seconds \(server.uptimeSeconds)")
        }
        return out.text
    }

    /// The request families: counts by endpoint and status, findings, faults, and the durations.
    private func requests(_ out: inout MetricsText) {
        out.family(
            "skan_mock_requests_total", "counter",
            "Requests to Singular's endpoints by endpoint and HTTP status (0: connection dropped by a fault).")
        for scope in scopes {
            for (key, count) in scope.counters.requests.sorted(by: {
                ($0.key.endpoint.rawValue, $0.key.status) < ($1.key.endpoint.rawValue, $1.key.status)
            }) {
                out.sample(
                    "skan_mock_requests_total", scope.tenant, "\(count)",
                    labels: "endpoint=\"\(key.endpoint.rawValue)\",status=\"\(key.status)\"")
            }
        }
        out.family("skan_mock_findings_total", "counter", "Validation findings by code.")
        for scope in scopes {
            for (code, count) in scope.counters.findings.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                out.sample("skan_mock_findings_total", scope.tenant, "\(count)", labels: "code=\"\(code.rawValue)\"")
            }
        }
        out.family("skan_mock_faults_total", "counter", "Requests answered with an injected fault, by type.")
        for scope in scopes {
            for (type, count) in scope.counters.faults.sorted(by: { $0.key < $1.key }) {
                out.sample("skan_mock_faults_total", scope.tenant, "\(count)", labels: "type=\"\(type)\"")
            }
        }
        out.family(
            "skan_mock_request_duration_seconds", "histogram",
            "Time to compute and journal an answer (injected delays excluded).")
        for scope in scopes { durations(scope, &out) }
    }

    /// One scope's duration histogram: cumulative buckets, then the sum and the count.
    private func durations(_ scope: Scope, _ out: inout MetricsText) {
        let counters = scope.counters
        var cumulative = 0
        for (index, bound) in TenantMetrics.bucketBounds.enumerated() {
            cumulative += counters.buckets[index]
            out.sample(
                "skan_mock_request_duration_seconds_bucket", scope.tenant, "\(cumulative)",
                labels: "le=\"\(Self.seconds(bound))\"")
        }
        cumulative += counters.buckets[TenantMetrics.bucketBounds.count]
        out.sample("skan_mock_request_duration_seconds_bucket", scope.tenant, "\(cumulative)", labels: "le=\"+Inf\"")
        out.sample("skan_mock_request_duration_seconds_sum", scope.tenant, Self.seconds(counters.durationSum))
        out.sample("skan_mock_request_duration_seconds_count", scope.tenant, "\(counters.durationCount)")
    }

    /// The journal's families: each scope's entries and drops, then the `--log` file's state.
    private func journal(_ out: inout MetricsText) {
        out.family("skan_mock_journal_entries", "gauge", "Entries held in the in-memory journal.")
        for scope in scopes { out.sample("skan_mock_journal_entries", scope.tenant, "\(scope.journalEntries)") }
        out.family(
            "skan_mock_journal_dropped_total", "counter", "Journal entries dropped because the journal was full.")
        for scope in scopes { out.sample("skan_mock_journal_dropped_total", scope.tenant, "\(scope.journalDropped)") }
        guard let file = server?.journalFile else { return }
        out.family(
            "skan_mock_journal_file_failing", "gauge",
            "1 while writing the --log file fails (a full disk, a size limit), else 0.")
        out.line("skan_mock_journal_file_failing \(file.isFailing ? 1 : 0)")
        out.family(
            "skan_mock_journal_file_waiting_lines", "gauge",
            "Journal lines kept in memory until the --log file can be written again.")
        out.line("skan_mock_journal_file_waiting_lines \(file.waiting)")
        out.family(
            "skan_mock_journal_file_lost_total", "counter",
            "Journal lines given up because too many waited for the --log file.")
        out.line("skan_mock_journal_file_lost_total \(file.lost)")
    }

    /// The server's own connection count (the root's scrape only).
    private func serverSeries(_ server: Server, _ out: inout MetricsText) {
        out.family(
            "skan_mock_connections_unserved_total", "counter",
            "Accepted connections closed before they were served (a TLS session that could not be made, a refused socket)."
        )
        out.line("skan_mock_connections_unserved_total \(server.unservedConnections)")
    }

    /// Microseconds as a decimal number of seconds, exactly (no floating-point noise in labels).
    static func seconds(_ micros: Int64) -> String {
        let whole = micros / 1_000_000
        var fraction = String(micros % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
