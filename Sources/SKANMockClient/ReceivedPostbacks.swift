import Foundation

/// The postbacks the server received at `/.well-known/.../report-attribution/`, each verified and
/// compared with its prediction (`GET /__admin/postbacks/received`).
public struct ReceivedPostbacks: Sendable, Equatable, Decodable {
    /// Whether the signature checks out, with which key, and why.
    public struct Verification: Sendable, Equatable, Decodable {
        public var verified: Bool
        public var key: String?
        public var reason: String
        /// A signature that does not verify (an unknown key is only unverified).
        public var badSignature: Bool

        enum CodingKeys: String, CodingKey {
            case verified, key, reason
            case badSignature = "bad_signature"
        }
    }

    /// The postback set against skan-mock's prediction for a device.
    public struct Comparison: Sendable, Equatable, Decodable {
        /// `matches`, `differs` or `unmatched`.
        public var result: String
        public var device: String?
        public var tier: Int?
        /// `p0`, `p1`, `p2` or `skan3`.
        public var window: String
        /// Each difference in words (`matches` and `differs`).
        public var differences: [String]?
        /// The devices whose prediction it matches (`unmatched`).
        public var candidates: [String]?
    }

    /// One received postback.
    public struct Received: Sendable, Equatable, Decodable {
        /// Its journal entry's id.
        public var id: Int
        public var time: String
        public var path: String
        /// `skan` or `aak`.
        public var framework: String
        /// The device `?device=` named on the receiving URL.
        public var namedDevice: String?
        /// The body as received.
        public var postback: MockJSON
        /// Window, tier, values, transaction id and the model's meaning.
        public var decoded: MockJSON
        public var verified: Verification
        public var comparison: Comparison

        enum CodingKeys: String, CodingKey {
            case id, time, path, framework, postback, decoded, verified, comparison
            case namedDevice = "named_device"
        }
    }

    public var postbacks: [Received]
    /// How many were dropped to stay within the server's bound.
    public var dropped: Int
}
