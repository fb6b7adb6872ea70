import Testing

@testable import SKANDomain

@Suite struct SKAN3TestingEndpointTests {
    @Test func incrementsUpToTwoThenAnswersEmpty() {
        let (service, _) = makeService()
        #expect(service.skan3(skan3Params(value: "0")).bodyText == #"{"conversion_value":1,"status":"ok"}"#)
        #expect(service.skan3(skan3Params(value: "1")).bodyText == #"{"conversion_value":2,"status":"ok"}"#)
        let exhausted = service.skan3(skan3Params(value: "2"))
        #expect(exhausted.status == 200)
        #expect(exhausted.body.isEmpty)
        #expect(exhausted.findings.isEmpty)
        #expect(service.skan3(skan3Params(device: "other", value: "7")).body.isEmpty)
    }

    @Test func exhaustedCanAnswerStatusOK() throws {
        let model = try loadModel(#"{"skan3":{"mode":"increment","max":3,"when_exhausted":"status_ok"}}"#)
        let (service, _) = makeService(model)
        #expect(service.skan3(skan3Params(value: "2")).bodyText == #"{"conversion_value":3,"status":"ok"}"#)
        #expect(service.skan3(skan3Params(value: "3")).bodyText == #"{"status":"ok"}"#)
    }

    @Test func missingConversionValueIsAnErrorNamingIt() {
        let (service, _) = makeService()
        for params in [skan3Params(value: nil), skan3Params(value: "")] {
            let o = service.skan3(params)
            #expect(o.status == 200)
            #expect(o.bodyText.hasPrefix(#"{"status":"error","reason":"conversion_value is missing"#))
            #expect(finding(o, .missingParameter)?.param == "conversion_value")
        }
    }

    @Test func nonIntegerConversionValueIsAnErrorNamingIt() throws {
        let (service, _) = makeService()
        for text in ["abc", "1.5", "0x1", " 1"] {
            let o = service.skan3(skan3Params(value: text))
            let body = try JSONParser.parse(o.body)
            #expect(body["status"] == "error")
            #expect(body["reason"]?.stringValue?.hasPrefix("conversion_value \"\(text)\" is not an integer") == true)
            #expect(finding(o, .invalidInteger)?.param == "conversion_value")
        }
    }

    @Test func rulesReplaceTheIncrementAndNeverGoDown() throws {
        let model = try loadModel(
            """
            {"skan3":{"mode":"rules","combine":"last","entries":[
              {"value":5,"when":{"event":{"name":"purchase"}}},
              {"value":9,"when":{"revenue":{"min":10}}}
            ]}}
            """)
        let (service, _) = makeService(model)
        // Nothing matches: the current value comes back (the client ignores a value that is not higher).
        #expect(
            service.skan3(skan3Params(device: "d1", value: "0")).bodyText == #"{"conversion_value":0,"status":"ok"}"#)
        #expect(
            service.skan3(skan3Params(device: "d1", event: "purchase", value: "3")).bodyText
                == #"{"conversion_value":5,"status":"ok"}"#)
        // The rules say 5, the device already has 7: never below the current value.
        #expect(
            service.skan3(skan3Params(device: "d2", event: "purchase", value: "7")).bodyText
                == #"{"conversion_value":7,"status":"ok"}"#)
        let rich = skan3Params(device: "d3", value: "5").map {
            $0.0 == "total_revenue_by_currency" ? ($0.0, #"{"USD":10}"#) : $0
        }
        #expect(service.skan3(rich).bodyText == #"{"conversion_value":9,"status":"ok"}"#)
    }

    @Test func journalSkanObjectIsTyped() {
        let (service, _) = makeService()
        let params = skan3Params(value: "1").map {
            $0.0 == "total_revenue_by_currency" ? ($0.0, #"{"KRW":15530,"USD":1.5}"#) : $0
        }
        let o = service.skan3(params)
        #expect(
            o.skan.json == [
                "conversion_value": 1, "first_call": .int(T0), "last_call": .int(T0),
                "total_revenue": ["KRW": 15530, "USD": 1.5]
            ])
        #expect(o.window == nil)
        #expect(o.device == "IDFV-1")
        #expect(o.event == "__SESSION__")
    }
}
