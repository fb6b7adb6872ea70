/// The SKAN 4 metadata sent to `/api/v2/conversion_value` (and forwarded to the S2S endpoints), typed.
/// The parameter names actually used are kept so that findings name what the client sent.
public struct SKAN4Parameters: Sendable, Equatable {
    public var currentFine: Int64?
    public var prevFine: Int64?
    public var firstCall: Int64?
    public var lastCall: Int64?
    public var totalRevenue: Revenue?
    public var totalAdmonRevenue: Revenue?
    public var windows: [SKANWindowParameters] = Array(repeating: SKANWindowParameters(), count: 3)

    public var currentFineName = SKANParameterName.currentFine
    public var firstCallName = SKANParameterName.firstCall
    public var lastCallName = SKANParameterName.lastCall
    public static let prevFineName = SKANParameterName.prevFine
    public static let totalRevenueName = SKANParameterName.totalRevenue
    public static let totalAdmonRevenueName = SKANParameterName.totalAdmonRevenue

    public init() {}

    /// Parses the SKAN 4 names; with `acceptSKAN3Names` (the S2S endpoints) `skan_conversion_value`,
    /// `skan_first_call_timestamp` and `skan_last_call_timestamp` stand in when the SKAN 4 name is absent.
    public static func parse(_ reader: inout ParameterReader, acceptSKAN3Names: Bool = false) -> SKAN4Parameters {
        var p = SKAN4Parameters()
        if acceptSKAN3Names {
            if reader.string(p.currentFineName) == nil, reader.string(SKANParameterName.s2sConversionValue) != nil {
                p.currentFineName = SKANParameterName.s2sConversionValue
            }
            if reader.string(p.firstCallName) == nil, reader.string(SKANParameterName.s2sFirstCall) != nil {
                p.firstCallName = SKANParameterName.s2sFirstCall
            }
            if reader.string(p.lastCallName) == nil, reader.string(SKANParameterName.s2sLastCall) != nil {
                p.lastCallName = SKANParameterName.s2sLastCall
            }
        }
        p.currentFine = reader.fine(p.currentFineName)
        p.prevFine = reader.fine(prevFineName)
        p.firstCall = reader.timestamp(p.firstCallName)
        p.lastCall = reader.timestamp(p.lastCallName)
        p.totalRevenue = reader.revenue(totalRevenueName)
        p.totalAdmonRevenue = reader.revenue(totalAdmonRevenueName)
        for n in 0..<3 {
            var w = SKANWindowParameters()
            w.coarse = reader.coarse(SKANWindowParameters.coarseName(n))
            w.prevCoarse = reader.coarse(SKANWindowParameters.prevCoarseName(n))
            w.windowLock = reader.timestamp(SKANWindowParameters.windowLockName(n))
            w.iapRevenue = reader.revenue(SKANWindowParameters.iapRevenueName(n))
            w.admonRevenue = reader.revenue(SKANWindowParameters.admonRevenueName(n))
            p.windows[n] = w
        }
        return p
    }

    /// Findings that need more than one parameter, or the window the server computed.
    public func checkConsistency(window: SKANWindow?, reader: inout ParameterReader) {
        if let first = firstCall, let last = lastCall, last < first {
            reader.add(lastCallName, .lastCallBeforeFirstCall, "\(lastCallName) \(last) is before \(firstCallName) \(first)")
        }
        let now = floorDivide(reader.nowMilliseconds, 1000)
        for n in 0..<3 {
            let measured = SKANWindow.measurement(n)
            if let current = window, let currentIndex = current.index, n > currentIndex {
                let elapsed = firstCall.map { " (first call \(describeDuration(saturatingSubtract(now, $0))) ago)" } ?? ""
                for name in SKANWindowParameters.names(n) where reader.parameters[name] != nil {
                    reader.add(name, .windowNotBegun,
                               "\(name) was sent but the device is still in \(current.rawValue)\(elapsed); p\(n) begins \(describeDuration(measured.bounds.start)) after the first call")
                }
                continue
            }
            let w = windows[n]
            if let lock = w.windowLock, let first = firstCall {
                let offset = saturatingSubtract(lock, first)
                let (start, end) = measured.bounds
                if offset < start || offset >= end {
                    let name = SKANWindowParameters.windowLockName(n)
                    let when = offset < 0 ? "\(describeDuration(offset)) before" : "\(describeDuration(offset)) after"
                    reader.add(name, .windowLockOutsideWindow,
                               "\(name) \(lock) is \(when) the first call, outside p\(n) (\(describeDuration(start)) to \(describeDuration(end)) after it)")
                }
            }
            checkWithinTotal(w.iapRevenue, SKANWindowParameters.iapRevenueName(n), totalRevenue, SKAN4Parameters.totalRevenueName, &reader)
            checkWithinTotal(w.admonRevenue, SKANWindowParameters.admonRevenueName(n), totalAdmonRevenue, SKAN4Parameters.totalAdmonRevenueName, &reader)
        }
    }

    private func checkWithinTotal(_ part: Revenue?, _ partName: String, _ total: Revenue?, _ totalName: String,
                                  _ reader: inout ParameterReader) {
        guard let part else { return }
        for a in part.amounts {
            let t = total?.amount(in: a.currency) ?? 0
            // Clients add in Float precision; allow for its rounding before calling it an error.
            if a.amount > t + max(1e-6, t * 1e-5) {
                let has = total == nil ? "is absent" : "has only \(a.currency) \(JSONValue.double(t))"
                reader.add(partName, .windowRevenueExceedsTotal,
                           "\(partName) has \(a.currency) \(a.json) but \(totalName) \(has); a window's revenue is part of the total")
            }
        }
    }

    /// The journal's `skan` object: typed values grouped by window.
    public var json: JSONValue {
        var members: [JSONMember] = []
        if let v = currentFine { members.append(JSONMember("current_fine", .int(v))) }
        if let v = prevFine { members.append(JSONMember("prev_fine", .int(v))) }
        if let v = firstCall { members.append(JSONMember("first_call", .int(v))) }
        if let v = lastCall { members.append(JSONMember("last_call", .int(v))) }
        if let v = totalRevenue { members.append(JSONMember("total_revenue", v.json)) }
        if let v = totalAdmonRevenue { members.append(JSONMember("total_admon_revenue", v.json)) }
        var windowMembers: [JSONMember] = []
        for n in 0..<3 { if let w = windows[n].json { windowMembers.append(JSONMember(SKANWindow.measurement(n).rawValue, w)) } }
        if !windowMembers.isEmpty { members.append(JSONMember("windows", .object(windowMembers))) }
        return .object(members)
    }
}
