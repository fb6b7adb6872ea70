import HTTPCore
import SKANDomain

/// The journal: `GET /__admin/requests` (filtered), `/count`, `/mark`, `/wait`, the same entries
/// as a HAR file (`/__admin/requests.har`), and `DELETE /__admin/requests`.
struct JournalRoutes: AdminRouteCollection {
    /// Ends a wait that ran out of time.
    let timer: ServerTimer

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/requests") { request, _, scope, writer in
            writer.send(AdminResponse.withFilter(request) { .json(scope.entries($0).json()) })
        }
        group.on(.get, "/requests.har") { request, _, scope, writer in
            writer.send(AdminResponse.withFilter(request) { Self.har(scope.entries($0), request) })
        }
        group.on(.get, "/requests/count") { request, _, scope, writer in
            writer.send(
                AdminResponse.withFilter(request) {
                    AdminResponse.json(["count": .int(Int64(scope.journal.count(scope.scoped($0))))])
                })
        }
        group.on(.get, "/requests/mark") { _, _, scope, writer in
            writer.send(AdminResponse.json(["last_id": .int(scope.journal.lastId)]))
        }
        group.on(.get, "/requests/wait") { request, _, scope, writer in Self.wait(request, scope, writer, timer) }
        group.on(.delete, "/requests") { _, _, scope, writer in
            scope.clearJournal()
            writer.send(AdminResponse.ok)
        }
    }

    /// The entries as a HAR file for Proxyman, Charles or a browser (`HARWriter`), their URLs on
    /// the host the request named, so the file shows the addresses the app used.
    static func har(_ page: JournalPage, _ request: HTTPRequest) -> HTTPResponse {
        let origin = (request.tlsVersion == nil ? "http://" : "https://") + (request.headers["Host"] ?? "127.0.0.1")
        let body = HARWriter.document(
            page.entries.compactMap(\.record), origin: origin, creatorVersion: SKANMockVersion.current)
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "application/json",
                "Content-Disposition": "attachment; filename=\"skan-mock.har\""
            ], body: body)
    }

    /// Answers when `count` entries match or the timeout runs out, whichever comes first; the
    /// request holds no thread meanwhile (the journal or a timer answers it later).
    private static func wait(
        _ request: HTTPRequest, _ scope: TenantScope, _ writer: HTTPResponseWriter, _ timer: ServerTimer
    ) {
        let query: WaitQuery
        do {
            query = try WaitQuery(query: FormURLEncoding.pairs(request.query))
        } catch {
            writer.send(.jsonError(error.reason, status: .badRequest))
            return
        }
        let journal = scope.journal
        let filter = scope.scoped(query.filter)
        // A pending wait keeps its tenant in use: the registry never drops it meanwhile.
        let tenant = scope.tenant
        tenant.hold()
        let id = journal.wait(for: filter, count: query.count) { timedOut in
            tenant.release()
            // What the answer reports is in the journal file too, before the test reads it. This
            // may run on the event loop that recorded the request: the write happens on the file's
            // own queue, which then answers.
            journal.flushSink {
                writer.send(.json(journal.query(filter).json(extra: [JSONMember("timed_out", .bool(timedOut))])))
            }
        }
        timer.after(query.timeoutMilliseconds) { journal.expire(id) }
    }
}
