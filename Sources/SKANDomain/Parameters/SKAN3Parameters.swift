/// What the SKAN 3 snippet sends to `/api/v1/conversion_value`, typed.
public struct SKAN3Parameters: Sendable, Equatable {
    /// Why `conversion_value` could not be used, which the SKAN 3 endpoint answers with an error.
    public enum ValueProblem: Sendable, Equatable {
        case missing
        case notAnInteger(String)
    }

    public var conversionValue: Int64?
    public var valueProblem: ValueProblem?
    public var totalRevenue: Revenue?
    public var firstCall: Int64?
    public var lastCall: Int64?

    public static let conversionValueName = SKANParameter.skan3ConversionValue
    public static let totalRevenueName = SKANParameter.skan3TotalRevenue
    public static let firstCallName = SKANParameter.skan3FirstCall
    public static let lastCallName = SKANParameter.skan3LastCall

    public static func parse(_ reader: inout ParameterReader) -> SKAN3Parameters {
        var p = SKAN3Parameters()
        if let text = reader.string(conversionValueName) {
            p.conversionValue = reader.fine(conversionValueName)
            if p.conversionValue == nil { p.valueProblem = .notAnInteger(text) }
        } else {
            p.valueProblem = .missing
            reader.add(
                conversionValueName, .missingParameter,
                "conversion_value is missing; the client must send its current conversion value (initialise it to 0)")
        }
        p.totalRevenue = reader.revenue(totalRevenueName)
        p.firstCall = reader.timestamp(firstCallName)
        p.lastCall = reader.timestamp(lastCallName)
        if let first = p.firstCall, let last = p.lastCall, last < first {
            reader.add(
                lastCallName, .lastCallBeforeFirstCall,
                "\(lastCallName.name) \(last) is before \(firstCallName.name) \(first)")
        }
        return p
    }

    /// The journal's `skan` object.
    public var json: JSONValue { JSONWriter.parsedBack { write(to: &$0) } }

    func write(to w: inout JSONWriter) {
        var members = JSONObjectWriter()
        if let v = conversionValue {
            members.next(&w, "conversion_value")
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
        members.end(&w)
    }
}
