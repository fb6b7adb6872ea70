import Testing

@testable import SKANDomain

/// The compact reader must give what the JSON parser gives, or step aside.
@Suite struct RevenueTests {
    static func viaParser(_ text: String) -> Revenue? {
        guard case .object(let members)? = try? JSONParser.parse(text) else { return nil }
        var amounts: [Revenue.Amount] = []
        for m in members {
            guard Revenue.isCurrencyCode(m.key), let amount = m.value.doubleValue, amount >= 0 else { return nil }
            amounts.append(Revenue.Amount(currency: m.key, amount: amount, json: m.value))
        }
        return Revenue(amounts: amounts)
    }

    static func compact(_ text: String) -> Revenue? {
        Array(text.utf8).withUnsafeBufferPointer { Revenue.parseCompact($0) }
    }

    @Test(arguments: [
        #"{"USD":4.99}"#, #"{"USD":0}"#, #"{"USD":10,"EUR":0.5}"#, #"{"KRW":15530}"#, #"{"USD":1e3}"#,
        #"{"USD":1.5E-2}"#,
        #"{"USD":9223372036854775807}"#, #"{"USD":9223372036854775808}"#, #"{"USD":1,"USD":2}"#, #"{"USD":0.1000}"#,
        #"{"XAF":0.30000000000000004}"#, #"{"AUD":123456789012.345}"#, #"{"ZZZ":0.000000000000000000001}"#
    ])
    func readsWhatTheParserReads(_ text: String) throws {
        let compact = try #require(Self.compact(text))
        #expect(compact == Self.viaParser(text))
    }

    /// `{"USD":1,"USD":2}` used to count 3 USD and write USD twice into the journal's `skan`: now
    /// the last is kept, as JSON readers do, with a finding, through the compact reader and the
    /// parser alike (the space sends it to the parser).
    @Test(arguments: [#"{"USD":1,"EUR":5,"USD":2}"#, #"{ "USD":1,"EUR":5,"USD":2}"#])
    func aCurrencyGivenTwiceKeepsTheLastWithAFinding(_ text: String) throws {
        let (service, _) = makeService()
        let outcome = service.skan4(skan4Params([("skan_total_revenue_by_currency", text)]))
        let duplicate = try #require(outcome.findings.first { $0.code == .duplicateCurrency })
        #expect(
            duplicate.message
                == "skan_total_revenue_by_currency gives USD 2 times; the last (2) is used, as JSON readers do, not their sum"
        )
        // The journal's `skan` object: each currency once, as used (the text as sent stays in `params`).
        let written = String(decoding: outcome.skan.jsonText, as: UTF8.self)
        #expect(written.contains(#""total_revenue":{"EUR":5,"USD":2}"#), "\(written)")
    }

    @Test(arguments: [
        #"{}"#, #"{ "USD":1}"#, #"{"usd":1}"#, #"{"USD":-1}"#, #"{"USD":01}"#, #"{"USD":1.}"#, #"{"USD":.5}"#,
        #"{"USD":1e}"#,
        #"{"USD":"1"}"#, #"{"USD":1,}"#, #"{"USD":1}x"#, #"{"US":1}"#, #"{"USDX":1}"#, #"{"USD":1e999}"#, #"[1]"#,
        #"{"USD":1"#,
        #"{"U\u0053D":1}"#, #"{"USD":null}"#
    ])
    func leavesEverythingElseToTheParser(_ text: String) {
        #expect(Self.compact(text) == nil)
    }

    /// The common currencies come from a table, every other code from its bytes: the same strings.
    @Test func currencyCodesAreTheirLetters() {
        for code in ["USD", "EUR", "AUD", "XAF", "USE", "ZZZ"] {
            let u = Array(code.utf8)
            #expect(Revenue.currencyCode(u[0], u[1], u[2]) == code)
        }
    }
}
