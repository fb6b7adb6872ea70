import Dispatch
import HTTPCore
import SKANDomain

/// The admin API under `/__admin` (SPEC §4): what tests and QA use to read the journal, inspect
/// devices, swap the model and reset between cases. Not on the hot path, so answers are built as
/// `JSONValue`s for clarity.
struct AdminRoutes: Sendable {
    let context: AppContext

    private var service: ConversionService { context.service }
    private var journal: Journal { context.journal }

    func register(on router: inout HTTPRouter) {
        router.on(.get, "/__admin/health") { _, _, writer in writer.send(health()) }
        router.on(.get, "/__admin/requests") { request, _, writer in
            writer.send(withFilter(request) { .json(journal.query($0).json()) })
        }
        router.on(.get, "/__admin/requests/count") { request, _, writer in
            writer.send(withFilter(request) { Self.json(["count": .int(Int64(journal.count($0)))]) })
        }
        router.on(.delete, "/__admin/requests") { _, _, writer in
            clearJournal()
            writer.send(Self.ok)
        }
        router.on(.get, "/__admin/requests/wait") { request, _, writer in waitForRequests(request, writer) }
        router.on(.get, "/__admin/report") { request, _, writer in
            writer.send(withFilter(request) { filter in
                let entries = journal.query(filter).entries.map(\.json)
                guard context.upstream != nil, case .object(var members) = JournalReport(entries: entries).json else {
                    return Self.json(JournalReport(entries: entries).json)
                }
                // With --upstream: how the model's answers compared with the upstream's.
                members.append(JSONMember("upstream", UpstreamReport(entries: entries).json))
                return Self.json(.object(members))
            })
        }
        router.on(.get, "/__admin/requests/mark") { _, _, writer in
            writer.send(Self.json(["last_id": .int(journal.lastId)]))
        }
        router.on(.post, "/__admin/reset") { request, _, writer in writer.send(reset(request)) }
        router.on(.get, "/__admin/faults") { _, _, writer in
            writer.send(Self.json(["faults": context.faults.json]))
        }
        router.on(.put, "/__admin/faults") { request, _, writer in writer.send(replaceFaults(request)) }
        router.on(.delete, "/__admin/faults") { _, _, writer in
            context.faults.clear()
            writer.send(Self.ok)
        }
        router.on(.get, "/__admin/clock") { _, _, writer in writer.send(clock()) }
        router.on(.put, "/__admin/clock") { request, _, writer in writer.send(moveClock(request)) }
        router.on(.get, "/__admin/metrics") { _, _, writer in
            let text = context.metrics.render(
                journalSize: journal.size, journalDropped: journal.dropped, devices: service.deviceCount,
                uptimeSeconds: uptimeSeconds, journalFile: context.journalFile?.status
            )
            writer.send(HTTPResponse(headers: ["Content-Type": "text/plain; version=0.0.4"], body: Array(text.utf8)))
        }
        router.on(.get, "/__admin/coverage") { _, _, writer in
            writer.send(Self.json(service.coverageJSON))
        }
        router.on(.get, "/__admin/model") { _, _, writer in
            writer.send(.json(JSONWriter.serialize(service.model.json)))
        }
        router.on(.get, "/__admin/openapi.yaml") { _, _, writer in
            writer.send(HTTPResponse(headers: ["Content-Type": "application/yaml"], body: Array(OpenAPIDocument.yaml.utf8)))
        }
        router.on(.put, "/__admin/model") { request, _, writer in writer.send(replaceModel(request)) }
        router.on(.get, "/__admin/devices/{device}") { _, parameters, writer in
            let device = parameters["device"] ?? ""
            guard let state = service.deviceState(device) else {
                writer.send(.jsonError("unknown device \(device)", status: .notFound))
                return
            }
            writer.send(.json(JSONWriter.serialize(state)))
        }
    }

    private var uptimeSeconds: Int64 { (MonotonicClock.microseconds() - context.startedAt) / 1_000_000 }

    private func health() -> HTTPResponse {
        let model = service.model
        var modelInfo: JSONValue = ["name": .string(model.name), "source": .string(model.source)]
        if let reloadError = context.modelStatus.reloadError, case .object(var members) = modelInfo {
            members.append(JSONMember("reload_error", .string(reloadError)))
            modelInfo = .object(members)
        }
        return Self.json([
            "status": "ok",
            "version": .string(SKANMockVersion.current),
            "uptime_s": .int(uptimeSeconds),
            "model": modelInfo,
            "clock_offset_s": .int(context.clock.offsetSeconds),
            "journal": journalHealth,
            "devices": .int(Int64(service.deviceCount)),
        ])
    }

    /// The in-memory journal, and with `--log` its file: `ok`, or `failing` since when, why, and
    /// how many lines wait to be written (and were given up).
    private var journalHealth: JSONValue {
        var members = [JSONMember("size", .int(Int64(journal.size))), JSONMember("dropped", .int(journal.dropped)),
                       JSONMember("capacity", .int(Int64(journal.capacity))), JSONMember("bytes", .int(Int64(journal.bytes))),
                       JSONMember("capacity_bytes", .int(Int64(journal.capacityBytes)))]
        if let file = context.journalFile {
            let status = file.status
            var state = [JSONMember("state", .string(status.isFailing ? "failing" : "ok"))]
            if let since = status.failingSince {
                state.append(JSONMember("since", .string(RFC3339.format(milliseconds: since))))
                state.append(JSONMember("reason", .string(status.reason ?? "")))
            }
            state.append(JSONMember("waiting", .int(Int64(status.waiting))))
            state.append(JSONMember("lost", .int(status.lost)))
            members.append(JSONMember("file", .object(state)))
        }
        return .object(members)
    }

    private func replaceModel(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let model = try ConversionModel.parse(bytes: request.body, source: "PUT /__admin/model")
            service.replaceModel(model)
            context.faults.replace(with: model.faults)
            return Self.json(["status": "ok", "model": ["name": .string(model.name), "source": .string(model.source)]])
        } catch {
            return Self.problems(error)
        }
    }

    /// A 400 listing every problem of a rejected model or fault list.
    static func problems(_ error: ModelError) -> HTTPResponse {
        let problems = error.problems.map { JSONValue.object([JSONMember("path", .string($0.path)), JSONMember("reason", .string($0.reason))]) }
        return json(["status": "error", "reason": .string(error.description), "problems": .array(problems)], status: .badRequest)
    }

    private func replaceFaults(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let rules = try FaultRule.parseList(bytes: request.body, source: "PUT /__admin/faults")
            context.faults.replace(with: rules)
            return Self.json(["status": "ok", "faults": context.faults.json])
        } catch {
            return Self.problems(error)
        }
    }

    private func clock() -> HTTPResponse {
        let now = context.clock.nowMilliseconds()
        return Self.json([
            "offset_s": .int(context.clock.offsetSeconds),
            "now": .string(RFC3339.format(milliseconds: now)),
            "now_s": .int(now / 1000),
        ])
    }

    /// `{"offset_s": N}` sets the offset from the real clock; `{"advance_s": N}` adds to it.
    private func moveClock(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = try? JSONParser.parse(request.body), let members = body.objectValue, members.count == 1,
              let member = members.first, let seconds = member.value.intValue,
              member.key == "offset_s" || member.key == "advance_s"
        else {
            return .jsonError("expected {\"offset_s\": seconds} or {\"advance_s\": seconds}", status: .badRequest)
        }
        // Bounded so the clock's arithmetic (milliseconds in an Int64) cannot overflow.
        let target = member.key == "offset_s" ? seconds : context.clock.offsetSeconds.addingReportingOverflow(seconds).partialValue
        let overflowed = member.key == "advance_s" && context.clock.offsetSeconds.addingReportingOverflow(seconds).overflow
        guard !overflowed, target >= -Self.maxClockOffsetSeconds, target <= Self.maxClockOffsetSeconds else {
            return .jsonError("the clock offset must stay within 100 years (\(Self.maxClockOffsetSeconds) s) of the real time", status: .badRequest)
        }
        context.clock.setOffset(seconds: target)
        return clock()
    }

    /// Answers when `count` entries match or the timeout runs out, whichever comes first; the
    /// request holds no thread meanwhile (the journal or a timer answers it later).
    private func waitForRequests(_ request: HTTPRequest, _ writer: HTTPResponseWriter) {
        let query: WaitQuery
        do {
            query = try WaitQuery(query: FormURLEncoding.pairs(request.query))
        } catch {
            writer.send(.jsonError(error.reason, status: .badRequest))
            return
        }
        let journal = self.journal
        let filter = query.filter
        let id = journal.wait(for: filter, count: query.count) { timedOut in
            // What the answer reports is in the journal file too, before the test reads it.
            journal.flushSink()
            writer.send(.json(Self.waitAnswer(journal.query(filter), timedOut: timedOut)))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(query.timeoutMilliseconds)) {
            journal.expire(id)
        }
    }

    /// `/__admin/requests`'s answer with `"timed_out"` added.
    static func waitAnswer(_ page: JournalPage, timedOut: Bool) -> [UInt8] {
        var bytes = page.json()
        bytes.removeLast()  // the closing brace
        bytes.append(contentsOf: Array(",\"timed_out\":\(timedOut)}".utf8))
        return bytes
    }

    /// `scope=state` (default): journal, devices, faults; `scope=all`: also the start-up model (and
    /// its faults) and the start-up clock offset. The answer lists what was reset.
    private func reset(_ request: HTTPRequest) -> HTTPResponse {
        let scope: ResetScope
        do {
            scope = try ResetScope(query: FormURLEncoding.pairs(request.query))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
        clearJournal()
        service.resetDevices()
        switch scope {
        case .state:
            context.faults.clear()
        case .all:
            service.replaceModel(context.startup.model)
            context.faults.replace(with: context.startup.model.faults)
            context.clock.setOffset(seconds: context.startup.clockOffsetSeconds)
        }
        return Self.json(["status": "ok", "reset": .array(scope.parts.map { .string($0) })])
    }

    private func withFilter(_ request: HTTPRequest, _ body: (JournalFilter) -> HTTPResponse) -> HTTPResponse {
        do {
            return body(try JournalFilter(query: FormURLEncoding.pairs(request.query)))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
    }

    /// Empties the journal and the model coverage counted with it.
    private func clearJournal() {
        journal.clear()
        service.resetCoverage()
    }

    static let maxClockOffsetSeconds = ServerOptions.maxClockOffsetSeconds

    static let ok = HTTPResponse.json("{\"status\":\"ok\"}")

    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        .json(JSONWriter.serialize(value), status: status)
    }
}
