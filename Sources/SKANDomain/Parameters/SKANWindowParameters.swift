/// One measurement window's metadata as the SKAN 4 snippet keeps it (`pN_*`).
public struct SKANWindowParameters: Sendable, Equatable {
    public var coarse: Int64?
    public var prevCoarse: Int64?
    public var windowLock: Int64?
    public var iapRevenue: Revenue?
    public var admonRevenue: Revenue?

    // The names come from the one table (SKANParameter), spelled out there.
    private static let allNames: [[SKANParameter]] = (0..<3).map { n in
        [
            SKANParameter.coarse[n], SKANParameter.prevCoarse[n], SKANParameter.windowLock[n],
            SKANParameter.windowIAPRevenue[n], SKANParameter.windowAdmonRevenue[n]
        ]
    }

    public static func coarseName(_ n: Int) -> SKANParameter { SKANParameter.coarse[n] }
    public static func prevCoarseName(_ n: Int) -> SKANParameter { SKANParameter.prevCoarse[n] }
    public static func windowLockName(_ n: Int) -> SKANParameter { SKANParameter.windowLock[n] }
    public static func iapRevenueName(_ n: Int) -> SKANParameter { SKANParameter.windowIAPRevenue[n] }
    public static func admonRevenueName(_ n: Int) -> SKANParameter { SKANParameter.windowAdmonRevenue[n] }
    public static func names(_ n: Int) -> [SKANParameter] { allNames[n] }

    var isEmpty: Bool {
        coarse == nil && prevCoarse == nil && windowLock == nil && iapRevenue == nil && admonRevenue == nil
    }

    /// The window's object in the journal's `skan.windows`; call only when not `isEmpty`.
    func write(to w: inout JSONWriter) {
        var members = JSONObjectWriter()
        if let v = coarse {
            members.next(&w, "coarse")
            w.write(v)
        }
        if let v = prevCoarse {
            members.next(&w, "prev_coarse")
            w.write(v)
        }
        if let v = windowLock {
            members.next(&w, "window_lock")
            w.write(v)
        }
        if let v = iapRevenue {
            members.next(&w, "iap_revenue")
            v.write(to: &w)
        }
        if let v = admonRevenue {
            members.next(&w, "admon_revenue")
            v.write(to: &w)
        }
        members.end(&w)
    }
}
