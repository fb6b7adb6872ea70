/// What a recorded answer is looked up by in `--replay`: the endpoint and the request's SKAN state,
/// the parameters that decide an answer, taken from the typed request (so `p0_coarse=1` and
/// `p0_coarse=01`, or revenue keys in another order, are the same state). Timestamps are left out:
/// a replayed run happens later than the recorded one, and its clients send their own first-call
/// times. What they decide is kept instead: the window the request falls in.
///
/// The JSON form (a replay file's `state`), members written only when sent:
/// - `event`: `n`; `__SESSION__` for a launch, as the journal says.
/// - `window`: `p0`, `p1`, `p2` or `over`, from the first-call timestamp and the server's clock
///   (SKAN 4 and the S2S endpoints).
/// - `current_fine` (SKAN 4, S2S) or `conversion_value` (SKAN 3): the value the client sent.
/// - `total_revenue`, `total_admon_revenue`: `{"USD":1.5}`, amounts summed per currency.
/// - `windows`: `{"p0":{"coarse":1,"locked":true,"iap_revenue":{...},"admon_revenue":{...}}}`,
///   `locked` when `pN_window_lock` was sent (its time is not compared).
public struct ReplayKey: Hashable, Sendable, CustomStringConvertible {
    /// One window's `pN_*` values.
    public struct Window: Hashable, Sendable {
        public var coarse: Int64?
        public var locked = false
        public var iapRevenue: [String: Double]?
        public var admonRevenue: [String: Double]?

        public init(
            coarse: Int64? = nil, locked: Bool = false, iapRevenue: [String: Double]? = nil,
            admonRevenue: [String: Double]? = nil
        ) {
            self.coarse = coarse
            self.locked = locked
            self.iapRevenue = iapRevenue
            self.admonRevenue = admonRevenue
        }

        var isEmpty: Bool { self == Window() }
    }

    public var endpoint: SKANEndpoint
    public var event: String?
    public var window: SKANWindow?
    /// `current_fine` for SKAN 4 and S2S, `conversion_value` for SKAN 3.
    public var value: Int64?
    public var totalRevenue: [String: Double]?
    public var totalAdmonRevenue: [String: Double]?
    /// p0, p1, p2; empty windows for SKAN 3.
    public var windows: [Window] = [Window(), Window(), Window()]

    public init(
        endpoint: SKANEndpoint, event: String? = nil, window: SKANWindow? = nil, value: Int64? = nil,
        totalRevenue: [String: Double]? = nil, totalAdmonRevenue: [String: Double]? = nil,
        windows: [Window] = [Window(), Window(), Window()]
    ) {
        self.endpoint = endpoint
        self.event = event
        self.window = window
        self.value = value
        self.totalRevenue = totalRevenue
        self.totalAdmonRevenue = totalAdmonRevenue
        self.windows = windows
    }

    /// The key of a request to `endpoint` judged at `nowMilliseconds` (the window depends on it).
    public init(endpoint: SKANEndpoint, parameters: RequestParameters, nowMilliseconds: Int64) {
        self.init(
            ParsedSKANRequest(
                endpoint, SKANRequest(path: endpoint.path, parameters: parameters), nowMilliseconds: nowMilliseconds))
    }

    /// The key of a request read already (the server reads it once, then answers it).
    public init(_ parsed: ParsedSKANRequest) {
        endpoint = parsed.endpoint
        event = parsed.event
        switch parsed.family {
        case .skan3(let p):
            value = p.conversionValue
            totalRevenue = Self.amounts(p.totalRevenue)
        case .skan4(let p, let decision), .s2s(let p, let decision, _):
            window = decision.window
            value = p.currentFine
            totalRevenue = Self.amounts(p.totalRevenue)
            totalAdmonRevenue = Self.amounts(p.totalAdmonRevenue)
            let parameters = parsed.request.parameters
            windows = (0..<3).map { n in
                let w = p.windows[n]
                return Window(
                    coarse: w.coarse,
                    locked: w.windowLock != nil || parameters.contains(SKANWindowParameters.windowLockName(n)),
                    iapRevenue: Self.amounts(w.iapRevenue), admonRevenue: Self.amounts(w.admonRevenue))
            }
        }
    }

    /// Revenue as amounts per currency (two entries of one currency add up, as the model adds them).
    static func amounts(_ revenue: Revenue?) -> [String: Double]? {
        guard let revenue else { return nil }
        var amounts: [String: Double] = [:]
        for a in revenue.amounts { amounts[a.currency, default: 0] += a.amount }
        return amounts
    }

    /// The state's JSON, as a replay file holds it (members in a fixed order, currencies sorted).
    public var stateJSON: JSONValue {
        var members: [JSONMember] = []
        if let event { members.append(JSONMember("event", .string(event))) }
        if let window { members.append(JSONMember("window", .string(window.rawValue))) }
        if let value {
            members.append(JSONMember(endpoint == .skan3 ? "conversion_value" : "current_fine", .int(value)))
        }
        if let totalRevenue { members.append(JSONMember("total_revenue", Self.json(totalRevenue))) }
        if let totalAdmonRevenue { members.append(JSONMember("total_admon_revenue", Self.json(totalAdmonRevenue))) }
        let sent = (0..<3).filter { !windows[$0].isEmpty }
        if !sent.isEmpty {
            members.append(
                JSONMember(
                    "windows",
                    .object(
                        sent.map { n in
                            let w = windows[n]
                            var fields: [JSONMember] = []
                            if let coarse = w.coarse { fields.append(JSONMember("coarse", .int(coarse))) }
                            if w.locked { fields.append(JSONMember("locked", .bool(true))) }
                            if let iap = w.iapRevenue { fields.append(JSONMember("iap_revenue", Self.json(iap))) }
                            if let admon = w.admonRevenue {
                                fields.append(JSONMember("admon_revenue", Self.json(admon)))
                            }
                            return JSONMember(SKANWindow.measurement(n).rawValue, .object(fields))
                        })))
        }
        return .object(members)
    }

    static func json(_ amounts: [String: Double]) -> JSONValue {
        .object(
            amounts.sorted { $0.key < $1.key }.map { pair in
                JSONMember(
                    pair.key,
                    pair.value.rounded() == pair.value && abs(pair.value) < 9.0e15
                        ? .int(Int64(pair.value)) : .double(pair.value))
            })
    }

    /// `endpoint state` in one line, for messages.
    public var description: String { "\(endpoint.rawValue) \(stateJSON)" }
}
