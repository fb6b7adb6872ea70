import SKANDomain

/// What Apple would send the ad network for one device as of `now`: SKAN 4's three postbacks at
/// each crowd-anonymity tier asked for, SKAN 3's one, and what each value means in the model. The
/// one place the postbacks route and the report (`GET /__admin/report`, `skan-mock report`) get
/// them from, so the two never disagree.
public struct DevicePostbacks: Sendable {
    public struct Tier: Sendable {
        public var tier: Int
        public var postbacks: [PostbackSimulator.Postback]
        public var meanings: [PostbackMeaning.Meaning?]
    }

    public var device: String
    public var now: Int64
    /// The model the values were read with; nil when none was given (no meanings, no findings).
    public var modelName: String?
    public var tiers: [Tier]
    public var skan3: PostbackSimulator.Postback?
    /// What was asked for besides the tiers: the framework, a non-winning network, Developer Mode, digits.
    public var options: PostbackQuery
    /// How AdAttributionKit's JWS is signed, or why it is not.
    public var signing: PostbackSigning
    /// What they were made from, to show them again with other options.
    private let state: DeviceState
    private let developerWindows: WindowedDeviceState?
    private let model: ConversionModel?

    /// `developerWindows`: the device's windows as Developer Mode files its answers
    /// (`DeveloperModeWindows`, from the journal), read when `options.developerMode` is on.
    public init(
        device: String, state: DeviceState, model: ConversionModel?, now: Int64, tiers: [Int] = [0, 1, 2, 3],
        options: PostbackQuery = PostbackQuery(),
        signing: PostbackSigning = PostbackSigning(unsigned: "no signer was given"),
        developerWindows: WindowedDeviceState? = nil
    ) {
        self.device = device
        self.now = now
        self.state = state
        self.developerWindows = developerWindows
        self.model = model
        self.options = options
        self.signing = signing
        modelName = model?.name
        let windows = options.developerMode ? developerWindows ?? state.skan4 : state.skan4
        self.tiers = tiers.map { tier in
            let postbacks = PostbackSimulator.skan4(windows, tier: tier, now: now, options: options)
            return Tier(
                tier: tier, postbacks: postbacks,
                meanings: postbacks.map { p in model.flatMap { PostbackMeaning.skan4(p, model: $0) } })
        }
        // SKAN 3 has one postback: shown at the richest tier asked for.
        skan3 = PostbackSimulator.skan3(state.skan3, now: now, tier: tiers.last ?? 3, options: options)
    }

    /// The same device's postbacks with other options (`skan-mock report --framework aak`), at the
    /// options' tiers (all four, or Developer Mode's tier 3).
    public func rendered(_ options: PostbackQuery) -> DevicePostbacks {
        DevicePostbacks(
            device: device, state: state, model: model, now: now, tiers: options.tiers, options: options,
            signing: signing, developerWindows: developerWindows)
    }

    /// A postback that carries a value no model entry gives (the app set a value of its own), once
    /// per window: the richest tier asked for says it.
    public var findings: [ValidationFinding] {
        guard let richest = tiers.last else { return [] }
        return richest.meanings.compactMap { $0?.finding }
    }

    /// The postbacks route's answer.
    public var json: JSONValue {
        let skan4: [JSONValue] = tiers.map { tier in
            let postbacks = zip(tier.postbacks, tier.meanings).map { postback, meaning in
                json(postback, window: "p\(postback.index)", meaning: meaning)
            }
            return .object([JSONMember("tier", .int(Int64(tier.tier))), JSONMember("postbacks", .array(postbacks))])
        }
        return .object([
            JSONMember("device", .string(device)), JSONMember("now", .string(RFC3339.format(milliseconds: now))),
            JSONMember("model", modelName.map { .string($0) } ?? .null),
            JSONMember("framework", .string(options.framework.rawValue)), JSONMember("did_win", .bool(options.didWin)),
            JSONMember("developer_mode", .bool(options.developerMode)), JSONMember("skan4", .array(skan4)),
            JSONMember("skan3", skan3.map { json($0, window: nil, meaning: nil) } ?? .null)
        ])
    }

    /// One line per postback for people: `p0 sent between ... and ...: fine 10 (tiers 2-3), coarse medium (tier 1)`.
    public var lines: [String] {
        var out: [String] = []
        for n in 0..<3 {
            guard let richest = tiers.last?.postbacks[n] else { break }
            var line = "p\(n) " + Self.statusText(richest)
            if richest.status != .neverSent {
                var carried: [String] = []
                for tier in tiers {
                    let p = tier.postbacks[n]
                    let value =
                        p.status == .neverSent
                        ? "not sent"
                        : p.fine.map { "fine \($0)" } ?? p.coarse.map { "coarse \(CoarseValue.name($0))" } ?? "no value"
                    carried.append("tier \(tier.tier) \(value)")
                }
                line += ": " + carried.joined(separator: ", ")
            }
            out.append(line)
        }
        if let skan3 {
            out.append(
                "skan3 " + Self.statusText(skan3)
                    + (skan3.status == .neverSent ? "" : ": value \(skan3.fine.map(String.init) ?? "-")"))
        }
        return out
    }

    static func statusText(_ p: PostbackSimulator.Postback) -> String {
        func time(_ seconds: Int64) -> String { RFC3339.format(seconds: seconds) }
        switch p.status {
        case .pending: return "pending (window open until \(p.windowEnd.map(time) ?? "?"))"
        case .neverSent: return "never sent (\(p.reason ?? "no value"))"
        case .sentBy, .locked:
            let by = p.sendInterval.map { "sent between \(time($0.lowerBound)) and \(time($0.upperBound))" } ?? "sent"
            return p.status == .locked ? "locked, \(by)" : by
        }
    }

    func json(_ postback: PostbackSimulator.Postback, window: String?, meaning: PostbackMeaning.Meaning?) -> JSONValue {
        func time(_ seconds: Int64?) -> JSONValue {
            seconds.map { .string(RFC3339.format(seconds: $0)) } ?? .null
        }
        var members: [JSONMember] = [JSONMember("index", .int(Int64(postback.index)))]
        if let window { members.append(JSONMember("window", .string(window))) }
        members += [
            JSONMember("status", .string(postback.status.rawValue)),
            JSONMember("window_start", time(postback.windowStart)), JSONMember("window_end", time(postback.windowEnd)),
            JSONMember("send_earliest", time(postback.sendInterval?.lowerBound)),
            JSONMember("send_latest", time(postback.sendInterval?.upperBound)),
            JSONMember("fine", postback.fine.map { .int($0) } ?? .null),
            JSONMember("coarse", postback.coarse.map { .int($0) } ?? .null),
            JSONMember("reason", postback.reason.map { .string($0) } ?? .null)
        ]
        if let source = postback.valueSource { members.append(JSONMember("value_source", .string(source.rawValue))) }
        if let meaning {
            members.append(JSONMember("meaning", .array(meaning.entries)))
            members.append(JSONMember("findings", .array(meaning.finding.map { [$0.json] } ?? [])))
        }
        members += apple(postback, skan3: window == nil)
        return .object(members)
    }

    /// `apple` (the body Apple would POST, null when it sends none) and its signature (`jws` or
    /// `signature`).
    private func apple(_ postback: PostbackSimulator.Postback, skan3: Bool) -> [JSONMember] {
        guard postback.status != .neverSent else { return [JSONMember("apple", .null)] }
        if !skan3 && options.framework == .aak {
            let (apple, jws) = AdAttributionKitPostback.render(postback, device: device, signer: signing)
            return [JSONMember("apple", apple), JSONMember("jws", jws)]
        }
        let unsigned =
            skan3
            ? PostbackSimulator.skan3AppleJSON(postback, device: device)
            : PostbackSimulator.appleJSON(postback, device: device)
        let (apple, signature) = SKAdNetworkSignature.sign(unsigned, signer: signing)
        return [JSONMember("apple", apple), JSONMember("signature", signature)]
    }

    /// The bodies Apple would POST, window by window (`p0`...`p2`, then `skan3` for SKAdNetwork), at
    /// the first tier asked for: every postback but the `never_sent` ones, pending ones too, as
    /// StoreKitTest's `flushPostbacks` sends them. What the postback sender sends.
    public var appleBodies: [(window: String, body: JSONValue)] {
        var bodies: [(window: String, body: JSONValue)] = []
        for postback in tiers.first?.postbacks ?? [] {
            if let body = apple(postback, skan3: false).first?.value, !body.isNull {
                bodies.append(("p\(postback.index)", body))
            }
        }
        if options.framework == .skan, let skan3, let body = apple(skan3, skan3: true).first?.value, !body.isNull {
            bodies.append(("skan3", body))
        }
        return bodies
    }
}
