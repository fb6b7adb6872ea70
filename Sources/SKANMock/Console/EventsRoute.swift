import HTTPCore
import SKANDomain

/// `GET /__admin/events`: the journal as Server-Sent Events, for the console and for anyone who
/// wants to watch a run live (`curl -N`). Filters as `/__admin/requests` (`device`, `endpoint`,
/// `event`, `has_issues`, `window`, `since_id`); `token` stands in for the `Authorization` header,
/// which `EventSource` cannot send.
struct EventsRoute: AdminRouteCollection {
    let server: ServerComponents

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/events") { request, _, scope, writer in open(request, scope, writer) }
    }

    private func open(_ request: HTTPRequest, _ scope: TenantScope, _ writer: HTTPResponseWriter) {
        let filter: JournalFilter
        do {
            filter = scope.scoped(try Self.filter(FormURLEncoding.pairs(request.query)))
        } catch {
            writer.send(.jsonError(error.reason, status: .badRequest))
            return
        }
        let start = EventStreamSession.start(
            lastEventId: request.headers["Last-Event-ID"], sinceId: filter.sinceId, bootId: server.bootId)
        var head = HTTPResponse(status: .ok)
        head.headers.set("Content-Type", "text/event-stream; charset=utf-8")
        head.headers.set("Cache-Control", "no-cache")
        head.headers.set("X-Accel-Buffering", "no")
        let stream = writer.stream(head)
        let session = EventStreamSession(
            bootId: server.bootId, filter: filter, journal: scope.journal,
            transport: HTTPStreamTransport(stream: stream), timer: server.timer)
        // An open console keeps its tenant in use: the registry never drops it meanwhile.
        let tenant = scope.tenant
        tenant.hold()
        stream.onClose {
            tenant.release()
            session.close()
        }
        // Tells the client how long to wait before it reconnects.
        stream.write(Array("retry: 1000\n\n".utf8))
        session.open(start)
    }

    /// The filters of `/__admin/requests` but `limit`, plus `token`.
    static func filter(_ query: [(name: String, value: String)]) throws(AdminQueryError) -> JournalFilter {
        let names: Set<String> = ["device", "endpoint", "event", "window", "has_issues", "since_id"]
        var rest: [(name: String, value: String)] = []
        for pair in query where pair.name != "token" {
            guard names.contains(pair.name) else {
                throw AdminQueryError(
                    reason: "unknown filter \(pair.name); use device, endpoint, event, window, has_issues, since_id")
            }
            rest.append(pair)
        }
        return try JournalFilter(query: rest)
    }
}

/// An event stream session's bytes, written to the HTTP connection.
struct HTTPStreamTransport: EventStreamTransport {
    let stream: HTTPStream

    func write(_ bytes: [UInt8]) { stream.write(bytes) }
    var pendingBytes: Int { stream.pendingBytes }
    func close() { stream.close() }
}
