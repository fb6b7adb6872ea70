/// What Apple would send the ad network for a device, from the state the server keeps of it: the
/// values it answered per window, when, and the locks. Pure: the time is passed in.
///
/// The rules, from Apple's StoreKit documentation ("Receiving postbacks in multiple conversion
/// windows", "Receiving ad attributions and postbacks", the SKAdNetwork 4.0 postback fields) and,
/// for the windows' edges, Singular's SKAN 4 snippet (the seeds), which the server follows too:
/// - SKAN 4 has three conversion windows from the first launch: p0 up to 2 days, p1 up to 7 days,
///   p2 up to 35 days. Each window's postback carries the last value set before the window ended;
///   locking a window (`lockWindow`) ends it at once.
/// - The first postback is sent 24 to 48 hours after its window ends, the second and third 24 to
///   144 hours after theirs (a random delay: given here as the interval).
/// - The crowd-anonymity tier decides the detail: tier 0 sends the first postback only, with no
///   value; tier 1 a coarse value; tiers 2 and 3 the fine value in the first postback (the second
///   and third only ever carry a coarse value). The source identifier has 2, 2, 3 and 4 digits.
/// - SKAN 3 sends one postback, 24 hours after the last update that raised the value (the timer
///   restarts with each raise), then after a random 0 to 24 hours.
public enum PostbackSimulator {
    /// One postback, as of `now`.
    public struct Postback: Sendable, Equatable {
        public enum Status: String, Sendable {
            /// The window is still open: what it would carry if it ended now.
            case pending
            /// The window was ended early by a lock; the postback follows in `sendInterval`.
            case locked
            /// The window ended with time; the postback follows in `sendInterval` (or has been sent).
            case sentBy = "sent_by"
            /// Apple would send none, for `reason`.
            case neverSent = "never_sent"
        }

        /// 0, 1, 2 for SKAN 4 (Apple's `postback-sequence-index`); 0 for SKAN 3.
        public var index: Int
        public var status: Status
        /// The window's span in seconds since 1970 (SKAN 4), or the timer's start and end (SKAN 3).
        public var windowStart: Int64?
        public var windowEnd: Int64?
        /// Earliest and latest send time, seconds since 1970.
        public var sendInterval: ClosedRange<Int64>?
        /// The values the postback carries at this tier.
        public var fine: Int64?
        public var coarse: Int64?
        public var reason: String?
        /// The tier's source identifier length.
        public var sourceIdentifierDigits: Int
    }

    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600
    /// Window ends in days from the first launch (the snippet's constants: 48 h, 7 days, 35 days).
    static let windowEnds: [Int64] = [2 * day, 7 * day, 35 * day]

    /// The digits of the source identifier by tier (0 to 3).
    public static func sourceIdentifierDigits(tier: Int) -> Int { [2, 2, 3, 4][max(0, min(3, tier))] }

    /// SKAN 4's three postbacks for `state` at crowd-anonymity `tier`, as of `now` (milliseconds).
    public static func skan4(_ state: WindowedDeviceState, tier: Int, now: Int64) -> [Postback] {
        let digits = sourceIdentifierDigits(tier: tier)
        let nowSeconds = floorDivide(now, 1000)
        return (0..<3).map { n in
            var postback = Postback(index: n, status: .neverSent, sourceIdentifierDigits: digits)
            guard let first = state.firstCallSeconds else {
                postback.reason = "the device never sent skan_first_call_to_skadnetwork_timestamp: no window has begun"
                return postback
            }
            let start = first + (n == 0 ? 0 : windowEnds[n - 1])
            var end = first + windowEnds[n]
            postback.windowStart = start
            var endedByLock = false
            if let locked = state.lockedAtMilliseconds[n].map({ floorDivide($0, 1000) }), locked < end {
                end = locked
                endedByLock = true
            }
            postback.windowEnd = end
            if tier == 0 && n > 0 {
                postback.reason = "at crowd-anonymity tier 0 only the first postback is sent"
                return postback
            }
            // A locked window keeps what it held at the lock: iOS ignores every update after it.
            guard let answer = endedByLock ? state.lockedValue[n] ?? state.lastReturned[n] : state.lastReturned[n]
            else {
                postback.reason =
                    nowSeconds < end
                    ? "no conversion value set in p\(n) yet (the window is open until \(end))"
                    : "no conversion value was set in p\(n): skan-mock answered none in that window"
                if nowSeconds < end { postback.status = .pending }
                return postback
            }
            if tier >= 2 && n == 0 {
                postback.fine = answer.fine
            } else if tier >= 1 {
                postback.coarse = answer.coarse
            }
            if nowSeconds < end {
                postback.status = .pending
                return postback
            }
            let latest: Int64 = n == 0 ? 48 * hour : 144 * hour
            postback.sendInterval = (end + 24 * hour)...(end + latest)
            postback.status = endedByLock ? .locked : .sentBy
            return postback
        }
    }

    /// SKAN 3's single postback for `state`, as of `now` (milliseconds); nil when the device never
    /// got a SKAN 3 value.
    public static func skan3(_ state: SKAN3DeviceState, now: Int64) -> Postback? {
        guard let value = state.lastValueReturned,
            let raised = state.lastRaisedMilliseconds.map({ floorDivide($0, 1000) })
        else {
            return nil
        }
        var postback = Postback(index: 0, status: .pending, sourceIdentifierDigits: 2)
        postback.fine = value
        postback.windowStart = raised
        postback.windowEnd = raised + 24 * hour
        if floorDivide(now, 1000) < raised + 24 * hour {
            postback.reason = "the 24-hour timer runs until \(raised + 24 * hour); a higher value restarts it"
            return postback
        }
        postback.status = .sentBy
        postback.sendInterval = (raised + 24 * hour)...(raised + 48 * hour)
        return postback
    }

    /// The postback's JSON as Apple sends it (SKAdNetwork 4.0 field names and types), with
    /// placeholders for what the ad network and the App Store supply, and no signature.
    public static func appleJSON(_ postback: Postback, version: String = "4.0") -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("version", .string(version)),
            JSONMember("ad-network-id", "example123.skadnetwork"),
            JSONMember("source-identifier", .string(String(repeating: "1", count: postback.sourceIdentifierDigits))),
            JSONMember("app-id", .int(123_456_789)),
            JSONMember("transaction-id", "00000000-0000-0000-0000-000000000000"),
            JSONMember("redownload", .bool(false)),
            JSONMember("source-app-id", .int(987_654_321)),
            JSONMember("fidelity-type", .int(1)),
            JSONMember("did-win", .bool(true))
        ]
        if version.hasPrefix("4") { members.append(JSONMember("postback-sequence-index", .int(Int64(postback.index)))) }
        if let fine = postback.fine { members.append(JSONMember("conversion-value", .int(fine))) }
        if let coarse = postback.coarse {
            members.append(JSONMember("coarse-conversion-value", .string(coarseName(coarse))))
        }
        return .object(members)
    }

    /// Apple's words for coarse values 0, 1, 2.
    public static func coarseName(_ value: Int64) -> String {
        switch value {
        case 0: "low"
        case 1: "medium"
        default: "high"
        }
    }
}
