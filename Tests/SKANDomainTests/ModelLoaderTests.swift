import Testing

@testable import SKANDomain

@Suite struct ModelLoaderTests {
    @Test func syntaxErrorNamesFilePathAndOffset() {
        let e = modelError(#"{"name": }"#, source: "config/bad.json")
        #expect(e?.file == "config/bad.json")
        #expect(e?.path == "$")
        #expect(
            e?.description
                == "config/bad.json: $: invalid JSON at byte 9 (line 1, column 10): unexpected '}', expected a value")
    }

    @Test func topLevelMustBeAnObject() {
        #expect(modelError("[]")?.description == "test.json: $: expected an object, found array")
    }

    @Test func unknownKeysAreRejectedWithASuggestion() {
        let e = modelError(#"{"skan4":{"p0":{"combin":"or","entries":[]}}}"#)
        #expect(e?.path == "$.skan4.p0.combin")
        #expect(
            e?.reason == #"unknown key "combin" (did you mean "combine"?); allowed here: combine, entries, default"#)
        let typo = modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"event":{"name":"x","min_cout":2}}}]}}}"#)
        #expect(typo?.path == "$.skan4.p0.entries[0].when.event.min_cout")
        #expect(typo?.reason.hasPrefix(#"unknown key "min_cout" (did you mean "min_count"?)"#) == true)
        #expect(modelError(#"{"skan5":{}}"#)?.path == "$.skan5")
    }

    @Test func fineOutOfRange() {
        let e = modelError(#"{"skan4":{"p0":{"entries":[{"fine":1},{"fine":2},{"fine":64}]}}}"#)
        #expect(e?.description == "test.json: $.skan4.p0.entries[2].fine: 64 is outside 0...63")
    }

    @Test func coarseValues() throws {
        let m = try loadModel(
            #"{"skan4":{"p1":{"entries":[{"coarse":"low"},{"coarse":"medium"},{"coarse":"high"},{"coarse":2}]}}}"#)
        #expect(m.skan4[1]?.entries.map(\.coarse) == [0, 1, 2, 2])
        #expect(
            modelError(#"{"skan4":{"p1":{"entries":[{"coarse":"huge"}]}}}"#)?.description
                == #"test.json: $.skan4.p1.entries[0].coarse: "huge" is not a coarse value: use 0, 1, 2 or "low", "medium", "high""#
        )
        #expect(modelError(#"{"skan4":{"p1":{"entries":[{"coarse":3}]}}}"#)?.reason == "3 is outside 0...2")
    }

    @Test func fineAfterP0IsRejected() {
        let e = modelError(#"{"skan4":{"p2":{"entries":[{"fine":3,"coarse":1}]}}}"#)
        #expect(e?.path == "$.skan4.p2.entries[0].fine")
        #expect(e?.reason.hasPrefix("fine values are ignored by iOS after p0") == true)
    }

    @Test func revenueRanges() {
        let minMax = modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"revenue":{"min":10,"max":5}}}]}}}"#)
        #expect(
            minMax?.description
                == "test.json: $.skan4.p0.entries[0].when.revenue.max: max 5.0 must be greater than min 10.0 (the range is [min, max))"
        )
        let negative = modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"revenue":{"min":-1}}}]}}}"#)
        #expect(negative?.path == "$.skan4.p0.entries[0].when.revenue.min")
        #expect(negative?.reason == "-1 must be at least 0.0")
        let empty = modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"revenue":{"source":"iap"}}}]}}}"#)
        #expect(empty?.reason == #"a revenue condition needs "min", "max" or both"#)
        let source = modelError(
            #"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"revenue":{"min":1,"source":"ads"}}}]}}}"#)
        #expect(source?.reason == #""ads" is not one of "iap" or "admon" or "both""#)
    }

    @Test func daysAndEvents() {
        #expect(
            modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"days":{"min":3,"max":2}}}]}}}"#)?.reason
                == "max 2 is below min 3 (both are inclusive)")
        #expect(
            modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"event":{"name":"x","min_count":0}}}]}}}"#)?
                .reason
                == "0 is outside 1...1000000")
        #expect(
            modelError(#"{"skan4":{"p0":{"entries":[{"fine":1,"when":{"event":{"min_count":2}}}]}}}"#)?.path
                == "$.skan4.p0.entries[0].when.event")
    }

    @Test func combineAndCurrency() {
        #expect(
            modelError(#"{"skan4":{"p0":{"combine":"and","entries":[]}}}"#)?.description
                == #"test.json: $.skan4.p0.combine: "and" is not one of "last" or "or""#)
        #expect(
            modelError(#"{"currency":{"base":"usd"}}"#)?.description
                == #"test.json: $.currency.base: "usd" is not a 3-letter upper-case currency code (ISO 4217, like USD)"#
        )
        #expect(modelError(#"{"currency":{"base":"USD","rates":{"EUR":0}}}"#)?.path == "$.currency.rates.EUR")
        #expect(
            modelError(#"{"currency":{"base":"USD","rates":{"USD":2}}}"#)?.reason
                == "the base currency USD must have rate 1 (or be left out)")
    }

    @Test func skan3Modes() throws {
        let m = try loadModel(#"{"skan3":{"max":5,"when_exhausted":"status_ok"}}"#)
        #expect(m.skan3 == .increment(max: 5, whenExhausted: .statusOK))
        #expect(modelError(#"{"skan3":{"mode":"rules","max":3,"entries":[]}}"#)?.path == "$.skan3.max")
        #expect(
            modelError(
                #"{"skan3":{"mode":"rules","entries":[{"value":1,"when":{"revenue":{"min":1,"period":"window"}}}]}}"#)?
                .reason
                == "SKAN 3 has no measurement windows; use \"total\"")
        #expect(modelError(#"{"skan3":{"mode":"rules","entries":[{"fine":1}]}}"#)?.path == "$.skan3.entries[0].fine")
        #expect(modelError(#"{"skan3":{"mode":"up"}}"#)?.reason == #""up" is not one of "increment" or "rules""#)
    }

    @Test func duplicateKeys() {
        #expect(modelError(#"{"name":"a","name":"b"}"#)?.description == #"test.json: $.name: duplicate key "name""#)
    }

    @Test func collectsEveryProblemAndLeadsWithTheFirst() {
        let e = modelError(#"{"skan4":{"p0":{"entries":[{"fine":99}],"combine":"xor"}},"s2s":{"launch":"yes"}}"#)
        #expect(e?.problems.map(\.path) == ["$.skan4.p0.combine", "$.skan4.p0.entries[0].fine", "$.s2s.launch"])
        #expect(
            e?.description
                == #"test.json: $.skan4.p0.combine: "xor" is not one of "last" or "or" (and 2 more problems: skan-mock validate test.json lists them all)"#
        )
        #expect(e?.fullDescription.split(separator: "\n").count == 3)
    }

    @Test func keysThatNeedQuotingInPaths() {
        #expect(modelError(#"{"currency":{"rates":{"e-u":1}}}"#)?.path == #"$.currency.rates["e-u"]"#)
    }

    @Test func defaultsAndMinimalModel() throws {
        let m = try loadModel("{}", source: "empty.json")
        #expect(m.name == "empty.json")
        #expect(m.skan3 == .increment(max: 2, whenExhausted: .empty))
        #expect(m.skan4.allSatisfy { $0 == nil })
        #expect(m.s2sLaunch == false && m.s2sEvent == false)
        #expect(m.currency == CurrencyRates(base: "USD", rates: [:]))
    }

    @Test func keepsTheDocumentForTheAdminAPI() throws {
        let text = #"{"name":"x","skan3":{"max":1}}"#
        let m = try loadModel(text)
        #expect(m.json.description == text)
        #expect(m.name == "x")
    }
}

/// A model that is not UTF-8 is refused with the offset of the first bad byte (issue 21).
@Suite struct ModelEncodingTests {
    @Test func invalidUTF8IsRefusedWithItsOffset() {
        var bytes = Array(#"{"name": "caf"#.utf8)
        let offset = bytes.count
        bytes += [0xE9] + Array(#"", "skan3": {"mode": "increment", "max": 2}}"#.utf8)  // Latin-1 é
        #expect {
            _ = try ConversionModel.parse(bytes: bytes, source: "latin1.json")
        } throws: { error in
            let problem = (error as? ModelError)?.problems.first
            return problem?.path == "$"
                && problem?.reason
                    == "not UTF-8: byte 0xE9 at byte offset \(offset) does not begin or continue a UTF-8 character"
        }
        #expect(firstInvalidUTF8Offset(Array("café ✓ 🎉".utf8)) == nil)
        #expect(firstInvalidUTF8Offset([0x61, 0xC3]) == 1)
    }
}
