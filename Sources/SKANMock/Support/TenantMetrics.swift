import SKANDomain
import SystemPOSIX

/// One tenant's counters for `GET /__admin/metrics`: its requests by endpoint and status, findings
/// by code, faults by type, and its latency histogram. Each tenant owns its own, so a tenant's
/// metrics route shows its own traffic only and the root labels each tenant's series (issue
/// 46.4); a request still costs one short lock, on its tenant's counters.
final class TenantMetrics: Sendable {
    /// Upper bounds of the latency buckets, in microseconds (100 µs to 2.5 s).
    static let bucketBounds: [Int64] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000, 2_500_000
    ]

    /// The counters at one moment, for the exposition.
    struct Snapshot: Sendable {
        var requests: [RequestKey: Int] = [:]
        var findings: [FindingCode: Int] = [:]
        var faults: [String: Int] = [:]
        var buckets = [Int](repeating: 0, count: TenantMetrics.bucketBounds.count + 1)
        var durationSum: Int64 = 0
        var durationCount = 0
    }

    struct RequestKey: Hashable, Sendable {
        let endpoint: JournalEndpoint
        let status: Int
    }

    private let state = Mutex(Snapshot())

    func record(
        endpoint: JournalEndpoint, status: Int, findings: [ValidationFinding], durationMicros: Int64, fault: String?
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

    var snapshot: Snapshot { state.withLock { $0 } }
}
