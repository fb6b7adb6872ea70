import SystemPOSIX

/// The server's own counters for `GET /__admin/metrics`, which belong to no tenant: accepted
/// connections closed before they were served, by reason. The tenants' counters are their own
/// (`TenantMetrics`).
final class ServerMetrics: Sendable {
    private let unserved = Mutex<[String: Int]>([:])

    /// An accepted connection closed before it was served (see `HTTPServer.Configuration`).
    func recordUnserved(reason: String) {
        unserved.withLock { $0[reason, default: 0] += 1 }
    }

    /// Every unserved connection since the start.
    var unservedTotal: Int { unserved.withLock { $0.values.reduce(0, +) } }
}
