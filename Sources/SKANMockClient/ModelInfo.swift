import Foundation

/// The conversion model in use (`GET /__admin/model`): the model document as written
/// (config/model.schema.json). Members the document leaves out are nil here, not the server's
/// defaults, so a test sees what was loaded rather than a guess of what the server assumes.
public struct ModelInfo: Sendable, Equatable, Decodable {
    /// Revenue thresholds are in `base`; other currencies are converted with `rates`.
    public struct Currency: Sendable, Equatable, Decodable {
        public var base: String?
        /// Value of one unit of each currency in the base currency.
        public var rates: [String: Double]?
    }

    /// `/api/v1/conversion_value`: Singular's increment, or rules.
    public struct SKAN3: Sendable, Equatable, Decodable {
        /// `increment` or `rules`.
        public var mode: String?
        /// The increment's last value.
        public var max: Int?
        /// The increment's answer once exhausted: `empty` or `status_ok`.
        public var whenExhausted: String?
        /// The rules' `last` or `or`.
        public var combine: String?
        public var entries: [Entry]?

        enum CodingKeys: String, CodingKey {
            case mode, max, combine, entries
            case whenExhausted = "when_exhausted"
        }
    }

    /// `/api/v2/conversion_value`: the windows the model describes (nil answers `{"status":"ok"}`).
    public struct SKAN4: Sendable, Equatable, Decodable {
        public var p0: Window?
        public var p1: Window?
        public var p2: Window?

        /// `p0`, `p1` or `p2`; nil for a window the model leaves out or any other name.
        public subscript(window: String) -> Window? {
            switch window {
            case "p0": return p0
            case "p1": return p1
            case "p2": return p2
            default: return nil
            }
        }
    }

    /// One SKAN 4 window's entries.
    public struct Window: Sendable, Equatable, Decodable {
        /// `last` or `or`.
        public var combine: String?
        public var entries: [Entry]
        /// Answered when no entry matches.
        public var defaultAnswer: Entry?

        enum CodingKeys: String, CodingKey {
            case combine, entries
            case defaultAnswer = "default"
        }
    }

    /// One entry of a rule table (or a window's `default`): the values it gives and when.
    public struct Entry: Sendable, Equatable, Decodable {
        /// SKAN 3's conversion value.
        public var value: Int?
        public var fine: Int?
        /// 0 low, 1 medium, 2 high: the model may write the name, the client reads it as the
        /// number the answers and `Device` use.
        public var coarse: Int?
        public var lock: Bool?
        /// The conditions, as written.
        public var when: MockJSON?

        enum CodingKeys: String, CodingKey { case value, fine, coarse, lock, when }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            value = try c.decodeIfPresent(Int.self, forKey: .value)
            fine = try c.decodeIfPresent(Int.self, forKey: .fine)
            lock = try c.decodeIfPresent(Bool.self, forKey: .lock)
            when = try c.decodeIfPresent(MockJSON.self, forKey: .when)
            if let name = try? c.decodeIfPresent(String.self, forKey: .coarse) {
                guard let level = ["low", "medium", "high"].firstIndex(of: name) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .coarse, in: c, debugDescription: "coarse \(name) is not low, medium or high")
                }
                coarse = level
            } else {
                coarse = try c.decodeIfPresent(Int.self, forKey: .coarse)
            }
        }
    }

    /// `/api/v1/launch` and `/api/v1/evt`: whether they answer a conversion value.
    public struct S2S: Sendable, Equatable, Decodable {
        public var launch: Bool?
        public var evt: Bool?
    }

    /// Nil when the document has none (the server then names the model after its file).
    public var name: String?
    public var description: String?
    public var currency: Currency?
    public var skan3: SKAN3?
    public var skan4: SKAN4?
    public var s2s: S2S?
    /// Faults installed when the model loaded, as written.
    public var faults: [MockJSON]?
    /// The document as sent, e.g. to put it back with `replaceModel(_:)` after encoding it.
    public var raw: MockJSON

    /// A member as sent (what `model()` returned before it was typed).
    public subscript(key: String) -> MockJSON? { raw[key] }

    enum CodingKeys: String, CodingKey { case name, description, currency, skan3, skan4, s2s, faults }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        currency = try c.decodeIfPresent(Currency.self, forKey: .currency)
        skan3 = try c.decodeIfPresent(SKAN3.self, forKey: .skan3)
        skan4 = try c.decodeIfPresent(SKAN4.self, forKey: .skan4)
        s2s = try c.decodeIfPresent(S2S.self, forKey: .s2s)
        faults = try c.decodeIfPresent([MockJSON].self, forKey: .faults)
        raw = try MockJSON(from: decoder)
    }
}
