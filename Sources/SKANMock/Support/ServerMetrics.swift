import SKANDomain
import SystemPOSIX

/// Counters for `GET /__admin/metrics` in the Prometheus text format: requests by endpoint and
/// status, findings by code, faults by type, and a latency histogram. One short lock per request.
final class ServerMetrics: Sendable {
    /// Upper bounds of the latency buckets, in microseconds (100 µs to 2.5 s).
    static let bucketBounds: [Int64] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000, 2_500_000
    ]

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var findings: [FindingCode: Int] = [:]
        var faults: [String: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count + 1)
        var durationSum: Int64 = 0
        var durationCount = 0
        /// Accepted connections closed before they were served, by reason.
        var unserved: [String: Int] = [:]
    }

    private struct RequestKey: Hashable {
        let endpoint: SKANEndpoint
        let status: Int
    }

    private let state = Mutex(State())

    func record(
        endpoint: SKANEndpoint, status: Int, findings: [ValidationFinding], durationMicros: Int64, fault: String?
    ) {
        let bucket = Self.bucketBounds.firstIndex { durationMicros <= $0 } ?? Self.bucketBounds.count
        state.withLock { state in
            state.requests[RequestKey(endpoint: endpoint, status: status), default: 0] += 1
            for finding in findings { state.findings[finding.code, default: 0] += 1 }
            if let fault { state.faults[fault, default: 0] += 1 }
            state.buckets[bucket] += 1
            state.durationSum += durationMicros
            state.durationCount += 1
        }
    }

    /// An accepted connection closed before it was served (see `HTTPServer.Configuration`).
    func recordUnserved(reason: String) {
        state.withLock { $0.unserved[reason, default: 0] += 1 }
    }

    /// The exposition text; gauges that other owners keep are passed in.
    func render(
        journalSize: Int, journalDropped: Int64, devices: Int, uptimeSeconds: Int64,
        journalFile: JournalFileSink.Status? = nil
    ) -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family(
            "skan_mock_requests_total", "counter",
            "Requests to Singular's endpoints by endpoint and HTTP status (0: connection dropped by a fault).")
        for (key, count) in snapshot.requests.sorted(by: {
            ($0.key.endpoint.rawValue, $0.key.status) < ($1.key.endpoint.rawValue, $1.key.status)
        }) {
            out += "skan_mock_requests_total{endpoint=\"\(key.endpoint.rawValue)\",status=\"\(key.status)\"} \(count)\n"
        }
        family("skan_mock_findings_total", "counter", "Validation findings by code.")
        for (code, count) in snapshot.findings.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            out += "skan_mock_findings_total{code=\"\(code.rawValue)\"} \(count)\n"
        }
        family("skan_mock_faults_total", "counter", "Requests answered with an injected fault, by type.")
        for (type, count) in snapshot.faults.sorted(by: { $0.key < $1.key }) {
            out += "skan_mock_faults_total{type=\"\(type)\"} \(count)\n"
        }
        family(
            "skan_mock_request_duration_seconds", "histogram",
            "Time to compute and journal an answer (injected delays excluded).")
        var cumulative = 0
        for (index, bound) in Self.bucketBounds.enumerated() {
            cumulative += snapshot.buckets[index]
            out += "skan_mock_request_duration_seconds_bucket{le=\"\(Self.seconds(bound))\"} \(cumulative)\n"
        }
        cumulative += snapshot.buckets[Self.bucketBounds.count]
        out += "skan_mock_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "skan_mock_request_duration_seconds_sum \(Self.seconds(snapshot.durationSum))\n"
        out += "skan_mock_request_duration_seconds_count \(snapshot.durationCount)\n"
        family("skan_mock_journal_entries", "gauge", "Entries held in the in-memory journal.")
        out += "skan_mock_journal_entries \(journalSize)\n"
        family("skan_mock_journal_dropped_total", "counter", "Journal entries dropped because the journal was full.")
        out += "skan_mock_journal_dropped_total \(journalDropped)\n"
        if let file = journalFile {
            family(
                "skan_mock_journal_file_failing", "gauge",
                "1 while writing the --log file fails (a full disk, a size limit), else 0.")
            out += "skan_mock_journal_file_failing \(file.isFailing ? 1 : 0)\n"
            family(
                "skan_mock_journal_file_waiting_lines", "gauge",
                "Journal lines kept in memory until the --log file can be written again.")
            out += "skan_mock_journal_file_waiting_lines \(file.waiting)\n"
            family(
                "skan_mock_journal_file_lost_total", "counter",
                "Journal lines given up because too many waited for the --log file.")
            out += "skan_mock_journal_file_lost_total \(file.lost)\n"
        }
        family(
            "skan_mock_connections_unserved_total", "counter",
            "Accepted connections closed before they were served (a TLS session that could not be made, a refused socket)."
        )
        out += "skan_mock_connections_unserved_total \(snapshot.unserved.values.reduce(0, +))\n"
        family("skan_mock_devices", "gauge", "Devices whose state is kept.")
        out += "skan_mock_devices \(devices)\n"
        family("skan_mock_uptime_seconds", "gauge", "Seconds since the server started.")
        out += "skan_mock_uptime_seconds \(uptimeSeconds)\n"
        return out
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
