import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

/// Tenants through the real executable: parallel clients, each in its own tenant, reset, set a
/// fault, move the clock and send requests at once on one server, and each sees only its own;
/// then `report --tenant` reads one tenant's lines, and `--resume` gives each tenant back its own.
@Suite("Tenants, through the real executable with parallel clients")
struct TenantProcessTests {
    /// What one client saw in its tenant.
    struct Seen: Sendable {
        var faulted = 0
        var count: JSONValue = .null
        var offset: JSONValue = .null
        var faults: JSONValue = .null
        var failure: String?
    }

    static let clients = 8
    static let requests = 5

    private static func session(_ base: String, tenant: String, device: String) -> String {
        "\(base)/t/\(tenant)/api/v2/conversion_value?a=K&i=com.x&p=iOS&idfv=\(device)&n=__SESSION__&skan_current_conversion_value=0"
    }

    /// One client's whole test, in its tenant.
    private static func run(_ n: Int, base: String) -> Seen {
        var seen = Seen()
        let client = CurlClient()
        let tenant = "t\(n)"
        do {
            let admin = "\(base)/t/\(tenant)/__admin"
            _ = try client.request("POST", admin + "/reset?scope=all")
            _ = try client.request(
                "PUT", admin + "/faults",
                body: Array(#"{"faults":[{"endpoint":"skan4","type":"status","status":503,"times":1}]}"#.utf8))
            _ = try client.request("PUT", admin + "/clock", body: Array(#"{"offset_s":\#(n * 3600)}"#.utf8))
            for _ in 0..<requests {
                // The same device id in every tenant: a device of each.
                let answer = try client.get(session(base, tenant: tenant, device: "SAME"))
                if answer.status == 503 { seen.faulted += 1 }
            }
            seen.count = try JSONParser.parse(client.get(admin + "/requests/count?device=SAME").body)["count"] ?? .null
            seen.offset = try JSONParser.parse(client.get(admin + "/clock").body)["offset_s"] ?? .null
            seen.faults = try JSONParser.parse(client.get(admin + "/faults").body)["faults"] ?? .null
        } catch {
            seen.failure = "\(error)"
        }
        return seen
    }

    /// Issue 46.1 through the real executable: a tenant's three entries survive 150 of the default
    /// tenant's and 150 of another tenant's on a journal of 100, and each tenant's `dropped` is
    /// its own.
    @Test func anotherTenantsTrafficNeverDropsATenantsJournal() throws {
        let (process, port) = try SKANMockExecutable.serve(["--journal-size", "100"])
        defer { #expect(process.terminateAndWait(), "the server stops") }
        let base = "http://127.0.0.1:\(port)"
        let client = CurlClient()
        for (tenant, count) in [("/t/ta", 3), ("", 150), ("/t/tb", 150)] {
            for n in 0..<count {
                let url =
                    "\(base)\(tenant)/api/v2/conversion_value?a=K&i=com.x&p=iOS&idfv=D\(n)&n=__SESSION__&skan_current_conversion_value=0"
                #expect(try client.get(url).status == 200)
            }
        }
        let ta = try JSONParser.parse(client.get(base + "/t/ta/__admin/requests").body)
        #expect(ta["total"] == 3 && ta["dropped"] == 0, "\(ta["total"] ?? .null) \(ta["dropped"] ?? .null)")
        let root = try JSONParser.parse(client.get(base + "/__admin/requests?limit=1").body)
        #expect(root["total"] == 100 && root["dropped"] == 50)
        let tb = try JSONParser.parse(client.get(base + "/t/tb/__admin/health").body)
        #expect(tb["journal"]?["dropped"] == 50 && tb["journal"]?["capacity"] == 100, "\(tb["journal"] ?? .null)")
    }

    /// Issue 46.3 through the real executable: with --max-tenants 3, a tenant waiting for its
    /// second request is never dropped for ten newcomers (those past the bound get a 503 naming
    /// --max-tenants), and its journal holds both requests.
    @Test func aTenantInUseIsNeverDropped() throws {
        let (process, port) = try SKANMockExecutable.serve(["--max-tenants", "3"])
        defer { #expect(process.terminateAndWait(), "the server stops") }
        let base = "http://127.0.0.1:\(port)"
        let client = CurlClient()
        #expect(try client.get(Self.session(base, tenant: "keep", device: "FIRST")).status == 200)
        let waited = Mutex<JSONValue?>(nil)
        let done = DispatchSemaphore(value: 0)
        let waitURL = base + "/t/keep/__admin/requests/wait?device=SECOND&timeout_ms=20000"
        Thread.detachNewThread {
            defer { done.signal() }
            let answer = try? CurlClient().get(waitURL)
            waited.withLock { $0 = answer.flatMap { try? JSONParser.parse($0.body) } }
        }
        var statuses: [Int] = []
        for n in 0..<10 { statuses.append(try client.get(Self.session(base, tenant: "other\(n)", device: "D")).status) }
        #expect(statuses.filter { $0 == 200 }.count == 2 && statuses.filter { $0 == 503 }.count == 8, "\(statuses)")
        let refused = try client.get(Self.session(base, tenant: "late", device: "D"))
        #expect(refused.text.contains("--max-tenants 3"), "\(refused.text)")
        #expect(try client.get(Self.session(base, tenant: "keep", device: "SECOND")).status == 200)
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(waited.withLock { $0?["timed_out"] } == false)
        let all = try JSONParser.parse(client.get(base + "/t/keep/__admin/requests").body)
        #expect(all["total"] == 2, "\(all)")
        // The refusals are journaled in the default tenant.
        let root = try JSONParser.parse(client.get(base + "/__admin/requests").body)
        #expect(root["total"] == 9)
    }

    /// G2 through the real executable: admin requests refused for no token (401) or a foreign
    /// Host (421) make no tenant, so they cannot drop the one a test is using.
    @Test func refusedAdminRequestsMakeNoTenant() throws {
        let (process, port) = try SKANMockExecutable.serve(["--max-tenants", "2", "--admin-token", "T"])
        defer { #expect(process.terminateAndWait(), "the server stops") }
        let base = "http://127.0.0.1:\(port)"
        let client = CurlClient()
        #expect(try client.get(Self.session(base, tenant: "keep", device: "D")).status == 200)
        for n in 0..<5 {
            #expect(try client.get(base + "/t/nt\(n)/__admin/requests").status == 401)
            let foreign = try client.get(
                base + "/t/nh\(n)/__admin/requests", headers: ["Host: evil.example", "Authorization: Bearer T"])
            #expect(foreign.status == 421)
        }
        let list = try JSONParser.parse(
            client.get(base + "/__admin/tenants", headers: ["Authorization: Bearer T"]).body)
        #expect(list["count"] == 1, "\(list)")
        #expect(list["tenants"]?[0]?["name"] == "keep", "\(list)")
    }

    @Test func parallelClientsInTenantsSeeOnlyTheirOwn() throws {
        let log = NSTemporaryDirectory() + "skan-mock-tenants-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        var (process, port) = try SKANMockExecutable.serve(["--log", log])
        var base = "http://127.0.0.1:\(port)"
        let results = Mutex([Int: Seen]())
        let firstBase = base
        DispatchQueue.concurrentPerform(iterations: Self.clients) { n in
            let seen = Self.run(n, base: firstBase)
            results.withLock { $0[n] = seen }
        }
        let seen = results.withLock { $0 }
        for n in 0..<Self.clients {
            let mine = try #require(seen[n])
            #expect(mine.failure == nil, "client \(n): \(mine.failure ?? "")")
            // Its own fault, consumed by its own first request only.
            #expect(mine.faulted == 1, "client \(n)")
            #expect(mine.count == .int(Int64(Self.requests)), "client \(n)")
            #expect(mine.offset == .int(Int64(n * 3600)), "client \(n)")
            #expect(mine.faults == [], "client \(n)")
        }
        let client = CurlClient()
        let tenants = try JSONParser.parse(client.get(base + "/__admin/tenants").body)
        #expect(tenants["count"] == .int(Int64(Self.clients)))
        let rootCount = try JSONParser.parse(client.get(base + "/__admin/requests/count").body)["count"]
        #expect(rootCount == 0)
        // The faulted request left the device as it was: a device of each tenant, with the others'.
        let device = try JSONParser.parse(client.get(base + "/t/t3/__admin/devices/SAME").body)["requests"]
        #expect(device == .int(Int64(Self.requests - 1)))
        let badName = try client.get(base + "/t/bad!/__admin/health").status
        #expect(badName == 400)
        #expect(process.terminateAndWait(), "the server stops")

        // The CI step reads one tenant's lines.
        let junit = log + ".xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let report = try SKANMockExecutable.run(["report", log, "--tenant", "t3", "--json", "--junit", junit])
        #expect(report.status == 0, "\(report.error)")
        let reported = try JSONParser.parse(Array(report.output.utf8))["requests"]
        #expect(reported == .int(Int64(Self.requests)))
        #expect(report.error.contains("lines of other tenants passed over"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="skan-mock.t3" tests="#))

        // A restart with --resume gives each tenant back its own devices and journal view.
        (process, port) = try SKANMockExecutable.serve(["--log", log, "--resume"])
        defer { #expect(process.terminateAndWait(), "the server stops") }
        base = "http://127.0.0.1:\(port)"
        for n in [0, 5] {
            let admin = "\(base)/t/t\(n)/__admin"
            // Hoisted: Swift 6.0's #expect cannot take a `try` inside an operand.
            let count = try JSONParser.parse(client.get(admin + "/requests/count").body)["count"]
            let requests = try JSONParser.parse(client.get(admin + "/devices/SAME").body)["requests"]
            let offset = try JSONParser.parse(client.get(admin + "/clock").body)["offset_s"]
            #expect(count == 5)
            #expect(requests == device)
            #expect(offset == .int(Int64(n * 3600)))
        }
    }
}
