import SKANDomain

/// A query-string value the admin API cannot use, named so the caller can fix it.
struct AdminQueryError: Error {
    let reason: String
}

extension JournalFilter {
    /// Reads `endpoint`, `device`, `event`, `window`, `has_issues`, `since_id` and `limit`;
    /// anything else, or a value of the wrong kind, is an error rather than silently ignored, so a
    /// typo in a test's filter cannot make it pass on an empty result.
    init(query: [(name: String, value: String)]) throws(AdminQueryError) {
        self.init()
        for (name, value) in query {
            switch name {
            case "endpoint":
                guard let endpoint = JournalEndpoint(name: value) else {
                    throw AdminQueryError(
                        reason:
                            "endpoint must be one of skan3, skan4, launch, event (or evt), launch2, event2 (or evt2), unmatched, postback"
                    )
                }
                self.endpoint = endpoint
            case "device": device = value
            case "event": event = value
            case "window":
                guard let window = WindowMatch(value) else {
                    throw AdminQueryError(reason: "window must be one of p0, p1, p2, over, null")
                }
                self.window = window
            case "has_issues":
                guard value == "true" || value == "false" else {
                    throw AdminQueryError(reason: "has_issues must be true or false")
                }
                hasIssues = value == "true"
            case "since_id":
                guard let id = Int64(value), id >= 0 else {
                    throw AdminQueryError(reason: "since_id must be a non-negative integer")
                }
                sinceId = id
            case "limit":
                guard let limit = Int(value), limit >= 0 else {
                    throw AdminQueryError(reason: "limit must be a non-negative integer")
                }
                self.limit = limit
            default:
                throw AdminQueryError(
                    reason: "unknown filter \(name); use endpoint, device, event, window, has_issues, since_id, limit"
                )
            }
        }
    }
}
