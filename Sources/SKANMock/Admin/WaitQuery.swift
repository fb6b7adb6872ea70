import SKANDomain

/// What `GET /__admin/requests/wait` was asked: the journal filters, how many entries to wait for,
/// and for how long. Bad values are 400s with a reason, never a wait that cannot end as meant.
struct WaitQuery: Sendable, Equatable {
    /// The longest wait a caller can ask for; longer ones are cut to it.
    static let maxTimeoutMilliseconds = 60_000
    static let defaultTimeoutMilliseconds = 10_000

    var filter: JournalFilter
    var count = 1
    var timeoutMilliseconds = WaitQuery.defaultTimeoutMilliseconds

    init(query: [(name: String, value: String)]) throws(AdminQueryError) {
        var filterPairs: [(name: String, value: String)] = []
        for (name, value) in query {
            switch name {
            case "count":
                guard let n = Int(value), n >= 1, n <= 1_000_000 else {
                    throw AdminQueryError(reason: "count must be an integer from 1 to 1000000")
                }
                count = n
            case "timeout_ms":
                guard let ms = Int(value), ms >= 0 else {
                    throw AdminQueryError(
                        reason: "timeout_ms must be a non-negative integer (milliseconds, at most 60000)")
                }
                timeoutMilliseconds = min(ms, Self.maxTimeoutMilliseconds)
            case "limit":
                throw AdminQueryError(reason: "limit is not accepted by requests/wait; count says how many to wait for")
            default:
                filterPairs.append((name, value))
            }
        }
        do {
            filter = try JournalFilter(query: filterPairs)
        } catch {
            throw AdminQueryError(reason: error.reason.replacingLimitHint())
        }
    }
}

extension String {
    /// The filter parser lists `limit`, which `wait` refuses; name `count` and `timeout_ms` instead.
    fileprivate func replacingLimitHint() -> String {
        guard hasPrefix("unknown filter") else { return self }
        return self.split(separator: ";").first.map(String.init).map {
            $0 + "; use endpoint, device, event, window, has_issues, since_id, count, timeout_ms"
        } ?? self
    }
}
