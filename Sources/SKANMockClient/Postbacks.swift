import Foundation

/// What Apple would send the ad network for one device (`GET /__admin/devices/{id}/postbacks`).
public struct Postbacks: Sendable, Equatable, Decodable {
    /// One crowd-anonymity tier's postbacks.
    public struct Tier: Sendable, Equatable, Decodable {
        public var tier: Int
        public var postbacks: [Postback]
    }

    /// One postback, as of the server's `now`.
    public struct Postback: Sendable, Equatable, Decodable {
        /// 0, 1, 2 (Apple's `postback-sequence-index`).
        public var index: Int
        /// `p0`, `p1`, `p2` (nil for SKAN 3).
        public var window: String?
        /// `pending`, `locked`, `sent_by` or `never_sent`.
        public var status: String
        public var windowStart: String?
        public var windowEnd: String?
        public var sendEarliest: String?
        public var sendLatest: String?
        public var fine: Int?
        public var coarse: Int?
        /// Why it is never sent, or what it waits for.
        public var reason: String?
        /// The model's entries that give this value.
        public var meaning: [MockJSON]?
        /// `value_not_in_model` when no entry gives it.
        public var findings: [Finding]?
        /// The postback in Apple's field names (nil when never sent).
        public var apple: MockJSON?

        enum CodingKeys: String, CodingKey {
            case index, window, status, fine, coarse, reason, meaning, findings, apple
            case windowStart = "window_start"
            case windowEnd = "window_end"
            case sendEarliest = "send_earliest"
            case sendLatest = "send_latest"
        }
    }

    public var device: String
    /// The server's clock (with its time-travel offset).
    public var now: String
    public var model: String
    public var skan4: [Tier]
    public var skan3: Postback?

    /// The SKAN 4 postbacks at `tier`, when it was asked for.
    public func tier(_ tier: Int) -> [Postback]? { skan4.first { $0.tier == tier }?.postbacks }
}
