import HTTPCore
import SKANDomain

/// The admin API under `/__admin` (SPEC §4): what tests and QA use to read the journal, inspect
/// devices, swap the model and reset between cases. Not on the hot path, so answers are built as
/// `JSONValue`s for clarity.
struct AdminRoutes: Sendable {
    let service: ConversionService
    let journal: Journal
    let startedAt: Int64

    func register(on router: inout HTTPRouter) {
        router.on(.get, "/__admin/health") { _, _, writer in writer.send(health()) }
        router.on(.get, "/__admin/requests") { request, _, writer in
            writer.send(withFilter(request) { .json(journal.query($0).json()) })
        }
        router.on(.get, "/__admin/requests/count") { request, _, writer in
            writer.send(withFilter(request) { Self.json(["count": .int(Int64(journal.count($0)))]) })
        }
        router.on(.delete, "/__admin/requests") { _, _, writer in
            journal.clear()
            writer.send(Self.ok)
        }
        router.on(.post, "/__admin/reset") { _, _, writer in
            journal.clear()
            service.resetDevices()
            writer.send(Self.ok)
        }
        router.on(.get, "/__admin/model") { _, _, writer in
            writer.send(.json(JSONWriter.serialize(service.model.json)))
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

    private func health() -> HTTPResponse {
        let model = service.model
        let uptime = (MonotonicClock.microseconds() - startedAt) / 1_000_000
        return Self.json([
            "status": "ok",
            "version": .string(SKANMockVersion.current),
            "uptime_s": .int(uptime),
            "model": ["name": .string(model.name), "source": .string(model.source)],
            "journal": [
                "size": .int(Int64(journal.size)), "dropped": .int(journal.dropped),
                "capacity": .int(Int64(journal.capacity)),
            ],
            "devices": .int(Int64(service.deviceCount)),
        ])
    }

    private func replaceModel(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let model = try ConversionModel.parse(bytes: request.body, source: "PUT /__admin/model")
            service.replaceModel(model)
            return Self.json(["status": "ok", "model": ["name": .string(model.name), "source": .string(model.source)]])
        } catch {
            let problems = error.problems.map { JSONValue.object([JSONMember("path", .string($0.path)), JSONMember("reason", .string($0.reason))]) }
            return Self.json(
                ["status": "error", "reason": .string(error.description), "problems": .array(problems)],
                status: .badRequest
            )
        }
    }

    private func withFilter(_ request: HTTPRequest, _ body: (JournalFilter) -> HTTPResponse) -> HTTPResponse {
        do {
            return body(try JournalFilter(query: FormURLEncoding.pairs(request.query)))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
    }

    static let ok = HTTPResponse.json("{\"status\":\"ok\"}")

    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        .json(JSONWriter.serialize(value), status: status)
    }
}
