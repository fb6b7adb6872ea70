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
/// // or read once, then answer: let parsed = ParsedSKANRequest(endpoint, request, nowMilliseconds: now)
/// //                           ReplayKey(parsed); service.answer(parsed, commit:adopting:)
/// // commit: false answers without changing the device (a fault replaced the answer);
/// // adopting: AppliedAnswer.received(status:body:), what the client really got (a proxy's or a replay's
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
    /// client's retry gets the same answer. Only Singular's endpoints come here: a path none
    /// serves is refused before (`SKANOutcome.refused`), and a postback is no request of theirs.
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
        // Read and answered at once: each family's parameters stay in this frame (see `Reading`).
        var reading = ParsedSKANRequest.Reading(endpoint, request, nowMilliseconds: time ?? clock.nowMilliseconds())
        switch endpoint {
        case .skan3:
            let p = reading.skan3()
            return answerSKAN3(reading.head, p, reading.findings, commit, adopted)
        case .skan4:
            let p = reading.skan4()
            let decision = reading.window(for: p)
            return answerSKAN4(reading.head, p, decision, reading.findings, commit, adopted)
        case .launch, .event, .launch2, .event2:
            let s2s = reading.s2s()
            let decision = reading.window(for: s2s.skan)
            return answerS2S(reading.head, s2s.skan, decision, s2s.refusal, reading.findings, commit, adopted)
        }
    }

    /// Answers a request read already (`--replay` reads first, to find the recording): the same
    /// rules as `handle`.
    public func answer(
        _ parsed: ParsedSKANRequest, commit: Bool = true, adopting adopted: AppliedAnswer? = nil
    ) -> SKANOutcome {
        switch parsed.family {
        case .skan3(let p): return answerSKAN3(parsed.head, p, parsed.findings, commit, adopted)
        case .skan4(let p, let decision):
            return answerSKAN4(parsed.head, p, decision, parsed.findings, commit, adopted)
        case .s2s(let p, let decision, let refusal):
            return answerS2S(parsed.head, p, decision, refusal, parsed.findings, commit, adopted)
        }
    }

    /// The event name of a session.
    static let session = "__SESSION__"

    private func outcome(
        _ head: ParsedSKANRequest.Head, _ body: [UInt8], _ skan: SKANMetadata, _ window: SKANWindow?,
        _ findings: [ValidationFinding], _ coverage: CoverageHits?
    ) -> SKANOutcome {
        var outcome = SKANOutcome(
            endpoint: head.endpoint, status: 200, body: body, device: head.device, event: head.event,
            skan: skan, window: window, findings: findings, timeMilliseconds: head.nowMilliseconds)
        outcome.coverage = coverage
        return outcome
    }

    /// Runs one request's rules under the service lock on its device's state: in place normally;
    /// on a copy with `strict`, kept only when the request has no finding; on a copy never kept
    /// when `commit` is false. Without a device id the state is scratch (this request only). The
    /// entries the rules used count in the coverage when the request is kept (for `s2s`, an S2S
    /// endpoint, only when the model answers values on it).
    private func decide(
        device key: String?, _ now: Int64, commit: Bool, _ findings: inout [ValidationFinding],
        s2s: SKANEndpoint? = nil,
        _ rules: (ConversionModel, inout DeviceState, inout [ValidationFinding], inout EntryHits) -> [UInt8]
    ) -> (body: [UInt8], coverage: CoverageHits?) {
        state.withLock { s in
            let model = s.model
            var hits = EntryHits()
            // Findings and hits are passed, not captured: a nested function capturing a `var`
            // boxes it and checks each access at run time.
            func run(_ device: inout DeviceState, _ findings: inout [ValidationFinding], _ hits: inout EntryHits)
                -> (body: [UInt8], accepted: Bool)
            {
                let body = rules(model, &device, &findings, &hits)
                if strict, let first = findings.first { return (SKANResponse.error(first.message), false) }
                device.requests += 1
                device.lastSeenMilliseconds = now
                return (body, true)
            }
            let body: [UInt8]
            if let key {
                if !commit {
                    var copy = s.devices.peek(key) ?? DeviceState(nowMilliseconds: now)
                    body = run(&copy, &findings, &hits).body
                } else if strict {
                    var copy = s.devices.get(key) ?? DeviceState(nowMilliseconds: now)
                    let result = run(&copy, &findings, &hits)
                    if result.accepted { s.devices.set(key, copy) }
                    body = result.body
                } else {
                    body = s.devices.update(
                        key, make: { DeviceState(nowMilliseconds: now) }, { run(&$0, &findings, &hits).body })
                }
            } else {
                var scratch = DeviceState(nowMilliseconds: now)
                body = run(&scratch, &findings, &hits).body
            }
            // An S2S endpoint the model answers no values on used no entry.
            let kept =
                State.kept(commit: commit, strict: strict, findings: findings)
                && (s2s.map { model.isActive(for: $0) } ?? true)
            return (body, kept ? s.coverage.record(hits) : nil)
        }
    }

    // MARK: SKAN 3

    private func answerSKAN3(
        _ head: ParsedSKANRequest.Head, _ p: SKAN3Parameters, _ read: [ValidationFinding], _ commit: Bool,
        _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let now = head.nowMilliseconds
        var findings = read
        let (body, coverage) = decide(device: head.device, now, commit: commit, &findings) {
            model, device, findings, hits in
            let (body, value) = SKAN3Rules(model: model).answer(
                p, event: head.common.event, device: &device.skan3, findings: &findings, hits: &hits, now: now)
            let kept: Int64? = if let adopted { adopted.ok ? adopted.value : nil } else { value }
            device.skan3.remember(kept, at: now)
            return body
        }
        return outcome(head, body, .skan3(p), nil, findings, coverage)
    }

    // MARK: SKAN 4

    private func answerSKAN4(
        _ head: ParsedSKANRequest.Head, _ p: SKAN4Parameters, _ decision: WindowDecision, _ read: [ValidationFinding],
        _ commit: Bool, _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let now = head.nowMilliseconds
        var findings = read
        if let lock = decision.lockParameterFinding(p) { findings.append(lock) }
        let (body, coverage) = decide(device: head.device, now, commit: commit, &findings) {
            model, device, findings, hits in
            let chosen = WindowedRules(model: model).answer(
                p, decision, event: head.common.event, device: &device.skan4, findings: &findings, hits: &hits,
                now: now, answering: true, adopting: adopted)
            guard let (fine, answer) = chosen else { return SKANResponse.ok() }
            return SKANResponse.skan4(fine: fine, coarse: answer.coarse, lock: answer.lock)
        }
        return outcome(head, body, .skan4(p), decision.window, findings, coverage)
    }

    // MARK: S2S

    /// A session or event notification. It asks for a value only when the model's `s2s` section
    /// turns the endpoint on; otherwise a forwarded `pN_window_lock` is news, not a mistake, and
    /// gets no lock finding, and no entry of the model is used. On Singular's S2S session endpoint
    /// `n` is the application's name, not an event (RudderStack maps it from the app name;
    /// Singular's Python sample sends n='Go Go Magnet!'): a launch is a session, whatever its `n`.
    private func answerS2S(
        _ head: ParsedSKANRequest.Head, _ p: SKAN4Parameters, _ decision: WindowDecision, _ refusal: String?,
        _ read: [ValidationFinding], _ commit: Bool, _ adopted: AppliedAnswer?
    ) -> SKANOutcome {
        let now = head.nowMilliseconds
        let endpoint = head.endpoint
        var findings = read
        if let refusal {
            return outcome(head, SKANResponse.error(refusal), .skan4(p), decision.window, findings, nil)
        }
        let (body, coverage) = decide(
            device: head.device, now, commit: commit, &findings, s2s: endpoint
        ) { model, device, findings, hits in
            let asksForValue = model.isActive(for: endpoint)
            if asksForValue, let lock = decision.lockParameterFinding(p) { findings.append(lock) }
            let chosen = WindowedRules(model: model).answer(
                p, decision, event: head.event, device: &device.s2s, findings: &findings, hits: &hits, now: now,
                answering: asksForValue, adopting: adopted)
            guard let (fine, _) = chosen else { return SKANResponse.ok() }
            return SKANResponse.s2s(fine)
        }
        return outcome(head, body, .skan4(p), decision.window, findings, coverage)
    }
}
