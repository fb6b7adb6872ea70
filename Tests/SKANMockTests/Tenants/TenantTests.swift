import Foundation
import HTTPCore
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// Tenants (`/t/NAME`) in process: several tests' clients on one server, interleaved in an order
/// the test sets, each seeing only its own effects. No sockets, no sleeps.
@Suite("Tenants in process")
struct TenantTests {
    private func json(_ answer: InProcessServer.Answer) -> JSONValue {
        (try? JSONParser.parse(Array(answer.text.utf8))) ?? .null
    }

    /// Issue 47.5: a named tenant keeps its share of the received postbacks' bound, so that bodies
    /// posted to every tenant hold no more than twice the default tenant's bound in all.
    @Test func eachNamedTenantKeepsAShareOfTheReceivedPostbacks() {
        var options = ServerOptions()
        options.maxTenants = 64
        let whole = ReceivedPostbackStore()
        let share = Tenant.receivedPostbackBounds(options)
        #expect(share.capacity == 16 && share.bytes == 64 << 10)
        #expect(share.bytes * options.maxTenants <= whole.capacityBytes)
        options.maxTenants = 2
        #expect(Tenant.receivedPostbackBounds(options) == (capacity: 500, bytes: 2 << 20))
        let tenant = Tenant.fresh(named: "a", model: .builtIn, baseClock: ManualClock(seconds: 0), options: options)
        #expect(tenant.receivedPostbacks.capacity == 500 && tenant.receivedPostbacks.capacityBytes == 2 << 20)
    }

    @Test func interleavedTenantsSeeOnlyTheirOwnEffects() throws {
        let mock = try InProcessServer()
        // Every tenant's first request, then each one's set-up in turn.
        #expect(mock.session("D1", path: "/t/a/api/v2/conversion_value").status == 200)
        #expect(mock.session("D1", path: "/t/b/api/v2/conversion_value").status == 200)
        #expect(mock.session("D1").status == 200)
        let fault = #"{"faults":[{"endpoint":"skan4","type":"status","status":503,"times":1}]}"#
        #expect(mock.send(.put, "/t/a/__admin/faults", body: fault).status == 200)
        #expect(mock.send(.put, "/t/b/__admin/clock", body: #"{"advance_s":172800}"#).status == 200)
        let model = try String(contentsOfFile: Self.revenueModelPath(), encoding: .utf8)
        #expect(mock.send(.put, "/t/c/__admin/model", body: model).status == 200)
        // A's fault is for A's next request only: B's and the default tenant's are answered.
        #expect(mock.session("D2", path: "/t/b/api/v2/conversion_value").status == 200)
        #expect(mock.session("D2").status == 200)
        #expect(mock.session("D2", path: "/t/a/api/v2/conversion_value").status == 503)
        #expect(mock.session("D3", path: "/t/a/api/v2/conversion_value").status == 200)
        // B's clock moved; nobody else's did.
        #expect(json(mock.send(.get, "/t/b/__admin/clock"))["offset_s"] == 172800)
        #expect(json(mock.send(.get, "/t/a/__admin/clock"))["offset_s"] == 0)
        #expect(json(mock.send(.get, "/__admin/clock"))["offset_s"] == 0)
        // C's model is its own.
        #expect(json(mock.send(.get, "/t/c/__admin/model"))["name"] == "singular-revenue")
        #expect(json(mock.send(.get, "/t/a/__admin/model"))["name"] == "singular-testing")
        #expect(json(mock.send(.get, "/__admin/health"))["model"]?["name"] == "singular-testing")
        // Each journal view holds its own entries only.
        #expect(json(mock.send(.get, "/t/a/__admin/requests/count"))["count"] == 3)
        #expect(json(mock.send(.get, "/t/b/__admin/requests/count"))["count"] == 2)
        #expect(json(mock.send(.get, "/t/c/__admin/requests/count"))["count"] == 0)
        #expect(json(mock.send(.get, "/__admin/requests/count"))["count"] == 2)
        let aEntries = json(mock.send(.get, "/t/a/__admin/requests"))["requests"]?.arrayValue ?? []
        #expect(aEntries.allSatisfy { $0["tenant"] == "a" && $0["path"] == "/api/v2/conversion_value" })
        let rootEntries = json(mock.send(.get, "/__admin/requests"))["requests"]?.arrayValue ?? []
        #expect(rootEntries.count == 2 && rootEntries.allSatisfy { $0["tenant"] == nil })
        // A's reset (every scope) leaves B's journal, devices and clock, and the default tenant's.
        #expect(mock.send(.post, "/t/a/__admin/reset?scope=all").status == 200)
        #expect(json(mock.send(.get, "/t/a/__admin/requests/count"))["count"] == 0)
        #expect(mock.send(.get, "/t/a/__admin/devices/D1").status == 404)
        #expect(json(mock.send(.get, "/t/b/__admin/requests/count"))["count"] == 2)
        #expect(json(mock.send(.get, "/t/b/__admin/clock"))["offset_s"] == 172800)
        #expect(mock.send(.get, "/t/b/__admin/devices/D1").status == 200)
        #expect(json(mock.send(.get, "/__admin/requests/count"))["count"] == 2)
        // The default tenant's reset leaves the named ones'.
        #expect(mock.send(.post, "/__admin/reset?scope=all").status == 200)
        #expect(json(mock.send(.get, "/__admin/requests/count"))["count"] == 0)
        #expect(json(mock.send(.get, "/t/b/__admin/requests/count"))["count"] == 2)
        #expect(json(mock.send(.get, "/t/c/__admin/model"))["name"] == "singular-revenue")
        // A wait and a report in a tenant see only its entries.
        let wait = json(mock.send(.get, "/t/b/__admin/requests/wait?count=2&timeout_ms=1000"))
        #expect(wait["total"] == 2 && wait["timed_out"] == false)
        #expect(json(mock.send(.get, "/t/b/__admin/report"))["requests"] == 2)
    }

    /// A tenant's wait is answered by its own requests, never another tenant's.
    @Test func aWaitCountsItsOwnTenantsRequestsOnly() throws {
        let mock = try InProcessServer()
        let waiting = mock.send(.get, "/t/a/__admin/requests/wait?count=1&timeout_ms=60000")
        #expect(waiting.isWaiting)
        mock.session("B", path: "/t/b/api/v2/conversion_value")
        mock.session("D")
        #expect(waiting.isWaiting)
        mock.session("A", path: "/t/a/api/v2/conversion_value")
        let answer = json(waiting)
        #expect(answer["timed_out"] == false && answer["total"] == 1)
        #expect(answer["requests"]?[0]?["device"] == "A" && answer["requests"]?[0]?["tenant"] == "a")
    }

    @Test func theSameDeviceIdInTwoTenantsIsTwoDevices() throws {
        let mock = try InProcessServer()
        mock.session("SAME", path: "/t/one/api/v2/conversion_value")
        mock.session("SAME", event: "purchase", path: "/t/one/api/v2/conversion_value")
        mock.session("SAME", path: "/t/two/api/v2/conversion_value")
        #expect(json(mock.send(.get, "/t/one/__admin/devices/SAME"))["requests"] == 2)
        #expect(json(mock.send(.get, "/t/two/__admin/devices/SAME"))["requests"] == 1)
        #expect(mock.send(.get, "/__admin/devices/SAME").status == 404)
        #expect(json(mock.send(.get, "/t/one/__admin/health"))["devices"] == 1)
        #expect(json(mock.send(.get, "/t/one/__admin/health"))["tenant"] == "one")
    }

    /// Health says member by member what is the tenant's and what the server's (issue 46.4): the
    /// root lists the tenants' bound as the server's, a tenant its name as its own; every member
    /// present is in exactly one list.
    @Test func healthNamesEachMembersScope() throws {
        let mock = try InProcessServer()
        for path in ["/__admin/health", "/t/one/__admin/health"] {
            let health = json(mock.send(.get, path))
            let keys = Set((health.objectValue ?? []).map(\.key)).subtracting(["scope"])
            let tenant = (health["scope"]?["tenant"]?.arrayValue ?? []).compactMap(\.stringValue)
            let server = (health["scope"]?["server"]?.arrayValue ?? []).compactMap(\.stringValue)
            #expect(Set(tenant).union(server) == keys, "\(path)")
            #expect(Set(tenant).isDisjoint(with: server))
            #expect(tenant.contains("devices") && tenant.contains("journal") && server.contains("version"))
        }
        let root = json(mock.send(.get, "/__admin/health"))
        #expect(root["scope"]?["server"]?.arrayValue?.contains("tenants") == true)
        let named = json(mock.send(.get, "/t/one/__admin/health"))
        #expect(named["scope"]?["tenant"]?.arrayValue?.contains("tenant") == true)
    }

    /// A list of its own: Swift 6.0.3's compiler crashes on an interpolation inside `@Test(arguments:)`.
    static let badPaths = [
        "/t/-a/api/v2/conversion_value", "/t//api/v2/conversion_value", "/t/", "/t/a%20b/__admin/health",
        "/t/" + String(repeating: "x", count: 65) + "/__admin/health", "/t/a:b/__admin/requests"
    ]

    @Test(arguments: badPaths)
    func aBadNameIsRefusedWithTheRule(path: String) throws {
        let mock = try InProcessServer()
        let answer = mock.send(.get, path)
        #expect(answer.status == 400)
        #expect(answer.text.contains(TenantName.rule))
        #expect(mock.server.tenants.count == 0)
    }

    @Test func namesOnTheRuleAreTaken() {
        for name in ["a", "0", "A.b_c-d", String(repeating: "z", count: 64)] {
            #expect(TenantName.isValid(name.utf8), "\(name)")
        }
        for name in ["", ".a", "_a", "-a", "a b", "a/b", "é", String(repeating: "z", count: 65)] {
            #expect(!TenantName.isValid(name.utf8), "\(name)")
        }
    }

    @Test func theLeastRecentlyUsedTenantIsDroppedPastTheBound() throws {
        let mock = try InProcessServer { $0.maxTenants = 2 }
        mock.session("D", path: "/t/a/api/v2/conversion_value")
        mock.session("D", path: "/t/b/api/v2/conversion_value")
        // Past the idle time, neither is in use any more; a is used again.
        mock.clock.advance(seconds: TenantRegistry.idleMilliseconds / 1000)
        mock.session("D", path: "/t/a/api/v2/conversion_value")
        // A third tenant: b, the least recently used, goes, with its journal entries.
        mock.session("D", path: "/t/c/api/v2/conversion_value")
        let list = json(mock.send(.get, "/__admin/tenants"))
        #expect(list["tenants"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["c", "a"])
        #expect(list["max"] == 2 && list["count"] == 2)
        #expect(list["tenants"]?[1]?["requests"] == 2 && list["tenants"]?[1]?["devices"] == 1)
        #expect(mock.server.journal.count(JournalFilter(tenant: .only("b"))) == 0)
        let health = json(mock.send(.get, "/__admin/health"))["tenants"]
        #expect(health?["count"] == 2 && health?["max"] == 2)
        // b comes back afresh, once another is idle.
        mock.clock.advance(seconds: TenantRegistry.idleMilliseconds / 1000)
        #expect(mock.send(.get, "/t/b/__admin/devices/D").status == 404)
        #expect(json(mock.send(.get, "/__admin/tenants"))["tenants"]?.arrayValue?.count == 2)
    }

    /// Issue 46.3: a tenant in use (a pending wait, or a request within the idle time) is never
    /// dropped; when every tenant is in use a new one gets a 503 naming --max-tenants, journaled
    /// in the default tenant; once one is idle, it makes room.
    @Test func aTenantInUseIsNeverDropped() throws {
        let mock = try InProcessServer { $0.maxTenants = 2 }
        mock.session("D1", path: "/t/keep/api/v2/conversion_value")
        let wait = mock.send(.get, "/t/keep/__admin/requests/wait?device=D2&timeout_ms=60000")
        #expect(wait.isWaiting)
        mock.session("D1", path: "/t/x/api/v2/conversion_value")
        // keep waits, x asked just now: a third tenant is refused, and the refusal journaled.
        mock.clock.advance(seconds: TenantRegistry.idleMilliseconds / 1000 - 1)
        let refused = mock.session("D1", path: "/t/y/api/v2/conversion_value")
        #expect(refused.status == 503)
        #expect(refused.text.contains("--max-tenants 2"), "\(refused.text)")
        let journaled = mock.server.journal.query(JournalFilter(tenant: .only(nil))).entries
        let line = String(decoding: journaled.last?.line ?? [], as: UTF8.self)
        #expect(line.contains("tenant y: every one of the 2 tenants"), "\(line)")
        #expect(journaled.last?.json["response"]?["status"] == 503)
        // Past the idle time x may go; keep, still waiting, may not.
        mock.clock.advance(seconds: 1)
        #expect(mock.session("D1", path: "/t/y/api/v2/conversion_value").status == 200)
        let names = json(mock.send(.get, "/__admin/tenants"))["tenants"]?.arrayValue?.compactMap {
            $0["name"]?.stringValue
        }
        #expect(names == ["y", "keep"])
        // keep's second request answers its wait, and its journal holds both.
        mock.session("D2", path: "/t/keep/api/v2/conversion_value")
        #expect(wait.status == 200)
        #expect(mock.server.journal.count(JournalFilter(tenant: .only("keep"))) == 2)
    }

    /// Issue 39: the named tenants together hold no more device state than the default tenant may:
    /// each has an equal share of the device bounds, said in the health answer.
    @Test func eachNamedTenantHoldsAShareOfTheDeviceBounds() throws {
        let mock = try InProcessServer {
            $0.maxTenants = 2
            $0.deviceCapacity = 4
        }
        for device in ["D1", "D2", "D3"] {
            mock.session(device, path: "/t/a/api/v2/conversion_value")
            mock.session(device)
        }
        let tenants = json(mock.send(.get, "/__admin/tenants"))["tenants"]?.arrayValue ?? []
        #expect(
            tenants.first?["devices"] == 2, "a named tenant keeps its 2 of the 4, the least recently used going first")
        #expect(mock.send(.get, "/t/a/__admin/devices/D1").status == 404)
        #expect(mock.send(.get, "/t/a/__admin/devices/D3").status == 200)
        #expect(json(mock.send(.get, "/__admin/health"))["devices"] == 3, "the default tenant has all 4")
        let health = json(mock.send(.get, "/__admin/health"))["tenants"]
        #expect(health?["device_capacity_each"] == 2)
        #expect(health?["device_bytes_each"] == .int(Int64(DeviceStateStore.defaultMaxBytes / 2)))
    }

    @Test func aDroppedTenantStartsAfresh() throws {
        let mock = try InProcessServer()
        mock.session("D", path: "/t/gone/api/v2/conversion_value")
        #expect(mock.send(.put, "/t/gone/__admin/clock", body: #"{"offset_s":60}"#).status == 200)
        #expect(mock.send(.delete, "/__admin/tenants/gone").status == 200)
        #expect(mock.send(.delete, "/__admin/tenants/gone").status == 404)
        #expect(mock.send(.delete, "/__admin/tenants/-x").status == 400)
        #expect(json(mock.send(.get, "/t/gone/__admin/requests/count"))["count"] == 0)
        #expect(json(mock.send(.get, "/t/gone/__admin/clock"))["offset_s"] == 0)
        #expect(mock.send(.get, "/t/gone/__admin/devices/D").status == 404)
        // The tenants' routes are the root's only, and a tenant's prefix says where they are.
        let underPrefix = mock.send(.get, "/t/gone/__admin/tenants")
        #expect(underPrefix.status == 404)
        #expect(underPrefix.text.contains("at the root: GET /__admin/tenants"), "\(underPrefix.text)")
        #expect(mock.send(.delete, "/t/gone/__admin/tenants/a").text.contains("at the root: DELETE /__admin/tenants/a"))
    }

    @Test func theAdminTokenAppliesUnderThePrefix() throws {
        let mock = try InProcessServer { $0.adminToken = "T" }
        #expect(mock.send(.get, "/t/a/__admin/requests").status == 401)
        var headers = HTTPHeaders()
        headers.set("Authorization", "Bearer T")
        #expect(mock.send(.get, "/t/a/__admin/requests", headers: headers).status == 200)
        #expect(mock.send(.get, "/__admin/tenants").status == 401)
    }

    @Test func aliasesAndThePostbackReceiverServeUnderThePrefix() throws {
        let mock = try InProcessServer {
            $0.routes = [RouteAlias(path: "/sdk/v2", endpoint: .skan4)]
        }
        #expect(mock.session("D", path: "/t/a/sdk/v2").status == 200)
        #expect(mock.send(.get, "/t/a/.well-known/skadnetwork/report-attribution/").status == 405)
        let entries = mock.server.journal.query(JournalFilter(tenant: .only("a"))).entries.map(\.json)
        #expect(entries.map { $0["endpoint"] } == ["skan4", "postback"])
        #expect(entries.map { $0["path"] } == ["/sdk/v2", "/.well-known/skadnetwork/report-attribution/"])
        #expect(mock.server.journal.count(JournalFilter(tenant: .only(nil))) == 0)
    }

    /// A request the HTTP layer refused (a 413, say) is journaled in the tenant whose path it
    /// was; one for a tenant that does not exist makes none, and is journaled in the default
    /// tenant with a finding that says why (G11).
    @Test func theHTTPLayersRefusalsAreJournaledInTheirTenant() throws {
        let mock = try InProcessServer()
        mock.session("D", path: "/t/a/api/v2/conversion_value")
        let responder = try #require(mock.server.responder as? AppResponder)
        for target in ["/t/a/api/v2/conversion_value?idfv=D", "/t/nobody/api/v2/conversion_value", "/api/v1/launch"] {
            responder.journal(
                HTTPRefusal(
                    status: .payloadTooLarge, reason: "too large", method: "POST", target: target,
                    remoteAddress: "127.0.0.1:1"))
        }
        let entries = mock.server.journal.query(JournalFilter(tenant: .only("a"))).entries.map(\.json)
        #expect(entries.count == 2 && entries[1]["response"]?["status"] == 413)
        #expect(entries[1]["path"] == "/api/v2/conversion_value")
        let root = mock.server.journal.query(JournalFilter(tenant: .only(nil))).entries.map(\.json)
        #expect(root.map { $0["path"] } == ["/api/v2/conversion_value", "/api/v1/launch"])
        #expect(root[0]["response"]?["status"] == 413)
        #expect(
            root[0]["issues"]?[0]?["message"]?.stringValue?.hasSuffix(
                "tenant nobody did not exist yet, and a refused request makes none, so it is journaled in the default tenant"
            ) == true)
        #expect(mock.server.tenants.existing("nobody") == nil)
    }

    /// One admin router serves every tenant: a hundred tenants, each answering its own health and
    /// journal, register no route beyond the ones registered at start-up.
    @Test func aHundredTenantsRegisterTheAdminRoutesOnce() throws {
        let mock = try InProcessServer(configure: { $0.maxTenants = 128 })
        let responder = try #require(mock.server.responder as? AppResponder)
        let atStart = mock.server.adminRegistrations.total
        #expect(atStart == responder.admin.registered.count && atStart > 30)
        for index in 0..<100 {
            let name = "load-" + String(index)
            let health = mock.send(.get, "/t/" + name + "/__admin/health").text
            #expect(health.contains(#""tenant":""# + name + #"""#), "\(health)")
            #expect(mock.send(.delete, "/t/" + name + "/__admin/requests").status == 200)
        }
        #expect(mock.server.tenantCount == 100)
        #expect(mock.server.adminRegistrations.total == atStart)
    }

    /// The console under `/t/NAME/__admin/ui` is the root's page, whose relative links a browser
    /// resolves under the tenant's prefix: every one of them answers there. `/t/NAME` goes to
    /// `/t/NAME/`, where the home page's relative link leads to the tenant's console.
    @Test func aTenantsConsoleIsItsOwn() throws {
        let mock = try InProcessServer()
        let page = mock.send(.get, "/t/qa-1/__admin/ui").text
        #expect(page == mock.send(.get, "/__admin/ui").text)
        let links = Self.links(in: page)
        #expect(links.count >= 4, "\(links)")
        for link in links {
            let resolved = try #require(URL(string: link, relativeTo: URL(string: "http://h/t/qa-1/__admin/ui")))
            let path = resolved.absoluteURL.path
            #expect(path.hasPrefix("/t/qa-1/__admin/ui"), "\(link) resolves to \(path)")
            #expect(mock.send(.get, path).status == 200, "\(path)")
        }
        let bare = mock.send(.get, "/t/qa-1?x=1")
        #expect(bare.status == 308 && bare.response?.headers["Location"] == "/t/qa-1/?x=1")
        let home = mock.send(.get, "/t/qa-1/").text
        for link in Self.links(in: home) {
            let resolved = try #require(URL(string: link, relativeTo: URL(string: "http://h/t/qa-1/")))
            #expect(resolved.absoluteURL.path.hasPrefix("/t/qa-1/__admin/ui"), "\(link)")
        }
        // The picker the console fills from /__admin/tenants.
        #expect(page.contains(#"<select id="tenant">"#))
    }

    /// The `href` and `src` values of `html`.
    static func links(in html: String) -> [String] {
        let parts = html.split(separator: "\"", omittingEmptySubsequences: false)
        return parts.indices.dropFirst().compactMap { index in
            let before = parts[index - 1]
            return before.hasSuffix("href=") || before.hasSuffix("src=") ? String(parts[index]) : nil
        }
    }

    /// The upstream is server-wide: a tenant's request goes to it as Singular's path, without the
    /// prefix, and the answer changes that tenant's device only.
    @Test func aTenantsRequestGoesUpstreamWithoutThePrefix() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answer = mock.session("U", path: "/t/p/api/v2/conversion_value")
        let sent = try #require(mock.upstream.sent.first)
        #expect(sent.url.hasPrefix("https://upstream.test/api/v2/conversion_value?a=KEY&"))
        mock.upstream.answer(0, #"{"status":"ok","conversion_value":5}"#)
        #expect(answer.text == #"{"status":"ok","conversion_value":5}"#)
        #expect(json(mock.send(.get, "/t/p/__admin/devices/U"))["skan4"]?["p0"]?["last_returned"]?["fine"] == 5)
        #expect(mock.send(.get, "/__admin/devices/U").status == 404)
        #expect(
            mock.server.journal.query(JournalFilter(tenant: .only("p"))).entries.first?.json["upstream"]?["status"]
                == 200)
    }

    static func revenueModelPath() -> String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("config/revenue.json").path
    }
}

/// The journal file names the tenant, and `--resume` gives each tenant back its own devices and
/// journal view.
@Suite("Tenants in the journal file and --resume")
struct TenantResumeTests {
    private func json(_ answer: InProcessServer.Answer) -> JSONValue {
        (try? JSONParser.parse(Array(answer.text.utf8))) ?? .null
    }

    private static func logPath() -> String {
        NSTemporaryDirectory() + "skan-mock-tenants-\(UInt64.random(in: 1...UInt64.max)).jsonl"
    }

    @Test func linesAndResetMarkersNameTheTenant() throws {
        let path = Self.logPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mock = try InProcessServer { $0.logPath = path }
        mock.session("D", path: "/t/a/api/v2/conversion_value")
        mock.session("D")
        #expect(mock.send(.post, "/t/a/__admin/reset").status == 200)
        #expect(mock.send(.post, "/__admin/reset").status == 200)
        mock.server.flushJournalLog()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(Array($0.utf8))
        }
        #expect(lines.count == 4)
        #expect(lines[0]["tenant"] == "a" && lines[0]["id"] == 1)
        #expect(lines[1]["tenant"] == nil && lines[1]["id"] == 2)
        #expect(lines[2] == ["type": "reset", "through": 2, "devices": true, "tenant": "a"])
        #expect(lines[3] == ["type": "reset", "through": 2, "devices": true])
        let record = try JournalRecord(json: lines[0])
        #expect(record.tenant == "a")
    }

    @Test func oneTenantsResetMarkerDoesNotTouchAnothersOnResume() throws {
        let path = Self.logPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let first = try InProcessServer { $0.logPath = path }
            first.session("D", path: "/t/a/api/v2/conversion_value")
            first.session("D", path: "/t/b/api/v2/conversion_value")
            first.session("D", event: "purchase", path: "/t/b/api/v2/conversion_value")
            first.session("D")
            #expect(first.send(.put, "/t/b/__admin/clock", body: #"{"offset_s":3600}"#).status == 200)
            first.session("E", path: "/t/b/api/v2/conversion_value")
            // A's reset, after B's and the default tenant's requests.
            #expect(first.send(.post, "/t/a/__admin/reset").status == 200)
            first.session("F", path: "/t/a/api/v2/conversion_value")
            first.server.stop(gracePeriod: 0)
        }
        let second = try InProcessServer {
            $0.logPath = path
            $0.resume = true
        }
        // A: only what came after its reset.
        #expect(json(second.send(.get, "/t/a/__admin/requests/count"))["count"] == 1)
        #expect(second.send(.get, "/t/a/__admin/devices/D").status == 404)
        #expect(second.send(.get, "/t/a/__admin/devices/F").status == 200)
        // B: all of it, devices and clock too.
        #expect(json(second.send(.get, "/t/b/__admin/requests/count"))["count"] == 3)
        #expect(json(second.send(.get, "/t/b/__admin/devices/D"))["requests"] == 2)
        #expect(json(second.send(.get, "/t/b/__admin/clock"))["offset_s"] == 3600)
        // The default tenant: its own entry and device.
        #expect(json(second.send(.get, "/__admin/requests/count"))["count"] == 1)
        #expect(json(second.send(.get, "/__admin/devices/D"))["requests"] == 1)
        #expect(json(second.send(.get, "/__admin/clock"))["offset_s"] == 0)
        // Issue 50.9: the start-up line counts the tenants' devices too (a: F; b: D, E; default: D).
        let line = try #require(second.server.notices.first { $0.hasPrefix("skan-mock: resumed") })
        #expect(line.hasSuffix(", 4 devices: 1 in the default tenant, 3 in 2 named tenants)"), "\(line)")
    }
}
