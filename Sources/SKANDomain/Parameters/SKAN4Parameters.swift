/// The SKAN 4 metadata sent to `/api/v2/conversion_value` (and forwarded to the S2S endpoints), typed.
/// The parameter names actually used are kept so that findings name what the client sent.
public struct SKAN4Parameters: Sendable, Equatable {
    public var currentFine: Int64?
    public var prevFine: Int64?
    public var firstCall: Int64?
    public var lastCall: Int64?
    public var totalRevenue: Revenue?
    public var totalAdmonRevenue: Revenue?
    public var windows = Windows()

    /// p0, p1 and p2 inline, indexed by N: no array to allocate per request.
    public struct Windows: Sendable, Equatable {
        private var p0 = SKANWindowParameters()
        private var p1 = SKANWindowParameters()
        private var p2 = SKANWindowParameters()

        public subscript(n: Int) -> SKANWindowParameters {
            get {
                switch n {
                case 0: p0
                case 1: p1
                default: p2
                }
            }
            set {
                switch n {
                case 0: p0 = newValue
                case 1: p1 = newValue
                default: p2 = newValue
                }
            }
        }
    }

    public var currentFineName = SKANParameter.currentFine
    public var firstCallName = SKANParameter.firstCall
    public var lastCallName = SKANParameter.lastCall
    public static let prevFineName = SKANParameter.prevFine
    public static let totalRevenueName = SKANParameter.totalRevenue
    public static let totalAdmonRevenueName = SKANParameter.totalAdmonRevenue

    public init() {}

    /// Parses the SKAN 4 names; with `acceptSKAN3Names` (the S2S endpoints) `skan_conversion_value`,
    /// `skan_first_call_timestamp` and `skan_last_call_timestamp` stand in when the SKAN 4 name is absent.
    public static func parse(_ reader: inout ParameterReader, acceptSKAN3Names: Bool = false) -> SKAN4Parameters {
        var p = SKAN4Parameters()
        if acceptSKAN3Names {
            if !reader.has(p.currentFineName), reader.has(.s2sConversionValue) {
                p.currentFineName = .s2sConversionValue
            }
            if !reader.has(p.firstCallName), reader.has(.s2sFirstCall) {
                p.firstCallName = .s2sFirstCall
            }
            if !reader.has(p.lastCallName), reader.has(.s2sLastCall) {
                p.lastCallName = .s2sLastCall
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
            reader.add(
                lastCallName, .lastCallBeforeFirstCall,
                "\(lastCallName.name) \(last) is before \(firstCallName.name) \(first)")
        }
        let now = floorDivide(reader.nowMilliseconds, 1000)
        for n in 0..<3 {
            let measured = SKANWindow.measurement(n)
            if let current = window, let currentIndex = current.index, n > currentIndex {
                // Built only for a parameter that was sent: the usual request has none, and
                // building it anyway cost four allocations a request.
                for parameter in SKANWindowParameters.names(n) where reader.has(parameter) {
                    let elapsed =
                        firstCall.map { " (first call \(describeDuration(saturatingSubtract(now, $0))) ago)" } ?? ""
                    let name = parameter.name
                    reader.add(
                        name, .windowNotBegun,
                        "\(name) was sent but the device is still in \(current.rawValue)\(elapsed); p\(n) begins \(describeDuration(measured.bounds.start)) after the first call"
                    )
                }
                continue
            }
            let w = windows[n]
            if let lock = w.windowLock, let first = firstCall {
                let offset = saturatingSubtract(lock, first)
                let (start, end) = measured.bounds
                if offset < start || offset >= end {
                    let name = SKANWindowParameters.windowLockName(n).name
                    let when = offset < 0 ? "\(describeDuration(offset)) before" : "\(describeDuration(offset)) after"
                    reader.add(
                        name, .windowLockOutsideWindow,
                        "\(name) \(lock) is \(when) the first call, outside p\(n) (\(describeDuration(start)) to \(describeDuration(end)) after it)"
                    )
                }
            }
            checkWithinTotal(
                w.iapRevenue, SKANWindowParameters.iapRevenueName(n), totalRevenue, SKAN4Parameters.totalRevenueName,
                &reader)
            checkWithinTotal(
                w.admonRevenue, SKANWindowParameters.admonRevenueName(n), totalAdmonRevenue,
                SKAN4Parameters.totalAdmonRevenueName, &reader)
        }
    }

    private func checkWithinTotal(
        _ part: Revenue?, _ partParameter: SKANParameter, _ total: Revenue?,
        _ totalParameter: SKANParameter, _ reader: inout ParameterReader
    ) {
        guard let part else { return }
        let partName = partParameter.name
        let totalName = totalParameter.name
        for a in part.amounts {
            let t = total?.amount(in: a.currency) ?? 0
            // Clients add in Float precision; allow for its rounding before calling it an error.
            if a.amount > t + max(1e-6, t * 1e-5) {
                let has = total == nil ? "is absent" : "has only \(a.currency) \(JSONValue.double(t))"
                reader.add(
                    partName, .windowRevenueExceedsTotal,
                    "\(partName) has \(a.currency) \(a.json) but \(totalName) \(has); a window's revenue is part of the total"
                )
            }
        }
    }

    /// The journal's `skan` object: typed values grouped by window.
    public var json: JSONValue { JSONWriter.parsedBack { write(to: &$0) } }

    func write(to w: inout JSONWriter) {
        var members = JSONObjectWriter()
        if let v = currentFine {
            members.next(&w, "current_fine")
            w.write(v)
        }
        if let v = prevFine {
            members.next(&w, "prev_fine")
            w.write(v)
        }
        if let v = firstCall {
            members.next(&w, "first_call")
            w.write(v)
        }
        if let v = lastCall {
            members.next(&w, "last_call")
            w.write(v)
        }
        if let v = totalRevenue {
            members.next(&w, "total_revenue")
            v.write(to: &w)
        }
        if let v = totalAdmonRevenue {
            members.next(&w, "total_admon_revenue")
            v.write(to: &w)
        }
        if (0..<3).contains(where: { !windows[$0].isEmpty }) {
            members.next(&w, "windows")
            var byWindow = JSONObjectWriter()
            for n in 0..<3 where !windows[n].isEmpty {
                byWindow.next(&w, name: SKANWindow.measurement(n).rawValue)
                windows[n].write(to: &w)
            }
            byWindow.end(&w)
        }
        members.end(&w)
    }
}
