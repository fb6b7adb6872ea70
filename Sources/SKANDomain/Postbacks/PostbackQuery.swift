/// What the postbacks route is asked for (`tier`, `did_win`, `developer_mode`, `framework`,
/// `digits`, `country`), parsed once from the query's pairs: a value outside the allowed ones, a parameter
/// given twice or an unknown one is an error naming it and what it allows.
public struct PostbackQuery: Sendable, Equatable {
    /// Apple's two postback formats: SKAdNetwork's JSON, or AdAttributionKit's JWS (iOS 17.4+).
    public enum Framework: String, Sendable, CaseIterable {
        case skan
        case aak
    }

    /// The crowd-anonymity tiers to show (all four unless one is asked for).
    public var tiers: [Int] = [0, 1, 2, 3]
    /// false: what a network whose ad did not win receives.
    public var didWin = true
    /// iOS Developer Mode's short windows and delays.
    public var developerMode = false
    public var framework: Framework = .skan
    /// The first postback's source-identifier digits at tiers 2 and 3; nil: 3 at tier 2, 4 at tier 3.
    public var digits: Int?
    /// The `country-code` Apple adds where it adds one (ISO 3166-1 alpha-2); nil: none.
    public var country: String?

    public init() {}

    /// The parameter and the reason, in the words the 400 answer uses.
    public struct Failure: Error, Sendable, Equatable {
        public var parameter: String
        public var message: String
    }

    static let names = ["tier", "did_win", "developer_mode", "framework", "digits", "country"]

    public static func parse(_ pairs: [(name: String, value: String)]) -> Result<PostbackQuery, Failure> {
        var query = PostbackQuery()
        var seen: Set<String> = []
        for (name, value) in pairs {
            guard names.contains(name) else {
                return .failure(
                    Failure(parameter: name, message: "unknown parameter \(name); use \(names.joined(separator: ", "))")
                )
            }
            guard seen.insert(name).inserted else {
                return .failure(Failure(parameter: name, message: "\(name) is given twice; give it once"))
            }
            switch name {
            case "tier":
                guard let tier = digit(value, in: 0...3) else { return .failure(allowed(name, "0, 1, 2 or 3")) }
                query.tiers = [tier]
            case "digits":
                guard let digits = digit(value, in: 2...4) else { return .failure(allowed(name, "2, 3 or 4")) }
                query.digits = digits
            case "did_win":
                guard let flag = bool(value) else { return .failure(allowed(name, "true or false")) }
                query.didWin = flag
            case "developer_mode":
                guard let flag = bool(value) else { return .failure(allowed(name, "true or false")) }
                query.developerMode = flag
            case "country":
                guard ISO3166.alpha2.contains(value) else {
                    return .failure(
                        allowed(name, "an ISO 3166-1 alpha-2 country code in capitals, such as US or DE"))
                }
                query.country = value
            default:
                guard let framework = Framework(rawValue: value) else {
                    return .failure(allowed(name, "skan or aak"))
                }
                query.framework = framework
            }
        }
        // Development postbacks come at the highest tier (Apple: "Testing ad attributions with
        // Developer Mode"), so that is the one shown unless another is asked for.
        if query.developerMode && !seen.contains("tier") { query.tiers = [3] }
        return .success(query)
    }

    /// One ASCII digit in `range`: `+1`, `01` and ` 1` are not tiers.
    private static func digit(_ text: String, in range: ClosedRange<Int>) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 1, bytes[0] >= UInt8(ascii: "0"), bytes[0] <= UInt8(ascii: "9") else { return nil }
        let value = Int(bytes[0] - UInt8(ascii: "0"))
        return range.contains(value) ? value : nil
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true": true
        case "false": false
        default: nil
        }
    }

    private static func allowed(_ name: String, _ values: String) -> Failure {
        Failure(parameter: name, message: "\(name) must be \(values)")
    }
}
