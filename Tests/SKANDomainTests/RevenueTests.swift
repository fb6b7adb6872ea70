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
        #"{"USD":9223372036854775807}"#, #"{"USD":9223372036854775808}"#, #"{"USD":1,"USD":2}"#, #"{"USD":0.1000}"#
    ])
    func readsWhatTheParserReads(_ text: String) throws {
        let compact = try #require(Self.compact(text))
        #expect(compact == Self.viaParser(text))
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
}
