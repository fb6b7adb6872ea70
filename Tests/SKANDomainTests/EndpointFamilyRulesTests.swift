import Testing

@testable import SKANDomain

/// The conversion core by endpoint family, without the service: a request read once
/// (`ParsedSKANRequest`), the window decided once (`WindowDecision`), and each family's rules on a
/// device's state alone (`SKAN3Rules`, `WindowedRules`), adopted answers included.
@Suite("Endpoint family rules")
struct EndpointFamilyRulesTests {
    private func parsed(_ endpoint: SKANEndpoint, _ params: [(String, String)], now: Int64 = T0) -> ParsedSKANRequest {
        ParsedSKANRequest(endpoint, request(endpoint, params), nowMilliseconds: now * 1000)
    }

    private func decision(_ p: ParsedSKANRequest) -> (SKAN4Parameters, WindowDecision)? {
        switch p.family {
        case .skan4(let p, let d), .s2s(let p, let d, _): (p, d)
        case .skan3: nil
        }
    }

    // MARK: read once

    @Test func aRequestIsReadOnceIntoItsFamilyWithItsFindings() throws {
        let skan4 = parsed(.skan4, skan4Params([("skan_current_conversion_value", "3")]), now: T0 + 3 * day)
        let (p4, d) = try #require(decision(skan4))
        #expect(d.window == .p1)
        #expect(p4.currentFine == 3)
        #expect(skan4.device == "IDFV-1")
        #expect(skan4.event == "__SESSION__")

        let noFirstCall = parsed(.skan4, skan4Params(first: nil))
        #expect(decision(noFirstCall)?.1.window == nil)
        #expect(noFirstCall.findings.map(\.code).contains(.missingParameter))

        guard case .skan3(let p) = parsed(.skan3, skan3Params(value: "1")).family else {
            Issue.record("a SKAN 3 request was not read as SKAN 3")
            return
        }
        #expect(p.conversionValue == 1)

        let launch = parsed(.launch, [("a", "KEY"), ("p", "iOS"), ("i", "com.example.app"), ("n", "My App")])
        guard case .s2s(_, _, let refusal) = launch.family else {
            Issue.record("a launch was not read as S2S")
            return
        }
        #expect(refusal == "missing argument: idfv")
        #expect(launch.event == "__SESSION__", "a launch is a session, whatever its n")

    }

    /// The service's answer to a request read first is the answer to the same request read by it.
    @Test func answeringARequestReadFirstIsHandlingIt() throws {
        let model = try loadModel(#"{"skan4":{"p0":{"entries":[{"fine":5,"coarse":"high","lock":true}]}}}"#)
        let (a, _) = makeService(model)
        let (b, _) = makeService(model)
        let params = skan4Params([("skan_current_conversion_value", "1")])
        let handled = a.handle(.skan4, request(.skan4, params))
        let answered = b.answer(parsed(.skan4, params))
        #expect(handled.bodyText == answered.bodyText)
        #expect(handled.findings.map(\.code) == answered.findings.map(\.code))
        #expect(a.device("IDFV-1") == b.device("IDFV-1"))
        #expect(
            ReplayKey(parsed(.skan4, params))
                == ReplayKey(
                    endpoint: .skan4, parameters: request(.skan4, params).parameters, nowMilliseconds: T0 * 1000))
    }

    // MARK: the window decision

    @Test func aLockSentForTheCurrentWindowIsAFindingOfTheDecision() throws {
        let locked = parsed(.skan4, skan4Params([("p0_window_lock", String(T0 + 60))]), now: T0 + hour)
        let (lockedP, lockedD) = try #require(decision(locked))
        let finding = try #require(lockedD.lockParameterFinding(lockedP))
        #expect(finding.code == .updateAfterWindowLock)
        #expect(finding.param == "p0_window_lock")
        // A lock of a past window is not this window's.
        let past = parsed(.skan4, skan4Params([("p0_window_lock", String(T0 + 60))]), now: T0 + 3 * day)
        let (pastP, pastD) = try #require(decision(past))
        #expect(pastD.lockParameterFinding(pastP) == nil)
    }

    // MARK: SKAN 3

    @Test func skan3RulesChooseAndTheDeviceRemembersOnlyValuesSent() {
        let rules = SKAN3Rules(model: .builtIn)
        var device = SKAN3DeviceState()
        var findings: [ValidationFinding] = []
        var hits = EntryHits()
        guard case .skan3(let p) = parsed(.skan3, skan3Params(value: "1")).family else {
            Issue.record("a SKAN 3 request was not read as SKAN 3")
            return
        }
        let (body, value) = rules.answer(
            p, event: "__SESSION__", device: &device, findings: &findings, hits: &hits, now: T0 * 1000)
        #expect(value == 2)
        #expect(String(decoding: body, as: UTF8.self) == #"{"conversion_value":2,"status":"ok"}"#)
        #expect(device.highestValueSent == 1)
        #expect(device.events["__SESSION__"] == 1)
        #expect(device.lastValueReturned == nil, "the rules choose; remembering is the caller's")

        device.remember(2, at: T0 * 1000)
        #expect(device.lastValueReturned == 2)
        #expect(device.lastRaisedMilliseconds == T0 * 1000)
        device.remember(1, at: (T0 + hour) * 1000)
        #expect(device.lastValueReturned == 1)
        #expect(device.lastRaisedMilliseconds == T0 * 1000, "a lower value does not start the timer again")
        device.remember(nil, at: (T0 + 2 * hour) * 1000)
        #expect(device.lastValueReturned == 1, "an answer without a value changes nothing")
    }

    // MARK: windowed (SKAN 4, S2S)

    @Test func windowedRulesRememberTheModelsAnswerOrTheAdoptedOne() throws {
        let model = try loadModel(#"{"skan4":{"p0":{"entries":[{"fine":5,"coarse":"high","lock":true}]}}}"#)
        let rules = WindowedRules(model: model)
        let (p, d) = try #require(decision(parsed(.skan4, skan4Params([("skan_current_conversion_value", "1")]))))

        var mine = WindowedDeviceState()
        var findings: [ValidationFinding] = []
        var hits = EntryHits()
        let chosen = try #require(
            rules.answer(
                p, d, event: "__SESSION__", device: &mine, findings: &findings, hits: &hits, now: T0 * 1000,
                answering: true, adopting: nil))
        #expect(chosen.fine == 5)
        #expect(chosen.answer.coarse == 2)
        #expect(mine.lastReturned[0] == ModelAnswer(fine: 5, coarse: 2, lock: true))
        #expect(mine.lockedAtMilliseconds[0] == T0 * 1000)
        #expect(mine.p0Fine == 5)
        #expect(hits.table == 1)

        // Production answered 9, low, no lock: the model's answer is still returned (the journal
        // shows it), but the device holds what the client got.
        var theirs = WindowedDeviceState()
        let adopted = AppliedAnswer(ok: true, value: 9, coarse: 0, lock: false)
        let model5 = try #require(
            rules.answer(
                p, d, event: "__SESSION__", device: &theirs, findings: &findings, hits: &hits, now: T0 * 1000,
                answering: true, adopting: adopted))
        #expect(model5.fine == 5)
        #expect(theirs.lastReturned[0] == ModelAnswer(fine: 9, coarse: 0, lock: false))
        #expect(theirs.lockedAtMilliseconds[0] == nil)
        #expect(theirs.p0Fine == 9)

        // An answer the client could not use is adopted as nothing to keep.
        var unusable = WindowedDeviceState()
        _ = rules.answer(
            p, d, event: "__SESSION__", device: &unusable, findings: &findings, hits: &hits, now: T0 * 1000,
            answering: true, adopting: .received(status: 200, body: Array("<html>".utf8)))
        #expect(unusable.lastReturned[0] == nil)
        #expect(unusable.events[0]["__SESSION__"] == 1, "the event still counts")
    }

    @Test func aNotificationTheModelDoesNotAnswerKeepsOnlyWhatTheClientSent() throws {
        let rules = WindowedRules(model: .builtIn)
        let (p, d) = try #require(
            decision(
                parsed(
                    .skan4,
                    skan4Params([("skan_current_conversion_value", "4"), ("p0_coarse", "1")]))))
        var device = WindowedDeviceState()
        var findings: [ValidationFinding] = []
        var hits = EntryHits()
        let chosen = rules.answer(
            p, d, event: "purchase", device: &device, findings: &findings, hits: &hits, now: T0 * 1000,
            answering: false, adopting: nil)
        #expect(chosen == nil)
        #expect(device.lastReturned == [nil, nil, nil])
        #expect(device.p0Fine == 4)
        #expect(device.appCoarse[0] == 1)
        #expect(device.events[0]["purchase"] == 1)
        #expect(hits.table == -1, "no table was consulted")
    }
}
