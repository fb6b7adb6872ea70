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

    /// Short decimals are read without strtod: for digits of every length up to 15 with the point
    /// anywhere (and past the fast path's limits), the Double is strtod's, bit for bit.
    @Test func shortDecimalsReadAsStrtodReadsThem() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        for length in 1...18 {
            for _ in 0..<400 {
                var digits = (0..<length).map { _ in Character(String(next(10))) }
                if next(3) == 0 { digits[0] = "0" }
                let point = next(length + 1)
                let text = point == length ? String(digits) : String(digits[..<point]) + "." + String(digits[point...])
                let expected = Double(text)
                let fast = Array(text.utf8).withUnsafeBufferPointer { Revenue.shortDecimal($0) }
                if let fast {
                    #expect(fast.bitPattern == expected?.bitPattern, "\(text)")
                } else {
                    #expect(length > 15 || point == 0, "\(text) left to strtod")
                }
            }
        }
        #expect(Array("4.99".utf8).withUnsafeBufferPointer { Revenue.shortDecimal($0) } == 4.99)
        #expect(Array("1.2.3".utf8).withUnsafeBufferPointer { Revenue.shortDecimal($0) } == nil)
    }

    /// The common currencies come from a table, every other code from its bytes: the same strings.
    @Test func currencyCodesAreTheirLetters() {
        for code in ["USD", "EUR", "AUD", "XAF", "USE", "ZZZ"] {
            let u = Array(code.utf8)
            #expect(Revenue.currencyCode(u[0], u[1], u[2]) == code)
        }
    }
}
