import Foundation

/// What the server remembers about one device (`GET /__admin/devices/{id}`): the events it counted
/// and the values it answered, per channel. Named `Device`, not `DeviceState`, so that a test target
/// that also imports the server (SKANDomain's `DeviceState`) can still name it: a module-qualified
/// `SKANMockClient.X` resolves to the client struct, not the module.
public struct Device: Sendable, Equatable, Decodable {
    /// SKAN 3 has no windows: events are counted over the device's whole life.
    public struct SKAN3: Sendable, Equatable, Decodable {
        /// Event name to how many times it was seen.
        public var events: [String: Int]
        /// The highest `conversion_value` the device has sent; a lower one later is a finding.
        public var highestValueSent: Int?
        public var lastValueReturned: Int?

        enum CodingKeys: String, CodingKey {
            case events
            case highestValueSent = "highest_value_sent"
            case lastValueReturned = "last_value_returned"
        }
    }

    /// SKAN 4 (`skan4`) or S2S (`s2s`) state: kept apart because an app reports each event to both.
    public struct Windows: Sendable, Equatable, Decodable {
        public var p0: Window
        public var p1: Window
        public var p2: Window
        /// The fine value the device had in p0, which it should keep sending afterwards.
        public var p0Fine: Int?

        /// `p0`, `p1` or `p2`; nil for any other name.
        public subscript(window: String) -> Window? {
            switch window {
            case "p0": return p0
            case "p1": return p1
            case "p2": return p2
            default: return nil
            }
        }

        enum CodingKeys: String, CodingKey {
            case p0, p1, p2
            case p0Fine = "p0_fine"
        }
    }

    /// One SKAN 4 window of a device.
    public struct Window: Sendable, Equatable, Decodable {
        /// Event name to how many times it was seen in this window.
        public var events: [String: Int]
        /// The values last answered in this window, nil before any.
        public var lastReturned: Answer?
        /// Whether the server told the client to lock this window.
        public var locked: Bool

        enum CodingKeys: String, CodingKey {
            case events, locked
            case lastReturned = "last_returned"
        }
    }

    /// Values the server answered.
    public struct Answer: Sendable, Equatable, Decodable {
        public var fine: Int?
        /// 0 low, 1 medium, 2 high.
        public var coarse: Int?
        public var lock: Bool
    }

    public var device: String
    /// RFC 3339, by the server's clock (with its time-travel offset).
    public var firstSeen: String
    public var lastSeen: String
    /// Requests the server accepted for the device, over all channels.
    public var requests: Int
    /// `/api/v1/conversion_value`.
    public var skan3: SKAN3
    /// `/api/v2/conversion_value`.
    public var skan4: Windows
    /// `/api/v1/launch`, `/api/v1/evt` and their v2 forms.
    public var s2s: Windows
    /// The answer as sent, for members this type does not name.
    public var raw: MockJSON

    /// A member as sent (what `device(_:)` returned before it was typed).
    public subscript(key: String) -> MockJSON? { raw[key] }

    enum CodingKeys: String, CodingKey {
        case device, requests, skan3, skan4, s2s
        case firstSeen = "first_seen"
        case lastSeen = "last_seen"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        device = try c.decode(String.self, forKey: .device)
        firstSeen = try c.decode(String.self, forKey: .firstSeen)
        lastSeen = try c.decode(String.self, forKey: .lastSeen)
        requests = try c.decode(Int.self, forKey: .requests)
        skan3 = try c.decode(SKAN3.self, forKey: .skan3)
        skan4 = try c.decode(Windows.self, forKey: .skan4)
        s2s = try c.decode(Windows.self, forKey: .s2s)
        raw = try MockJSON(from: decoder)
    }
}
