/// Turns raw string parameters into typed values once, at the edge, collecting a finding for every
/// value that is malformed or implausible. A value that does not parse is returned as nil (and so
/// stays out of the journal's `skan` object); its finding says why.
public struct ParameterReader {
    public let parameters: RequestParameters
    public let nowMilliseconds: Int64
    public private(set) var findings: [ValidationFinding] = []

    /// Timestamps above this are milliseconds: 10^11 seconds is the year 5138.
    public static let millisecondThreshold: Int64 = 100_000_000_000
    /// Timestamps beyond ±10^14 are no time at all in seconds or milliseconds (a microsecond or
    /// nanosecond clock, a random number). They are ignored, so every window end, lock time and
    /// postback interval made from a kept timestamp (plus at most years, times 1000) fits Int64.
    public static let impossibleThreshold: Int64 = 100_000_000_000_000
    /// 2014-01-01T00:00:00Z; SKAdNetwork did not exist before it.
    public static let earliestPlausibleSeconds: Int64 = 1_388_534_400
    /// How far ahead of the server a client's clock may be before its timestamps count as future.
    public static let futureToleranceSeconds: Int64 = 300

    public init(parameters: RequestParameters, nowMilliseconds: Int64) {
        self.parameters = parameters
        self.nowMilliseconds = nowMilliseconds
    }

    public mutating func add(_ param: String, _ code: FindingCode, _ message: String) {
        findings.append(ValidationFinding(param: param, code: code, message: message))
    }

    public mutating func add(_ param: SKANParameter, _ code: FindingCode, _ message: String) {
        add(param.name, code, message)
    }

    /// The string value, nil when absent or empty.
    public func string(_ parameter: SKANParameter) -> String? { parameters[parameter] }

    /// Whether the parameter was sent with a value.
    public func has(_ parameter: SKANParameter) -> Bool { parameters.contains(parameter) }

    /// An integer parameter; a finding when it is present but not an integer.
    public mutating func integer(_ parameter: SKANParameter) -> Int64? {
        guard let parsed = parameters.withValue(parameter, ParameterReader.parseInteger) else { return nil }
        guard let value = parsed else {
            let name = parameter.name
            add(name, .invalidInteger, "\(name) \(quoted(parameters[parameter] ?? "")) is not an integer")
            return nil
        }
        return value
    }

    /// A fine conversion value; a finding when outside 0...63 (the value is still kept, as sent).
    public mutating func fine(_ parameter: SKANParameter) -> Int64? {
        guard let value = integer(parameter) else { return nil }
        let name = parameter.name
        if !(0...63).contains(value) {
            add(name, .fineValueOutOfRange, "\(name) \(value) is outside 0...63, the range of a fine conversion value")
        }
        return value
    }

    /// A coarse value; a finding when outside 0...2.
    public mutating func coarse(_ parameter: SKANParameter) -> Int64? {
        guard let value = integer(parameter) else { return nil }
        let name = parameter.name
        if !(0...2).contains(value) {
            add(name, .coarseValueOutOfRange, "\(name) \(value) is outside 0...2 (0 low, 1 medium, 2 high)")
        }
        return value
    }

    /// A Unix-seconds timestamp, with findings for milliseconds, the future and before 2014; nil,
    /// with a finding, for one beyond ±10^14, which no arithmetic on times should have to hold.
    public mutating func timestamp(_ parameter: SKANParameter) -> Int64? {
        guard let value = integer(parameter) else { return nil }
        let name = parameter.name
        let now = floorDivide(nowMilliseconds, 1000)
        if value > ParameterReader.impossibleThreshold || value < -ParameterReader.impossibleThreshold {
            // A clock a thousand or a million times too fine: say what it would be in seconds.
            let hint =
                value > 100_000_000_000_000_000
                ? "; it looks like nanoseconds (Unix seconds \(value / 1_000_000_000))"
                : value > 0 ? "; it looks like microseconds (Unix seconds \(value / 1_000_000))" : ""
            add(
                name, .timestampImpossible,
                "\(name) \(value) is no time in Unix seconds or milliseconds, so it is ignored\(hint)"
            )
            return nil
        }
        if value > ParameterReader.millisecondThreshold {
            add(
                name, .timestampInMilliseconds,
                "\(name) \(value) looks like milliseconds; SKAN timestamps are Unix seconds (\(floorDivide(value, 1000)))"
            )
        } else if value > now + ParameterReader.futureToleranceSeconds {
            add(
                name, .timestampInFuture,
                "\(name) \(value) is \(describeDuration(saturatingSubtract(value, now))) in the future (server time \(RFC3339.format(milliseconds: nowMilliseconds)))"
            )
        } else if value < ParameterReader.earliestPlausibleSeconds {
            let hint =
                value == 0 ? "; 0 usually means it was never set (call registerAppForAdNetworkAttribution first)" : ""
            add(name, .timestampBefore2014, "\(name) \(value) is before 2014, older than SKAdNetwork itself\(hint)")
        }
        return value
    }

    /// A revenue JSON object; findings for bad JSON, bad currency codes and bad amounts. Well-formed
    /// entries are kept even when others are not.
    public mutating func revenue(_ parameter: SKANParameter) -> Revenue? {
        switch parameters.withValue(parameter, Revenue.parseCompact) {
        case .none: return nil  // absent
        case .some(var compact?):
            if compact.amounts.count > Revenue.maxCurrencies {
                tooManyCurrencies(parameter.name, compact.amounts.count)
                compact.amounts.removeLast(compact.amounts.count - Revenue.maxCurrencies)
            }
            if compact.amounts.count > 1 { keepLastOfEachCurrency(&compact.amounts, parameter.name) }
            return compact
        case .some(nil): break  // anything else: the JSON parser reads it and says what is wrong
        }
        guard
            let parsed = parameters.withValue(
                parameter,
                { bytes in
                    Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
                })
        else { return nil }
        let name = parameter.name
        let value: JSONValue
        switch parsed {
        case .success(let parsedValue):
            value = parsedValue
        case .failure(let error):
            add(
                name, .invalidRevenueJSON,
                "\(name) is not valid JSON (\(error.description)); expected an object like {\"USD\":1.5}")
            return nil
        }
        guard case .object(let members) = value else {
            add(
                name, .invalidRevenueJSON,
                "\(name) is a JSON \(value.typeName); expected an object of currency code to amount, like {\"USD\":1.5}"
            )
            return nil
        }
        if members.count > Revenue.maxCurrencies { tooManyCurrencies(name, members.count) }
        var amounts: [Revenue.Amount] = []
        amounts.reserveCapacity(min(members.count, Revenue.maxCurrencies))
        for member in members.prefix(Revenue.maxCurrencies) {
            guard Revenue.isCurrencyCode(member.key) else {
                add(
                    name, .invalidCurrencyCode,
                    "\(name) key \(quoted(member.key)) is not a 3-letter upper-case currency code (ISO 4217, like USD)")
                continue
            }
            guard let amount = member.value.doubleValue else {
                add(
                    name, .invalidRevenueAmount,
                    "\(name) \(member.key) is a \(member.value.typeName) (\(member.value)); expected a number")
                continue
            }
            guard amount >= 0 else {
                add(name, .invalidRevenueAmount, "\(name) \(member.key) is \(member.value); revenue cannot be negative")
                continue
            }
            amounts.append(Revenue.Amount(currency: member.key, amount: amount, json: member.value))
        }
        if amounts.count > 1 { keepLastOfEachCurrency(&amounts, name) }
        return Revenue(amounts: amounts)
    }

    /// A currency given twice (`{"USD":1,"USD":2}`): the last is kept, as JavaScript's and Python's
    /// JSON readers do, with a finding; the earlier ones are neither summed nor written again to the
    /// journal's `skan` object (`params` keeps the text as sent).
    private mutating func keepLastOfEachCurrency(_ amounts: inout [Revenue.Amount], _ name: String) {
        // From the end: the first of a currency met is the one kept; later ones are only counted.
        var given: [String: Int] = [:]
        var kept: [Revenue.Amount] = []
        for amount in amounts.reversed() {
            given[amount.currency, default: 0] += 1
            if given[amount.currency] == 1 { kept.append(amount) }
        }
        guard kept.count < amounts.count else { return }
        amounts = kept.reversed()
        for amount in amounts where given[amount.currency, default: 1] > 1 {
            add(
                name, .duplicateCurrency,
                "\(name) gives \(amount.currency) \(given[amount.currency] ?? 2) times; the last (\(amount.json)) is used, as JSON readers do, not their sum"
            )
        }
    }

    /// A revenue object with more currencies than exist: the first `Revenue.maxCurrencies` are
    /// read, so that 60,000 of them cost no more than that.
    private mutating func tooManyCurrencies(_ name: String, _ count: Int) {
        add(
            name, .tooManyCurrencies,
            "\(name) has \(count) currencies; ISO 4217 has fewer than \(Revenue.maxCurrencies), so only the first \(Revenue.maxCurrencies) are read"
        )
    }

    /// Strict decimal integer: optional minus sign, digits, fits in 64 bits.
    public static func parseInteger(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseInteger($0) }
    }

    static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        // Unlike a JSON number, a parameter's integer may have leading zeros ("007").
        let negative = !text.isEmpty && text[0] == UInt8(ascii: "-")
        return JSONNumber.integer(text, from: negative ? 1 : 0, to: text.count, negative: negative)
    }
}

/// A value in double quotes, shortened so one absurd parameter cannot flood the journal.
func quoted(_ text: String) -> String {
    let limit = 80
    if text.utf8.count <= limit { return "\"\(text)\"" }
    return "\"\(String(text.prefix(limit)))…\""
}

/// "90 s", "3 h", "2 d 5 h": coarse, readable durations for messages.
func describeDuration(_ seconds: Int64) -> String {
    let s = seconds.magnitude
    if s < 120 { return "\(s) s" }
    if s < 7200 { return "\(s / 60) min" }
    if s < 172_800 { return "\(s / 3600) h" }
    let days = s / 86_400
    let hours = s % 86_400 / 3600
    return hours == 0 ? "\(days) d" : "\(days) d \(hours) h"
}
