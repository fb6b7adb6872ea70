import SystemPOSIX

/// The conversion-value service: parses a request once into typed parameters (collecting findings),
/// chooses the window, consults the model and the device's state, and returns the answer.
///
/// API for the app layer
/// ---------------------
/// ```
/// let model = try ConversionModel.parse(bytes: fileBytes, source: "config/revenue.json") // throws ModelError
/// // or ConversionModel.builtIn (config/singular-testing.json, compiled in)
/// let service = ConversionService(model: model, clock: clock, deviceCapacity: 100_000, strict: false)
///
/// // The app routes the path (Singular's, or a --route alias) to an endpoint, SKANEndpoint(path:)
/// // for Singular's own, and decodes the parameters once, query then form body:
/// let request = SKANRequest(method: "GET", path: path, remote: "127.0.0.1:53211",
///                           parameters: [("a", "key"), ("n", "__SESSION__"), ...])
/// let outcome = service.handle(endpoint, request)   // SKANOutcome: status (200), body [UInt8], findings...
/// // commit: false answers without changing the device (a fault replaced the answer);
/// // adopting: AppliedAnswer(status:body:), what the client really got (a proxy's or a replay's
/// // answer); at: a past time (--resume). A request refused before this: SKANOutcome.refused(...)
/// // send the answer (or a fault's), then journal.record(request:outcome:status:body:...) once
///
/// service.model (.name, .source, .json for GET /__admin/model) / service.replaceModel(m)
/// service.device("IDFV") -> DeviceState? / service.deviceState("IDFV") -> JSONValue? / service.deviceCount
/// service.resetDevices() / service.coverageJSON / service.resetCoverage()
/// service.recordUpstream(outcome, matched:)          // whether the upstream answered as the model did (coverage)
/// ```
///
/// Decisions where SPEC is silent
/// ------------------------------
/// - SKAN 3 rules: the answer is `max(current, value of the rules)`; when no rule matches the current
///   value is answered (the client ignores a value that is not higher). The exhausted answer
///   (`when_exhausted`) belongs to the increment mode only.
/// - SKAN 3 values are clamped to 0...63 in answers (current + 1 for a negative current is 0).
/// - SKAN 4: a window the model does not describe, or where nothing matches and there is no
///   `default`, answers `{"status":"ok"}` (nothing to update). In p0 an entry without `fine` answers
///   the device's current fine value; in p1/p2 the current fine value is always answered.
/// - Events are counted per device and window for `/api/v2/conversion_value`, over the device's life
///   for SKAN 3, and separately for the S2S endpoints (the same events reach both; sharing counts would
///   double them). `/api/v1/launch` counts as the event `__SESSION__`.
/// - Findings never change the answer except with `strict`; a strict rejection does not change the
///   device's state (the request is treated as not having happened).
/// - An update after a lock is a finding whether the client says so (`pN_window_lock` set for the
///   current window) or the server remembers answering `lock: true` in this window.
/// - The fine value after p0 is compared with the last fine value the server knows for p0 (the
///   client's in p0 or the server's answer there); a device first met after p0 takes its first value
///   as the baseline.
/// - Missing `n`, a missing device id and (SKAN 4) a missing first-call timestamp are findings on the
///   conversion-value endpoints; only the S2S endpoints answer an error for missing arguments.
public final class ConversionService: Sendable {
    private struct State: Sendable {
        var model: ConversionModel
        var devices: DeviceStateStore
        var coverage: ModelCoverage

        /// Starts the coverage again (a new model, a cleared journal): verdicts on old counts are ignored.
        mutating func restartCoverage() { coverage = ModelCoverage(model: model, generation: coverage.generation + 1) }

        /// Whether a request changed anything: not when a fault replaced its answer (`commit`
        /// false), not when `--strict` rejected it.
        static func kept(commit: Bool, strict: Bool, findings: [ValidationFinding]) -> Bool {
            commit && !(strict && !findings.isEmpty)
        }
    }

    private let state: Mutex<State>
    public let clock: any SKANClock
    public let strict: Bool

    public init(
        model: ConversionModel = .builtIn, clock: any SKANClock,
        deviceCapacity: Int = 100_000, deviceBytes: Int = DeviceStateStore.defaultMaxBytes, strict: Bool = false
    ) {
        state = Mutex(
            State(
                model: model, devices: DeviceStateStore(capacity: deviceCapacity, maxBytes: deviceBytes),
                coverage: ModelCoverage(model: model)
            ))
        self.clock = clock
        self.strict = strict
    }

    // MARK: admin

    /// The model in use.
    public var model: ConversionModel { state.withLock { $0.model } }

    /// Swaps the model (after a reload); device state is kept, coverage starts again.
    public func replaceModel(_ model: ConversionModel) {
        state.withLock {
            $0.model = model
            $0.restartCoverage()
        }
    }

    /// `GET /__admin/coverage`: which entries of the model answered how many requests.
    public var coverageJSON: JSONValue { state.withLock { $0.coverage.json(model: $0.model) } }

    /// Forgets the coverage counts (with the journal).
    public func resetCoverage() { state.withLock { $0.restartCoverage() } }

    /// `--upstream`: the upstream answered `outcome`'s request, and its answer was (or was not) the
    /// model's; the coverage counts it under the entries that answered.
    public func recordUpstream(_ outcome: SKANOutcome, matched: Bool) {
        guard let counted = outcome.coverage else { return }
        state.withLock { $0.coverage.recordUpstream(counted, matched: matched) }
    }

    /// Forgets every device.
    public func resetDevices() { state.withLock { $0.devices.removeAll() } }

    /// `GET /__admin/devices/{device}`; nil for a device the server does not know.
    /// A device's state, typed (postbacks are computed from it).
    public func device(_ id: String) -> DeviceState? {
        state.withLock { $0.devices.peek(id) }
    }

    public func deviceState(_ id: String) -> JSONValue? {
        state.withLock { $0.devices.peek(id) }?.json(device: id)
    }

    public var deviceCount: Int { state.withLock { $0.devices.count } }

    /// Up to `limit` device ids, most recently used first (a received postback's candidates).
    public func recentDevices(limit: Int) -> [String] {
        state.withLock { $0.devices.keysByRecency(limit: limit) }
    }

    /// The bytes of device state kept, as the store estimates them against its limit.
    public var deviceBytes: Int { state.withLock { $0.devices.bytes } }

    // MARK: requests

    /// Answers `request` and, when `commit` is true, remembers it in the device's state (events
    /// counted, values answered, locks). With `commit` false the answer is what the request would
    /// get, computed on a copy: a request whose answer a fault replaces leaves no trace, so the
    /// client's retry gets the same answer. `unmatched` is not answered here (see `refused`).
    ///
    /// `adopting` is the answer the client really got when it was not the model's (`--upstream-mode
    /// proxy` passes production's): the outcome still carries what the model would have answered,
    /// but the device's state remembers the adopted values, since the client acts on those.
    ///
    /// `at` replays a request at the time it was first answered (`--resume`), instead of now.
    public func handle(
        _ endpoint: SKANEndpoint, _ request: SKANRequest, commit: Bool = true,
        adopting adopted: AppliedAnswer? = nil, at time: Int64? = nil
    ) -> SKANOutcome {
        let now = time ?? clock.nowMilliseconds()
        let parameters = request.parameters
        let common = CommonParameters(parameters)
        var reader = ParameterReader(parameters: parameters, nowMilliseconds: now)
        if endpoint != .unmatched { lengthFindings(endpoint, common, &reader) }
        let outcome: SKANOutcome
        switch endpoint {
        case .skan3: outcome = handleSKAN3(common, &reader, path: request.path, now, commit, adopted)
        case .skan4: outcome = handleSKAN4(common, &reader, path: request.path, now, commit, adopted)
        case .launch, .event, .launch2, .event2:
            outcome = handleS2S(endpoint, common, &reader, path: request.path, now, commit, adopted)
        case .unmatched, .postback:
            outcome = SKANOutcome.refused(
                endpoint, request, status: 404, body: [], findings: [], timeMilliseconds: now)
        }
        return outcome
    }

    /// The event name of a session.
    static let session = "__SESSION__"

    /// A device id or event name longer than the server keeps: said, and kept cut (`CommonParameters`).
    private func lengthFindings(
        _ endpoint: SKANEndpoint, _ common: CommonParameters, _ reader: inout ParameterReader
    ) {
        let limit = CommonParameters.maxIdentifierBytes
        if let (name, bytes) = common.deviceTooLong(for: endpoint) {
            reader.add(
                name, .deviceIDTooLong,
                "\(name) is \(bytes) bytes; a device id is 36 characters (an IDFV is a UUID), so this one is likely not what the app meant to send; the server keeps this device's state under its first \(limit) bytes"
            )
        }
        // On a launch, `n` is the app's name, not an event.
        if let bytes = common.eventTooLong, !endpoint.isLaunch {
            reader.add(
                .event, .eventNameTooLong,
                "n is \(bytes) bytes; event names are short (__SESSION__, purchase), and the server counts this one under its first \(limit) bytes"
            )
        }
    }

    private func identityFindings(
        _ endpoint: SKANEndpoint, _ common: CommonParameters, _ reader: inout ParameterReader, path: String
    ) {
        if !common.has(.apiKey) {
            reader.add(.apiKey, .missingParameter, MissingAPIKey.message(endpoint: endpoint, path: path))
        }
        if common.event == nil {
            reader.add(.event, .missingParameter, "n (the event name, __SESSION__ for a session) is missing")
        }
        if common.device == nil {
            reader.add(
                .idfv, .missingParameter,
                "no device id: send idfv (or sing, or idfa) so that the server can keep this device's state")
        }
    }

    /// The journal's `event` is `n`, but for a launch: that is a session, and its `n` the app's name.
    private func outcome(
        _ endpoint: SKANEndpoint, _ body: [UInt8], _ common: CommonParameters, _ skan: SKANMetadata,
        _ window: SKANWindow?, _ findings: [ValidationFinding], _ now: Int64
    ) -> SKANOutcome {
        SKANOutcome(
            endpoint: endpoint, status: 200, body: body, device: common.device(for: endpoint),
            event: endpoint.isLaunch ? Self.session : common.event,
            skan: skan, window: window, findings: findings, timeMilliseconds: now)
    }

    /// Runs `body` on the device's state under the service lock: in place normally; on a copy with
    /// `strict`, kept only when `body` accepts the request; on a copy never kept when `commit` is
    /// false. Without a device id the state is scratch (this request only).
    private func withDevice(
        _ devices: inout DeviceStateStore, _ key: String?, _ now: Int64, commit: Bool,
        _ body: (inout DeviceState) -> (body: [UInt8], accepted: Bool)
    ) -> [UInt8] {
        func run(_ device: inout DeviceState) -> (body: [UInt8], accepted: Bool) {
            let result = body(&device)
            if result.accepted {
                device.requests += 1
                device.lastSeenMilliseconds = now
            }
            return result
        }
        guard let key else {
            var scratch = DeviceState(nowMilliseconds: now)
            return run(&scratch).body
        }
        if !commit {
            var copy = devices.peek(key) ?? DeviceState(nowMilliseconds: now)
            return run(&copy).body
        }
        if strict {
            var copy = devices.get(key) ?? DeviceState(nowMilliseconds: now)
            let result = run(&copy)
            if result.accepted { devices.set(key, copy) }
            return result.body
        }
        return devices.update(key, make: { DeviceState(nowMilliseconds: now) }, { run(&$0).body })
    }

    // MARK: SKAN 3

    private func handleSKAN3(
        _ common: CommonParameters, _ reader: inout ParameterReader, path: String, _ now: Int64,
        _ commit: Bool, _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let p = SKAN3Parameters.parse(&reader)
        identityFindings(.skan3, common, &reader, path: path)
        var findings = reader.findings
        var hits = EntryHits()
        var counted: CoverageHits?
        let body: [UInt8] = state.withLock { s in
            let model = s.model
            let body = withDevice(&s.devices, common.device, now, commit: commit) { device in
                if let v = p.conversionValue {
                    if let highest = device.skan3.highestValueSent, v < highest {
                        findings.append(
                            ValidationFinding(
                                param: SKAN3Parameters.conversionValueName.name, code: .skan3ValueDecreased,
                                message:
                                    "conversion_value \(v) is lower than \(highest), which this device sent before; SKAN 3 values never go down"
                            ))
                    }
                    if v > (device.skan3.highestValueSent ?? -1) { device.skan3.highestSentMilliseconds = now }
                    device.skan3.highestValueSent = max(device.skan3.highestValueSent ?? v, v)
                }
                if let first = p.firstCall { device.skan3.firstCallSeconds = first }
                if let event = common.event {
                    device.skan3.eventBytes += DeviceState.count(event, in: &device.skan3.events)
                }

                var answer: Int64?
                var body: [UInt8]
                switch p.valueProblem {
                case .missing:
                    body = SKANResponse.error(
                        "conversion_value is missing; send the current conversion value (initialise it to 0 before the first call)"
                    )
                case .notAnInteger(let text):
                    body = SKANResponse.error(
                        "conversion_value \(quoted(text)) is not an integer; send the current conversion value (initialise it to 0 before the first call)"
                    )
                case nil:
                    let current = p.conversionValue ?? 0
                    switch model.skan3 {
                    case .increment(let max, let whenExhausted):
                        if current < max {
                            answer = Swift.min(63, Swift.max(0, current + 1))
                            body = SKANResponse.skan3(answer!)
                        } else {
                            body = whenExhausted == .empty ? [] : SKANResponse.ok()
                        }
                    case .rules(let table):
                        let days = p.firstCall.map {
                            floorDivide(saturatingSubtract(floorDivide(now, 1000), $0), 86_400)
                        }
                        var context = EvaluationContext(
                            counts: device.skan3.events, daysSinceFirstCall: days, rates: model.currency,
                            totalIAP: (p.totalRevenue, SKAN3Parameters.totalRevenueName.name), totalAdmon: (nil, ""),
                            windowIAP: (nil, ""), windowAdmon: (nil, ""))
                        let chosen = table.evaluate(&context)?.fine ?? current
                        hits = context.hits
                        hits.table = 0
                        findings.append(contentsOf: context.findings)
                        answer = Swift.min(63, Swift.max(0, Swift.max(current, chosen)))
                        body = SKANResponse.skan3(answer!)
                    }
                }
                if strict, let first = findings.first { return (SKANResponse.error(first.message), false) }
                let previous = device.skan3.lastValueReturned
                if let adopted {
                    if adopted.ok, let value = adopted.value { device.skan3.lastValueReturned = value }
                } else {
                    device.skan3.lastValueReturned = answer ?? device.skan3.lastValueReturned
                }
                if let value = device.skan3.lastValueReturned, value > (previous ?? -1) {
                    device.skan3.lastRaisedMilliseconds = now
                }
                return (body, true)
            }
            if State.kept(commit: commit, strict: strict, findings: findings) { counted = s.coverage.record(hits) }
            return body
        }
        var result = outcome(.skan3, body, common, .skan3(p), nil, findings, now)
        result.coverage = counted
        return result
    }

    // MARK: SKAN 4

    private func handleSKAN4(
        _ common: CommonParameters, _ reader: inout ParameterReader, path: String, _ now: Int64,
        _ commit: Bool, _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let p = SKAN4Parameters.parse(&reader)
        identityFindings(.skan4, common, &reader, path: path)
        if p.firstCall == nil && !reader.has(p.firstCallName) {
            reader.add(
                p.firstCallName, .missingParameter,
                "\(p.firstCallName.name) is missing, so no window can be chosen; the snippet sets it in registerAppForAdNetworkAttribution"
            )
        }
        let window = p.firstCall.map { SKANWindow.at(firstCallSeconds: $0, nowMilliseconds: now) }
        p.checkConsistency(window: window, reader: &reader)
        var findings = reader.findings
        lockParameterFinding(p, window, &findings)
        var hits = EntryHits()
        var counted: CoverageHits?
        let body: [UInt8] = state.withLock { s in
            let model = s.model
            let body = withDevice(&s.devices, common.device, now, commit: commit) { device in
                let body = windowedAnswer(
                    p, window, common.event, model, &device.skan4, &findings, &hits, now, answering: true,
                    adopting: adopted
                ) { fine, answer in
                    SKANResponse.skan4(fine: fine, coarse: answer.coarse, lock: answer.lock)
                }
                if strict, let first = findings.first { return (SKANResponse.error(first.message), false) }
                return (body, true)
            }
            if State.kept(commit: commit, strict: strict, findings: findings) { counted = s.coverage.record(hits) }
            return body
        }
        var result = outcome(.skan4, body, common, .skan4(p), window, findings, now)
        result.coverage = counted
        return result
    }

    /// The client says the current window is locked, yet asks for an update in it.
    private func lockParameterFinding(
        _ p: SKAN4Parameters, _ window: SKANWindow?, _ findings: inout [ValidationFinding]
    ) {
        guard let n = window?.index, let lock = p.windows[n].windowLock else { return }
        let name = SKANWindowParameters.windowLockName(n).name
        findings.append(
            ValidationFinding(
                param: name, code: .updateAfterWindowLock,
                message:
                    "\(name) is set (\(lock)): p\(n) was locked, so iOS ignores this update; stop asking for values \(n + 1 < 3 ? "until p\(n + 1) begins" : "(p2 is the last window)")"
            ))
    }

    /// The SKAN 4 logic shared by `/api/v2/conversion_value` and the S2S endpoints: counts the event,
    /// runs the findings that need the device's history, evaluates the window's table and remembers
    /// what was answered. `render` turns the chosen fine value and answer into the body. `answering`
    /// is false where no value is asked for (an S2S notification the model does not answer): then
    /// the model is not consulted and nothing but the client's own values and the event count
    /// becomes device state, since only values actually sent may be held against later requests.
    private func windowedAnswer(
        _ p: SKAN4Parameters, _ window: SKANWindow?, _ event: String?, _ model: ConversionModel,
        _ device: inout WindowedDeviceState, _ findings: inout [ValidationFinding],
        _ hits: inout EntryHits, _ now: Int64, answering: Bool, adopting adopted: AppliedAnswer? = nil,
        render: (Int64, ModelAnswer) -> [UInt8]
    ) -> [UInt8] {
        guard let window, let n = window.index, let first = p.firstCall else { return SKANResponse.ok() }
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
        if let adopted, adopted.ok, adopted.value != nil || adopted.coarse != nil || adopted.lock != nil {
            // The client got another answer than the model's: its values are the device's now.
            let current = Swift.min(63, Swift.max(0, p.currentFine ?? 0))
            let adoptedFine = n == 0 ? (adopted.value ?? current) : current
            device.lastReturned[n] = ModelAnswer(fine: adoptedFine, coarse: adopted.coarse, lock: adopted.lock ?? false)
            device.lastSetMilliseconds[n] = now
            if adopted.lock == true {
                device.lockedByServer[n] = true
                device.lock(n, at: now)
            }
            if n == 0 { device.p0Fine = adoptedFine }
        }
        guard answering, let table = model.skan4[n] else { return SKANResponse.ok() }
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
        guard let answer = chosen else { return SKANResponse.ok() }
        let current = Swift.min(63, Swift.max(0, p.currentFine ?? 0))
        let fine = n == 0 ? (answer.fine ?? current) : current
        // What the model would answer is rendered; only an answer the client got is remembered.
        if adopted != nil { return render(fine, answer) }
        device.lastReturned[n] = ModelAnswer(fine: fine, coarse: answer.coarse, lock: answer.lock)
        device.lastSetMilliseconds[n] = now
        if answer.lock {
            device.lockedByServer[n] = true
            device.lock(n, at: now)
        }
        if n == 0 { device.p0Fine = fine }
        return render(fine, answer)
    }

    // MARK: S2S

    /// A session or event notification. It asks for a value only when the model's `s2s` section
    /// turns the endpoint on; otherwise a forwarded `pN_window_lock` is news, not a mistake, and
    /// gets no lock finding.
    private func handleS2S(
        _ endpoint: SKANEndpoint, _ common: CommonParameters, _ reader: inout ParameterReader, path: String,
        _ now: Int64, _ commit: Bool, _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let s2s = S2SParameters.parse(&reader, common: common, endpoint: endpoint, path: path)
        let p = s2s.skan
        let window = p.firstCall.map { SKANWindow.at(firstCallSeconds: $0, nowMilliseconds: now) }
        p.checkConsistency(window: window, reader: &reader)
        var findings = reader.findings
        if let refusal = s2s.refusal {
            return outcome(endpoint, SKANResponse.error(refusal), common, .skan4(p), window, findings, now)
        }
        // On Singular's S2S session endpoint `n` is the application's name, not an event (RudderStack
        // maps it from the app name; Singular's Python sample sends n='Go Go Magnet!'): a launch is a
        // session, whatever its `n`.
        let event = endpoint.isLaunch ? Self.session : common.event
        var hits = EntryHits()
        var counted: CoverageHits?
        let body: [UInt8] = state.withLock { s in
            let model = s.model
            let asksForValue = model.isActive(for: endpoint)
            if asksForValue { lockParameterFinding(p, window, &findings) }
            let body = withDevice(&s.devices, common.device(for: endpoint), now, commit: commit) { device in
                let body = windowedAnswer(
                    p, window, event, model, &device.s2s, &findings, &hits, now, answering: asksForValue,
                    adopting: adopted
                ) { fine, _ in
                    SKANResponse.s2s(fine)
                }
                if strict, let first = findings.first { return (SKANResponse.error(first.message), false) }
                return (body, true)
            }
            // An S2S endpoint the model does not answer values on used no entry.
            if asksForValue && State.kept(commit: commit, strict: strict, findings: findings) {
                counted = s.coverage.record(hits)
            }
            return body
        }
        var result = outcome(endpoint, body, common, .skan4(p), window, findings, now)
        result.coverage = counted
        return result
    }
}
