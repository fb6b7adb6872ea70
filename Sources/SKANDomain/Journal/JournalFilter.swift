/// The admin API's request filters (`/__admin/requests?endpoint=&device=&event=&window=&has_issues=&since_id=&limit=`).
public struct JournalFilter: Sendable, Equatable {
    /// A window to match, or `none` for requests where no window was computed (`window=null`).
    public enum WindowMatch: Sendable, Equatable {
        case window(SKANWindow)
        case none

        /// "p0", "p1", "p2", "over", or "null"/"none".
        public init?(_ text: String) {
            if text == "null" || text == "none" {
                self = .none
                return
            }
            guard let w = SKANWindow(rawValue: text) else { return nil }
            self = .window(w)
        }
    }

    /// Whose entries: every tenant's, or one tenant's (nil: the default tenant's).
    public enum TenantScope: Sendable, Equatable {
        case all
        case only(String?)
    }

    public var endpoint: JournalEndpoint?
    public var device: String?
    public var event: String?
    public var window: WindowMatch?
    public var hasIssues: Bool?
    /// Only entries with an id greater than this.
    public var sinceId: Int64?
    /// At most this many entries. With `sinceId`, the oldest matches after it (for polling: pass the
    /// last id seen); without it, the newest matches (like a tail). Either way, in ascending id order.
    public var limit: Int?
    /// Every tenant's entries unless an admin route narrows it to its own tenant's.
    public var tenant: TenantScope = .all

    public init(
        endpoint: JournalEndpoint? = nil, device: String? = nil, event: String? = nil, window: WindowMatch? = nil,
        hasIssues: Bool? = nil, sinceId: Int64? = nil, limit: Int? = nil, tenant: TenantScope = .all
    ) {
        self.tenant = tenant
        self.endpoint = endpoint
        self.device = device
        self.event = event
        self.window = window
        self.hasIssues = hasIssues
        self.sinceId = sinceId
        self.limit = limit
    }

    public func matches(_ e: JournalEntry) -> Bool {
        if let sinceId, e.id <= sinceId { return false }
        if let endpoint, e.endpoint != endpoint { return false }
        if let device, e.device != device { return false }
        if let event, e.event != event { return false }
        if let hasIssues, e.hasIssues != hasIssues { return false }
        if case .only(let name) = tenant, e.tenant != name { return false }
        switch window {
        case nil: break
        case .none?: if e.window != nil { return false }
        case .window(let w)?: if e.window != w { return false }
        }
        return true
    }
}

/// One answer to a journal query.
public struct JournalPage: Sendable {
    public var entries: [JournalEntry]
    /// Matches before `limit` was applied.
    public var total: Int
    /// Entries dropped because the journal was full (since the last clear).
    public var dropped: Int64

    /// `{"requests":[...],"total":N,"dropped":M}`, entries spliced in as recorded.
    /// `{"requests":[...],"total":N,"dropped":N}`, with `extra` members after those (the wait's
    /// `timed_out`), written by the JSON writer.
    public func json(extra: [JSONMember] = []) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + entries.reduce(0) { $0 + $1.line.count })
        w.raw("{\"requests\":[")
        for (n, e) in entries.enumerated() {
            if n > 0 { w.raw(",") }
            w.append(contentsOf: e.jsonBytes)
        }
        w.raw("],\"total\":")
        w.write(Int64(total))
        w.raw(",\"dropped\":")
        w.write(dropped)
        for member in extra {
            w.raw(",")
            w.key(member.key)
            w.write(member.value)
        }
        w.raw("}")
        return w.bytes
    }
}
