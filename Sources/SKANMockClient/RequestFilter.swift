import Foundation

/// The journal filters of `/__admin/requests`, `/count`, `/wait` and `/__admin/report`; nil means
/// "any".
public struct RequestFilter: Sendable, Equatable {
    public var endpoint: String?
    public var device: String?
    public var event: String?
    /// `p0`, `p1`, `p2`, `over` or `null`.
    public var window: String?
    public var hasIssues: Bool?
    /// Only entries after this id (from `mark()`).
    public var sinceId: Int64?
    public var limit: Int?

    public init(
        endpoint: String? = nil, device: String? = nil, event: String? = nil, window: String? = nil,
        hasIssues: Bool? = nil, sinceId: Int64? = nil, limit: Int? = nil
    ) {
        self.endpoint = endpoint
        self.device = device
        self.event = event
        self.window = window
        self.hasIssues = hasIssues
        self.sinceId = sinceId
        self.limit = limit
    }

    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let endpoint { items.append(URLQueryItem(name: "endpoint", value: endpoint)) }
        if let device { items.append(URLQueryItem(name: "device", value: device)) }
        if let event { items.append(URLQueryItem(name: "event", value: event)) }
        if let window { items.append(URLQueryItem(name: "window", value: window)) }
        if let hasIssues { items.append(URLQueryItem(name: "has_issues", value: String(hasIssues))) }
        if let sinceId { items.append(URLQueryItem(name: "since_id", value: String(sinceId))) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        return items
    }
}
