/// The windowed rules shared by `/api/v2/conversion_value` and the S2S endpoints: count the event,
/// find what needs the device's history, evaluate the window's table and remember what the client
/// got. Pure: the service runs it under its lock on the device's state.
struct WindowedRules {
    let model: ConversionModel

    /// The window's answer, the fine value to send and the model's entry, or nil when there is
    /// nothing to update (no window, no table for it, nothing matched, or `answering` false: an S2S
    /// notification the model does not answer, where only the client's own values and the event
    /// count become device state, since only values actually sent may be held against later
    /// requests). With `adopted` (the client got another answer than the model's) the device
    /// remembers that one, and the model's is still returned, for the journal.
    func answer(
        _ p: SKAN4Parameters, _ decision: WindowDecision, event: String?, device: inout WindowedDeviceState,
        findings: inout [ValidationFinding], hits: inout EntryHits, now: Int64, answering: Bool,
        adopting adopted: AppliedAnswer?
    ) -> (fine: Int64, answer: ModelAnswer)? {
        guard let n = decision.window?.index, let first = p.firstCall else { return nil }
        noteRequest(p, window: n, firstCall: first, event: event, device: &device, findings: &findings, answering)
        let current = SKAN3Rules.clamped(p.currentFine ?? 0)
        if let kept = adopted?.windowAnswer(window: n, currentFine: current) {
            device.remember(kept, window: n, at: now)
        }
        guard answering, let table = model.skan4[n] else { return nil }
        let days = floorDivide(saturatingSubtract(floorDivide(now, 1000), first), 86_400)
        var context = EvaluationContext(
            counts: device.events[n], daysSinceFirstCall: days, rates: model.currency,
            totalIAP: (p.totalRevenue, SKAN4Parameters.totalRevenueName.name),
            totalAdmon: (p.totalAdmonRevenue, SKAN4Parameters.totalAdmonRevenueName.name),
            windowIAP: (p.windows[n].iapRevenue, SKANWindowParameters.iapRevenueName(n).name),
            windowAdmon: (p.windows[n].admonRevenue, SKANWindowParameters.admonRevenueName(n).name))
        let chosen = table.evaluate(&context)
        findings.append(contentsOf: context.findings)
        hits = context.hits
        hits.table = n + 1
        guard let answer = chosen else { return nil }
        // iOS takes a fine value in p0 only; later windows keep the device's.
        let fine = n == 0 ? (answer.fine ?? current) : current
        if adopted == nil {
            device.remember(ModelAnswer(fine: fine, coarse: answer.coarse, lock: answer.lock), window: n, at: now)
        }
        return (fine, answer)
    }

    /// What the request says of the device before anything is answered: a reinstall, the values
    /// the app reports, the p0 fine value it keeps, and the event; with the findings that need the
    /// device's history.
    private func noteRequest(
        _ p: SKAN4Parameters, window n: Int, firstCall first: Int64, event: String?,
        device: inout WindowedDeviceState, findings: inout [ValidationFinding], _ answering: Bool
    ) {
        // The latest first call the client sent: a simulated device (`skan-mock simulate`, a
        // test's own client) ages by sending an older one, whose windows are the ones it is in; a
        // newer one is a reinstall, a new attribution whose windows start empty.
        if let known = device.firstCallSeconds, first > known {
            device.reinstall(firstCallSeconds: first)
        }
        device.firstCallSeconds = first
        device.noteAppReported(p.windows, through: n)
        if n == 0 {
            if let f = p.currentFine { device.p0Fine = f }
        } else if let f = p.currentFine {
            if let base = device.p0Fine {
                if f != base {
                    findings.append(
                        ValidationFinding(
                            param: p.currentFineName.name, code: .fineValueChangedAfterP0,
                            message:
                                "\(p.currentFineName.name) \(f) differs from \(base), the fine value this device had when p0 ended; iOS ignores fine values after p0, so keep sending the last p0 value"
                        ))
                }
            } else {
                device.p0Fine = f
            }
        }
        if answering && device.lockedByServer[n] && p.windows[n].windowLock == nil {
            findings.append(
                ValidationFinding(
                    param: SKANWindowParameters.windowLockName(n).name, code: .updateAfterWindowLock,
                    message:
                        "the server answered lock=true in p\(n) for this device, so iOS ignores this update (and the client did not send \(SKANWindowParameters.windowLockName(n).name))"
                ))
        }
        if let event { device.eventBytes += DeviceState.count(event, in: &device.events[n]) }
    }
}
