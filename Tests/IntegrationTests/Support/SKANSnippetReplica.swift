import SKANDomain

/// The SKAN 4 client of seed 001 (`SKANSnippet.m`), replayed line for line in Swift: what it keeps
/// in NSUserDefaults, which query it sends, and how it applies an answer. The server's first user
/// is this code, so the end-to-end tests drive the server exactly as it would.
final class SKANSnippetReplica {
    static let firstWindow: Int64 = 3600 * 24 * 2
    static let secondWindow: Int64 = 3600 * 24 * 7
    static let thirdWindow: Int64 = 3600 * 24 * 35

    let idfv: String
    let mock: TestSKANMock
    let http = CurlClient()

    // NSUserDefaults
    var fine: Int64?
    var prevFine: Int64?
    var coarse: [Int64?] = [nil, nil, nil]
    var prevCoarse: [Int64?] = [nil, nil, nil]
    var windowLock: [Int64?] = [nil, nil, nil]
    var totalRevenue: [String: Double]?
    var totalAdmonRevenue: [String: Double]?
    var windowRevenue: [[String: Double]?] = [nil, nil, nil]
    var windowAdmonRevenue: [[String: Double]?] = [nil, nil, nil]
    var firstCall: Int64?
    var lastCall: Int64?

    /// What the completion handler last received: (fine, coarse, lock) or an error text.
    var lastResult: (fine: Int64?, coarse: Int64?, lock: Bool, error: String?)?

    init(idfv: String, mock: TestSKANMock) {
        self.idfv = idfv
        self.mock = mock
    }

    var now: Int64 { mock.clock.nowSeconds() }

    /// `registerAppForAdNetworkAttribution`
    func register() {
        guard firstCall == nil else { return }
        firstCall = now
        lastCall = now
        valuesHaveBeenUpdated(fine: 0, coarse: nil, lock: false)
    }

    /// `updateConversionValuesAsync:` (a session when `event` is `__SESSION__`).
    func update(_ event: String = "__SESSION__") throws {
        guard !isWindowOver else { return }
        let response = try mock.get("/api/v2/conversion_value", query(event), using: http)
        guard let parsed = try? JSONParser.parse(response.body), parsed.objectValue != nil else {
            lastResult = (nil, nil, false, "Failed parsing server response")
            return
        }
        guard let value = parsed["conversion_value"]?.intValue else {
            if parsed["status"]?.stringValue != "ok" {
                lastResult = (nil, nil, false, parsed["reason"]?.stringValue ?? "Got error from server")
            } else {
                lastResult = nil
            }
            return
        }
        let coarseValue = parsed["skan_updated_coarse_value"]?.intValue
        let lock = parsed["skan_updated_lock_window_value"]?.boolValue ?? false
        guard (0...63).contains(value) else {
            lastResult = (nil, nil, false, "Illegal values recieved")
            return
        }
        if firstCall == nil { firstCall = now }
        valuesHaveBeenUpdated(fine: value, coarse: coarseValue, lock: lock)
        lastResult = (value, coarseValue, lock, nil)
    }

    /// `updateRevenue:andCurrency:isAdMonetization:`
    func addRevenue(_ amount: Double, _ currency: String, admon: Bool = false) {
        guard amount != 0 else { return }
        if admon {
            totalAdmonRevenue = add(amount, currency, to: totalAdmonRevenue)
        } else {
            totalRevenue = add(amount, currency, to: totalRevenue)
        }
        guard let window = currentWindow else { return }
        if admon {
            windowAdmonRevenue[window] = add(amount, currency, to: windowAdmonRevenue[window])
        } else {
            windowRevenue[window] = add(amount, currency, to: windowRevenue[window])
        }
    }

    /// `getSkanDetails`: only the keys that have a value.
    func skanDetails() -> [(String, String)] {
        var details: [(String, String)] = []
        func put(_ key: String, _ value: Int64?) { if let value { details.append((key, String(value))) } }
        func put(_ key: String, _ value: [String: Double]?) { if let value { details.append((key, json(value))) } }
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

    /// `prepareQueryParams:eventName:`
    func query(_ event: String) -> [(String, String)] {
        [
            ("a", "API_KEY"), ("v", "17.4"), ("i", "com.example.app"), ("app_v", "1.0"), ("n", event), ("p", "iOS"),
            ("idfv", idfv), ("idfa", "IDFA")
        ] + skanDetails()
    }

    var currentWindow: Int? {
        let elapsed = now - (firstCall ?? 0)
        if elapsed < Self.firstWindow { return 0 }
        if elapsed < Self.secondWindow { return 1 }
        if elapsed < Self.thirdWindow { return 2 }
        return nil
    }

    private var isWindowOver: Bool { Self.thirdWindow <= now - (firstCall ?? 0) }

    /// `valuesHasBeenUpdated:coarseValue:lockWindow:`
    private func valuesHaveBeenUpdated(fine value: Int64, coarse coarseValue: Int64?, lock: Bool) {
        switch currentWindow {
        case 0?:
            prevFine = fine
            fine = value
            prevCoarse[0] = coarse[0]
            coarse[0] = coarseValue
            if lock { windowLock[0] = now }
        case let window?:
            prevCoarse[window] = coarse[window]
            coarse[window] = coarseValue
            if lock { windowLock[window] = now }
        case nil:
            break
        }
        lastCall = now
    }

    private func add(_ amount: Double, _ currency: String, to totals: [String: Double]?) -> [String: Double] {
        var totals = totals ?? [:]
        totals[currency, default: 0] += amount
        return totals
    }

    private func json(_ totals: [String: Double]) -> String {
        "{" + totals.keys.sorted().map { "\"\($0)\":\(totals[$0]!)" }.joined(separator: ",") + "}"
    }
}
