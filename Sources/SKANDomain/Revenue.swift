/// Revenue as SKAN clients send it: a JSON object of currency code to amount, e.g. `{"USD":1.2}`.
/// Only well-formed entries are kept; the rest become findings while parsing.
public struct Revenue: Sendable, Equatable {
    public struct Amount: Sendable, Equatable {
        public var currency: String
        public var amount: Double
        /// The number exactly as sent (integer or not), for the journal.
        public var json: JSONValue
    }

    public var amounts: [Amount]

    public init(amounts: [Amount]) { self.amounts = amounts }

    /// Convenience for tests and models: amounts given as (currency, value).
    public init(_ pairs: [(String, Double)]) {
        amounts = pairs.map { Amount(currency: $0.0, amount: $0.1, json: .double($0.1)) }
    }

    public func amount(in currency: String) -> Double {
        var total = 0.0
        for a in amounts where a.currency == currency { total += a.amount }
        return total
    }

    public var json: JSONValue { .object(amounts.map { JSONMember($0.currency, $0.json) }) }

    /// `json`, written straight into the journal line.
    func write(to w: inout JSONWriter) {
        var members = JSONObjectWriter()
        for a in amounts {
            members.next(&w, a.currency)
            w.write(a.json)
        }
        members.end(&w)
    }

    /// True for "USD", "EUR": three upper-case ASCII letters (ISO 4217 shape).
    public static func isCurrencyCode(_ code: String) -> Bool {
        var count = 0
        for b in code.utf8 {
            guard b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") else { return false }
            count += 1
        }
        return count == 3
    }
}
