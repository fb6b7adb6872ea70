import Foundation

/// The journal summed up per device (`GET /__admin/report`, the shape `skan-mock report --json`
/// prints): what a test asserts on after a run, without walking the journal itself.
public struct Report: Sendable, Equatable, Decodable {
    /// What one device did.
    public struct Device: Sendable, Equatable, Decodable {
        /// The journal's `device`, or `(none)` for requests that named none.
        public var device: String
        public var requests: Int
        /// Windows seen (`p0`, `p1`, `p2`, `over`), in that order.
        public var windows: [String]
        /// Distinct `conversion_value`s answered, in the order first answered.
        public var values: [Int]
        /// Finding codes and how often each occurred.
        public var findingsByCode: [String: Int]
        public var findings: [Finding]

        enum CodingKeys: String, CodingKey {
            case device, requests, windows, values, findings
            case findingsByCode = "findings_by_code"
        }
    }

    /// One validation finding and the request that carried it.
    public struct Finding: Sendable, Equatable, Decodable {
        /// The journal id of the request; nil when the entry had none.
        public var requestId: Int64?
        public var method: String
        public var path: String
        public var param: String?
        public var code: String
        public var message: String

        enum CodingKeys: String, CodingKey {
            case method, path, param, code, message
            case requestId = "id"
        }
    }

    /// A journal line that was not an entry (only for a report of a journal file).
    public struct UnreadableLine: Sendable, Equatable, Decodable {
        /// 1-based.
        public var line: Int
        public var reason: String
    }

    /// With `--upstream`: how the model's answers compared with the upstream's.
    public struct Upstream: Sendable, Equatable, Decodable {
        /// The answers of one endpoint in one window (`-` for none).
        public struct Group: Sendable, Equatable, Decodable {
            public var endpoint: String
            public var window: String
            public var compared: Int
            public var matched: Int
            public var differed: Int
            /// No answer from the upstream (timeout or unreachable).
            public var failed: Int
        }

        /// One request whose answers did not match, or whose upstream did not answer.
        public struct Example: Sendable, Equatable, Decodable {
            public var requestId: Int64?
            public var device: String?
            public var endpoint: String
            public var window: String
            /// `differs_from_upstream`, `upstream_timeout` or `upstream_unreachable`.
            public var kind: String
            public var message: String
            /// The model's answer body.
            public var model: String
            /// The upstream's answer body, or why there was none.
            public var upstream: String

            enum CodingKeys: String, CodingKey {
                case device, endpoint, window, kind, message, model, upstream
                case requestId = "id"
            }
        }

        public var compared: Int
        public var matched: Int
        public var differed: Int
        public var failed: Int
        /// Entries without an upstream answer to compare (refused before they were sent on).
        public var notCompared: Int
        public var groups: [Group]
        public var examples: [Example]

        enum CodingKeys: String, CodingKey {
            case compared, matched, differed, failed, groups, examples
            case notCompared = "not_compared"
        }
    }

    public var requests: Int
    /// Findings over all devices (the server's `findings`; each device lists its own).
    public var findingCount: Int
    /// Devices in the order they first appear.
    public var devices: [Device]
    public var unreadableLines: [UnreadableLine]
    /// The postbacks received, each compared with the prediction as `receivedPostbacks()` gives
    /// them (empty from a server that does not report them).
    public var receivedPostbacks: [ReceivedPostbacks.Received]
    /// Nil unless the server runs with `--upstream`.
    public var upstream: Upstream?
    /// The answer as sent, for members this type does not name.
    public var raw: MockJSON

    /// One device's summary, nil when it sent nothing that matched.
    public func device(_ id: String) -> Device? { devices.first { $0.device == id } }

    /// A member as sent (what `report()` returned before it was typed).
    public subscript(key: String) -> MockJSON? { raw[key] }

    enum CodingKeys: String, CodingKey {
        case requests, devices, upstream
        case findingCount = "findings"
        case unreadableLines = "unreadable_lines"
        case receivedPostbacks = "received_postbacks"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requests = try c.decode(Int.self, forKey: .requests)
        findingCount = try c.decode(Int.self, forKey: .findingCount)
        devices = try c.decode([Device].self, forKey: .devices)
        unreadableLines = try c.decodeIfPresent([UnreadableLine].self, forKey: .unreadableLines) ?? []
        receivedPostbacks =
            try c.decodeIfPresent([ReceivedPostbacks.Received].self, forKey: .receivedPostbacks) ?? []
        upstream = try c.decodeIfPresent(Upstream.self, forKey: .upstream)
        raw = try MockJSON(from: decoder)
    }
}
