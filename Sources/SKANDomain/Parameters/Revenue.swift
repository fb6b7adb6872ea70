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

    /// The most currencies read from one revenue object (ISO 4217 has fewer); past it, a
    /// `too_many_currencies` finding and the rest unread.
    public static let maxCurrencies = 200

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
            members.next(&w, name: a.currency)
            w.write(a.json)
        }
        members.end(&w)
    }

    /// The shape every client sends, `{"USD":4.99}` or `{"USD":1,"EUR":0.5}` (no spaces, currency
    /// codes, non-negative numbers), read without building a JSON tree; nil for anything else,
    /// which the JSON parser then reads (and explains). Gives exactly what the parser would.
    static func parseCompact(_ text: UnsafeBufferPointer<UInt8>) -> Revenue? {
        let n = text.count
        guard n >= 9, text[0] == UInt8(ascii: "{"), text[n - 1] == UInt8(ascii: "}") else { return nil }
        var amounts: [Amount] = []
        var i = 1
        while true {
            // "XYZ":
            guard i + 6 <= n, text[i] == UInt8(ascii: "\""), text[i + 4] == UInt8(ascii: "\""),
                text[i + 5] == UInt8(ascii: ":")
            else { return nil }
            for k in 1...3 where !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(text[i + k]) { return nil }
            let currency = Self.currencyCode(text[i + 1], text[i + 2], text[i + 3])
            i += 6
            // A JSON number without a sign (a negative amount is the parser's to explain), read
            // by the JSON parser's own grammar.
            guard i < n, text[i] != UInt8(ascii: "-") else { return nil }
            switch try? JSONNumber.read(text, at: &i) {
            case .int(let value)?: amounts.append(Amount(currency: currency, amount: Double(value), json: .int(value)))
            case .double(let value)?: amounts.append(Amount(currency: currency, amount: value, json: .double(value)))
            default: return nil
            }
            guard i < n else { return nil }
            if text[i] == UInt8(ascii: "}") { return i == n - 1 ? Revenue(amounts: amounts) : nil }
            guard text[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    /// The currencies of nearly every request, made once: a String from bytes is validated as
    /// UTF-8 each time, which cost more than reading the amount.
    private static let commonCurrencies = ["USD", "EUR", "GBP", "JPY", "CNY", "INR", "KRW", "BRL", "CAD", "AUD"]

    /// The currency code of three upper-case ASCII letters.
    static func currencyCode(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> String {
        for code in commonCurrencies {
            var letters = code.utf8.makeIterator()
            if letters.next() == a && letters.next() == b && letters.next() == c { return code }
        }
        return String(decoding: [a, b, c], as: UTF8.self)
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
