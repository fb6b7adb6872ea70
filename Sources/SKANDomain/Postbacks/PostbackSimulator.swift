/// What Apple would send the ad network for a device, from the state the server keeps of it: the
/// values it answered per window, when, and the locks. Pure: the time is passed in.
///
/// The rules and their Apple sources are listed in docs/postbacks.md; in short:
/// - SKAN 4 has three conversion windows from the first launch: p0 up to 2 days, p1 up to 7 days,
///   p2 up to 35 days (Singular's snippet's edges, which the server follows too). Each window's
///   postback carries the last value set before the window ended; a lock ends it at once.
/// - The first postback is sent 24 to 48 hours after its window ends, the second and third 24 to
///   144 hours after theirs. Developer Mode: windows of 0-3, 3-6 and 6-9 minutes, 5 to 10 minutes' delay.
/// - Apple makes the first postback when the app registers (any update call), so a device with a
///   first call always has one: with the value answered in p0, else the one the app reported, else 0.
/// - The crowd-anonymity tier decides the detail: tier 0 sends the first postback only, with no
///   value; tier 1 a coarse value; tiers 2 and 3 the fine value in the first postback (the second
///   and third only ever carry a coarse value). The source identifier has 2 digits, except in the
///   first postback at tiers 2 (up to 3 assumed) and 3 (up to 4 assumed).
/// - A network whose ad did not win gets the first postback only, with no value.
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
        /// The crowd-anonymity tier it is rendered at.
        public var tier: Int = 3
        public var didWin = true
        /// Where the first postback's value comes from when the server answered none in p0.
        public var valueSource: ValueSource?
        /// A development postback (Developer Mode): Apple names no publishing app (`source-app-id` 0).
        public var developerMode = false
        /// The install's first call (seconds): each install has its own transaction-ids.
        public var firstCallSeconds: Int64?
        /// The country Apple adds (`country-code`), where it adds one.
        public var countryCode: String?
    }

    /// The first postback exists from registration on; its value when the server answered none in p0.
    public enum ValueSource: String, Sendable {
        /// The server answered it in p0.
        case answered
        /// The app reported it (`skan_current_conversion_value`) when the server first met it after p0.
        case appReported = "app_reported"
        /// Nothing known: registration's value, 0.
        case registration
    }

    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600
    /// Window ends in days from the first launch (the snippet's constants: 48 h, 7 days, 35 days).
    static let windowEnds: [Int64] = [2 * day, 7 * day, 35 * day]

    static let minute: Int64 = 60
    /// Developer Mode's window ends from the first call: 3, 6 and 9 minutes.
    static let developerWindowEnds: [Int64] = [3 * minute, 6 * minute, 9 * minute]

    /// The source identifier's digits: 2 in postbacks 2 and 3 and at tiers 0 and 1; in the first
    /// postback at tiers 2 and 3, `digits` when asked, else the longest the tier allows (3, 4).
    public static func sourceIdentifierDigits(tier: Int, index: Int = 0, digits: Int? = nil) -> Int {
        guard index == 0, tier >= 2 else { return 2 }
        return digits ?? (tier == 2 ? 3 : 4)
    }

    /// SKAN 4's three postbacks for `state` at crowd-anonymity `tier`, as of `now` (milliseconds).
    public static func skan4(
        _ state: WindowedDeviceState, tier: Int, now: Int64, options: PostbackQuery = PostbackQuery()
    ) -> [Postback] {
        let nowSeconds = floorDivide(now, 1000)
        let ends = options.developerMode ? developerWindowEnds : windowEnds
        return (0..<3).map { n in
            var postback = Postback(
                index: n, status: .neverSent,
                sourceIdentifierDigits: sourceIdentifierDigits(tier: tier, index: n, digits: options.digits))
            postback.tier = tier
            postback.didWin = options.didWin
            postback.developerMode = options.developerMode
            guard let first = state.firstCallSeconds else {
                postback.reason = "the device never sent skan_first_call_to_skadnetwork_timestamp: no window has begun"
                return postback
            }
            postback.firstCallSeconds = first
            if n == 0, tier == 3, options.didWin { postback.countryCode = options.country }
            let start = saturatingAdd(first, n == 0 ? 0 : ends[n - 1])
            var end = saturatingAdd(first, ends[n])
            postback.windowStart = start
            var endedByLock = false
            // The server's lock, else the one the app reports (`pN_window_lock`), within the window.
            let lock =
                state.lockedAtMilliseconds[n].map { floorDivide($0, 1000) }
                ?? state.appLockSeconds[n].flatMap { $0 >= start ? $0 : nil }
            if let locked = lock, locked < end {
                end = Swift.max(start, locked)
                endedByLock = true
            }
            postback.windowEnd = end
            if tier == 0 && n > 0 {
                postback.reason = "at crowd-anonymity tier 0 only the first postback is sent"
                return postback
            }
            if !options.didWin && n > 0 {
                postback.reason = "a network whose ad did not win gets the first postback only"
                return postback
            }
            // A locked window keeps what it held at the lock: iOS ignores every update after it.
            var answer = endedByLock ? state.lockedValue[n] ?? state.lastReturned[n] : state.lastReturned[n]
            // Where the server answered nothing, the coarse value the app reports (`pN_coarse`).
            if answer == nil, n > 0, let coarse = state.appCoarse[n] {
                answer = ModelAnswer(fine: nil, coarse: coarse, lock: false)
            }
            if n == 0 {
                // Registration made the first postback: it exists whatever the server answered.
                if answer != nil {
                    postback.valueSource = .answered
                } else if state.p0Fine != nil || state.appCoarse[0] != nil {
                    answer = ModelAnswer(fine: state.p0Fine ?? 0, coarse: state.appCoarse[0], lock: false)
                    postback.valueSource = .appReported
                } else {
                    answer = ModelAnswer(fine: 0, coarse: nil, lock: false)
                    postback.valueSource = .registration
                }
            }
            guard let answer else {
                postback.reason =
                    nowSeconds < end
                    ? "no conversion value set in p\(n) yet (the window is open until \(RFC3339.format(seconds: end)))"
                    : "no conversion value was set in p\(n): skan-mock answered none in that window"
                if nowSeconds < end { postback.status = .pending }
                return postback
            }
            if !options.didWin {
                // No value for a network whose ad did not win.
            } else if tier >= 2 && n == 0 {
                postback.fine = answer.fine
            } else if tier >= 1 {
                postback.coarse = answer.coarse
            }
            // Also while the window is open: when it will be sent if nothing else happens.
            if options.developerMode {
                postback.sendInterval = saturatingAdd(end, 5 * minute)...saturatingAdd(end, 10 * minute)
            } else {
                let latest: Int64 = n == 0 ? 48 * hour : 144 * hour
                postback.sendInterval = saturatingAdd(end, 24 * hour)...saturatingAdd(end, latest)
            }
            postback.status = nowSeconds < end ? .pending : endedByLock ? .locked : .sentBy
            return postback
        }
    }

    /// SKAN 3's single postback for `state`, as of `now` (milliseconds); nil when the device never
    /// got a SKAN 3 value.
    /// The value is carried only where the privacy threshold is met (tiers 1 to 3 here) and the ad won.
    public static func skan3(
        _ state: SKAN3DeviceState, now: Int64, tier: Int = 3, options: PostbackQuery = PostbackQuery()
    ) -> Postback? {
        // The value is the highest the device had: answered, or set by the app on its own (a first
        // request that already reports 2); the timer runs from when it got there.
        let answered = state.lastValueReturned.flatMap { v in state.lastRaisedMilliseconds.map { (v, $0) } }
        let reported = state.highestValueSent.flatMap { v in state.highestSentMilliseconds.map { (v, $0) } }
        let chosen: (value: Int64, at: Int64)
        switch (answered, reported) {
        case (let a?, let r?): chosen = r.0 > a.0 ? r : a
        case (let a?, nil): chosen = a
        case (nil, let r?): chosen = r
        case (nil, nil): return nil
        }
        let raised = floorDivide(chosen.at, 1000)
        var postback = Postback(index: 0, status: .pending, sourceIdentifierDigits: 2)
        postback.tier = tier
        postback.didWin = options.didWin
        postback.developerMode = options.developerMode
        postback.firstCallSeconds = state.firstCallSeconds
        postback.fine = tier >= 1 && options.didWin ? chosen.value : nil
        postback.windowStart = raised
        // Developer Mode: Apple states a 5 to 10 minute delay; skan-mock assumes it replaces the
        // 24-hour timer and its random delay, and that a higher value restarts it too.
        let timer = options.developerMode ? 5 * minute : 24 * hour
        let timerEnd = saturatingAdd(raised, timer)
        postback.windowEnd = timerEnd
        postback.sendInterval = timerEnd...saturatingAdd(raised, 2 * timer)
        if floorDivide(now, 1000) < timerEnd {
            postback.reason =
                "the \(options.developerMode ? "5-minute" : "24-hour") timer runs until \(RFC3339.format(seconds: timerEnd)); a higher value restarts it"
            return postback
        }
        postback.status = .sentBy
        return postback
    }

    /// The app's App Store ID, the ad network's ID and the publishing app's ID in the JSON: Apple and
    /// the ad network supply the real ones.
    public static let appID: Int64 = 123_456_789
    public static let adNetworkID = "example123.skadnetwork"
    public static let sourceAppID: Int64 = 987_654_321
    /// SKAN 3's campaign (the seeds' campaigns are 1 to 100).
    public static let campaignID: Int64 = 42

    /// The SKAN 4 postback's JSON as Apple sends it (SKAdNetwork 4.0 field names and types), with
    /// placeholders for what the ad network and the App Store supply, and no signature.
    public static func appleJSON(_ postback: Postback, device: String) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("version", "4.0"),
            JSONMember("ad-network-id", .string(adNetworkID)),
            JSONMember("source-identifier", .string(sourceIdentifier(postback))),
            JSONMember("app-id", .int(appID)),
            JSONMember("transaction-id", .string(PostbackTransactionID.make(device: device, postback: postback))),
            JSONMember("redownload", .bool(false))
        ]
        if carriesSourceApp(postback) { members.append(JSONMember("source-app-id", .int(sourceApp(postback)))) }
        members += [
            JSONMember("fidelity-type", .int(1)),
            JSONMember("did-win", .bool(postback.didWin)),
            JSONMember("postback-sequence-index", .int(Int64(postback.index)))
        ]
        if let fine = postback.fine { members.append(JSONMember("conversion-value", .int(fine))) }
        if let coarse = postback.coarse {
            members.append(JSONMember("coarse-conversion-value", .string(CoarseValue.name(coarse))))
        }
        if let country = postback.countryCode { members.append(JSONMember("country-code", .string(country))) }
        return .object(members)
    }

    /// The SKAN 3 postback's JSON (version 3.0): an integer `campaign-id` instead of a source
    /// identifier; `source-app-id` and `conversion-value` only where the privacy threshold is met.
    public static func skan3AppleJSON(_ postback: Postback, device: String) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("version", "3.0"),
            JSONMember("ad-network-id", .string(adNetworkID)),
            JSONMember("campaign-id", .int(campaignID)),
            JSONMember("app-id", .int(appID)),
            JSONMember("transaction-id", .string(PostbackTransactionID.make(device: device, postback: postback))),
            JSONMember("redownload", .bool(false))
        ]
        if postback.tier >= 1 && postback.didWin {
            members.append(JSONMember("source-app-id", .int(sourceApp(postback))))
        }
        members += [JSONMember("fidelity-type", .int(1)), JSONMember("did-win", .bool(postback.didWin))]
        if let fine = postback.fine { members.append(JSONMember("conversion-value", .int(fine))) }
        return .object(members)
    }

    /// The source identifier at the postback's length (the ad network's four digits, `1234`, cut).
    public static func sourceIdentifier(_ postback: Postback) -> String {
        String("1234".prefix(postback.sourceIdentifierDigits))
    }

    /// The publishing app's ID: 0 in a development postback, as Apple sends it in testing.
    public static func sourceApp(_ postback: Postback) -> Int64 {
        postback.developerMode ? 0 : sourceAppID
    }

    /// The publishing app is named in the tier-3 first postback of the winning network only.
    public static func carriesSourceApp(_ postback: Postback) -> Bool {
        postback.tier == 3 && postback.index == 0 && postback.didWin
    }
}
