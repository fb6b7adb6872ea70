import SKANDomain

/// What `SKANSnippet.m` (seed 001) keeps in NSUserDefaults, and the snippet's own rules for changing
/// it: `registerAppForAdNetworkAttribution`, `valuesHasBeenUpdated`, `addToTotalRevenue`,
/// `getCurrentSkanWindow`, `isSkanWindowOver` and `getSkanDetails`. A nil is a key never set, which
/// `getSkanDetails` leaves out of the query.
public struct SimulatedDevice: Sendable, Equatable {
    public var fine: Int64?
    public var prevFine: Int64?
    public var coarse: [Int64?] = [nil, nil, nil]
    public var prevCoarse: [Int64?] = [nil, nil, nil]
    public var windowLock: [Int64?] = [nil, nil, nil]
    public var totalRevenue: [String: Double]?
    public var totalAdmonRevenue: [String: Double]?
    public var windowRevenue: [[String: Double]?] = [nil, nil, nil]
    public var windowAdmonRevenue: [[String: Double]?] = [nil, nil, nil]
    public var firstCall: Int64?
    public var lastCall: Int64?

    public init() {}

    /// `getCurrentSkanWindow`: 0, 1, 2, or nil (the snippet's -1). An unset first call reads as 0,
    /// as `integerForKey:` does, so an unregistered device counts as decades old.
    public func window(at now: Int64) -> Int? {
        let elapsed = now - (firstCall ?? 0)
        if elapsed < SKANWindow.p0EndSeconds { return 0 }
        if elapsed < SKANWindow.p1EndSeconds { return 1 }
        if elapsed < SKANWindow.p2EndSeconds { return 2 }
        return nil
    }

    /// `isSkanWindowOver`: true for an unregistered device too, so it never asks the server.
    public func isWindowOver(at now: Int64) -> Bool {
        SKANWindow.p2EndSeconds <= now - (firstCall ?? 0)
    }

    /// `registerAppForAdNetworkAttribution`; false when already registered (the snippet returns).
    public mutating func register(at now: Int64) -> Bool {
        guard firstCall == nil else { return false }
        firstCall = now
        lastCall = now
        valuesHaveBeenUpdated(fine: 0, coarse: nil, lock: false, at: now)
        return true
    }

    /// `valuesHasBeenUpdated:coarseValue:lockWindow:`: the fine value (and its previous) only in p0;
    /// per window the coarse value, its previous, and the lock time; always the last-call time.
    public mutating func valuesHaveBeenUpdated(fine value: Int64, coarse coarseValue: Int64?, lock: Bool, at now: Int64)
    {
        if let window = window(at: now) {
            if window == 0 {
                prevFine = fine
                fine = value
            }
            prevCoarse[window] = coarse[window]
            coarse[window] = coarseValue
            if lock { windowLock[window] = now }
        }
        lastCall = now
    }

    /// `updateRevenue:andCurrency:isAdMonetization:` with `addToTotalRevenue`: the total always, the
    /// current window's total unless the windows are over. Returns false for an amount of 0 (ignored).
    public mutating func addRevenue(_ amount: Double, currency: String, admon: Bool, at now: Int64) -> Bool {
        guard amount != 0, !currency.isEmpty else { return false }
        if admon {
            totalAdmonRevenue = Self.add(amount, currency, to: totalAdmonRevenue)
        } else {
            totalRevenue = Self.add(amount, currency, to: totalRevenue)
        }
        guard let window = window(at: now) else { return true }
        if admon {
            windowAdmonRevenue[window] = Self.add(amount, currency, to: windowAdmonRevenue[window])
        } else {
            windowRevenue[window] = Self.add(amount, currency, to: windowRevenue[window])
        }
        return true
    }

    /// The simulated clock: moving the device `seconds` into the future is done by moving every
    /// stored timestamp that far into the past, so a server on real time sees an older device.
    public mutating func age(by seconds: Int64) {
        firstCall = firstCall.map { $0 - seconds }
        lastCall = lastCall.map { $0 - seconds }
        windowLock = windowLock.map { $0.map { $0 - seconds } }
    }

    /// `getSkanDetails`: only the keys that have a value, in the replica's fixed order.
    public func skanDetails() -> [(String, String)] {
        var details: [(String, String)] = []
        func put(_ key: String, _ value: Int64?) { if let value { details.append((key, String(value))) } }
        func put(_ key: String, _ value: [String: Double]?) {
            if let value { details.append((key, Self.json(value).description)) }
        }
        put("skan_current_conversion_value", fine)
        put("prev_fine_value", prevFine)
        for window in 0..<3 {
            put("p\(window)_coarse", coarse[window])
            put("p\(window)_prev_coarse_value", prevCoarse[window])
            put("p\(window)_window_lock", windowLock[window])
            put("p\(window)_total_iap_revenue", windowRevenue[window])
            put("p\(window)_total_admon_revenue", windowAdmonRevenue[window])
        }
        put("skan_total_revenue_by_currency", totalRevenue)
        put("skan_total_admon_revenue_by_currency", totalAdmonRevenue)
        put("skan_last_call_to_skadnetwork_timestamp", lastCall)
        put("skan_first_call_to_skadnetwork_timestamp", firstCall)
        return details
    }

    /// The whole state as JSON (absent keys as null), for `--json` and the summary.
    public var json: JSONValue {
        func int(_ value: Int64?) -> JSONValue { value.map { .int($0) } ?? .null }
        func money(_ value: [String: Double]?) -> JSONValue { value.map(Self.json) ?? .null }
        var windows: [JSONValue] = []
        for n in 0..<3 {
            windows.append(
                .object([
                    JSONMember("coarse", int(coarse[n])), JSONMember("prev_coarse", int(prevCoarse[n])),
                    JSONMember("window_lock", int(windowLock[n])),
                    JSONMember("iap_revenue", money(windowRevenue[n])),
                    JSONMember("admon_revenue", money(windowAdmonRevenue[n]))
                ]))
        }
        return .object([
            JSONMember("fine", int(fine)), JSONMember("prev_fine", int(prevFine)),
            JSONMember("p0", windows[0]), JSONMember("p1", windows[1]), JSONMember("p2", windows[2]),
            JSONMember("total_revenue", money(totalRevenue)),
            JSONMember("total_admon_revenue", money(totalAdmonRevenue)),
            JSONMember("first_call", int(firstCall)), JSONMember("last_call", int(lastCall))
        ])
    }

    /// Currencies sorted, so the query (and the journal) is the same on every run.
    static func json(_ totals: [String: Double]) -> JSONValue {
        .object(totals.keys.sorted().map { JSONMember($0, .double(totals[$0]!)) })
    }

    private static func add(_ amount: Double, _ currency: String, to totals: [String: Double]?) -> [String: Double] {
        var totals = totals ?? [:]
        totals[currency, default: 0] += amount
        return totals
    }
}
