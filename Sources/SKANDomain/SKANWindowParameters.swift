/// One measurement window's metadata as the SKAN 4 snippet keeps it (`pN_*`).
public struct SKANWindowParameters: Sendable, Equatable {
    public var coarse: Int64?
    public var prevCoarse: Int64?
    public var windowLock: Int64?
    public var iapRevenue: Revenue?
    public var admonRevenue: Revenue?

    // The names come from the one table (SKANParameterName), spelled out there.
    private static let allNames: [[String]] = (0..<3).map { n in
        typealias Name = SKANParameterName
        return [Name.coarse[n], Name.prevCoarse[n], Name.windowLock[n], Name.windowIAPRevenue[n], Name.windowAdmonRevenue[n]]
    }

    public static func coarseName(_ n: Int) -> String { SKANParameterName.coarse[n] }
    public static func prevCoarseName(_ n: Int) -> String { SKANParameterName.prevCoarse[n] }
    public static func windowLockName(_ n: Int) -> String { SKANParameterName.windowLock[n] }
    public static func iapRevenueName(_ n: Int) -> String { SKANParameterName.windowIAPRevenue[n] }
    public static func admonRevenueName(_ n: Int) -> String { SKANParameterName.windowAdmonRevenue[n] }
    public static func names(_ n: Int) -> [String] { allNames[n] }

    var json: JSONValue? {
        var members: [JSONMember] = []
        if let v = coarse { members.append(JSONMember("coarse", .int(v))) }
        if let v = prevCoarse { members.append(JSONMember("prev_coarse", .int(v))) }
        if let v = windowLock { members.append(JSONMember("window_lock", .int(v))) }
        if let v = iapRevenue { members.append(JSONMember("iap_revenue", v.json)) }
        if let v = admonRevenue { members.append(JSONMember("admon_revenue", v.json)) }
        return members.isEmpty ? nil : .object(members)
    }
}
