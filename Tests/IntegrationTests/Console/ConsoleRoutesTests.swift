import Foundation
import SKANDomain
import Testing

/// The console's pages over a real socket: served from the binary, without the token, with a strict
/// CSP, and guarded against DNS rebinding on a loopback server.
@Suite("Console pages over real sockets")
struct ConsoleRoutesTests {
    @Test func servesThePageAndItsAssetsWithoutTheTokenAndWithAStrictCSP() throws {
        let mock = try TestSKANMock(configure: { $0.adminToken = "secret" })
        let page = try mock.client.get(mock.url("/__admin/ui"))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let csp = try #require(page.header("Content-Security-Policy"))
        #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
        // Relative, so the same page serves every tenant: from /__admin/ui, ui/console.js.
        #expect(page.text.contains("<script type=\"module\" src=\"ui/console.js\"></script>"))
        #expect(
            try mock.client.get(mock.url("/__admin/ui/console.js")).header("Content-Type")
                == "text/javascript; charset=utf-8")
        #expect(try mock.client.get(mock.url("/__admin/ui/console.css")).status == 200)
        // The API itself still needs the token.
        #expect(try mock.client.get(mock.url("/__admin/health")).status == 401)
        // The home page links to the console, and neither is journaled.
        let home = try mock.client.get(mock.url("/"))
        #expect(home.status == 200 && home.text.contains("href=\"__admin/ui\""))
        #expect(
            try mock.client.get(mock.url("/__admin/requests/count"), headers: ["Authorization: Bearer secret"]).text
                == "{\"count\":0}")
    }

    @Test func aLoopbackServerRefusesTheConsoleAndEveryAdminRouteUnderAnotherHostName() throws {
        let mock = try TestSKANMock()
        let evil = ["Host: rebind.example:8080"]
        #expect(try mock.client.get(mock.url("/__admin/ui"), headers: evil).status == 421)
        #expect(try mock.client.get(mock.url("/"), headers: evil).status == 421)
        #expect(try mock.client.request("DELETE", mock.url("/__admin/requests"), headers: evil).status == 421)
        #expect(try mock.client.request("POST", mock.url("/__admin/reset"), headers: evil).status == 421)
        // Reads too (issue 22): a rebound page must not read the journal, the report or the model.
        for path in ["/__admin/health", "/__admin/requests", "/__admin/report", "/__admin/model", "/__admin/devices/X"]
        {
            #expect(try mock.client.get(mock.url(path), headers: evil).status == 421, "\(path)")
        }
        // Singular's endpoints are unaffected; loopback names pass.
        #expect(
            try mock.client.get(mock.url("/api/v1/conversion_value?conversion_value=0"), headers: evil).status == 200)
        #expect(try mock.client.get(mock.url("/__admin/ui"), headers: ["Host: localhost:1234"]).status == 200)
        #expect(
            try mock.client.request("DELETE", mock.url("/__admin/requests"), headers: ["Host: [::1]:80"]).status == 200)
    }

    /// A page of another origin cannot change anything (issue 22): its Origin or Sec-Fetch-Site
    /// gives it away, and a browser's body must be JSON; curl and the test clients send neither.
    @Test func adminChangesFromAnotherOriginAreRefused() throws {
        let mock = try TestSKANMock()
        let own = "Origin: http://127.0.0.1:\(mock.server.port)"
        let reset = mock.url("/__admin/reset?scope=all")
        #expect(try mock.client.request("POST", reset, headers: ["Origin: http://evil.example"]).status == 403)
        #expect(try mock.client.request("POST", reset, headers: ["Origin: null"]).status == 403)
        #expect(try mock.client.request("POST", reset, headers: ["Sec-Fetch-Site: cross-site"]).status == 403)
        #expect(try mock.client.request("POST", reset, headers: ["Sec-Fetch-Site: same-site"]).status == 403)
        let refused = try mock.client.request(
            "DELETE", mock.url("/__admin/requests"), headers: ["Origin: http://evil.example"])
        #expect(
            try JSONParser.parse(refused.body)["reason"]?.stringValue?.hasPrefix(
                "admin change refused: Origin http://evil.example is not this server") == true)
        // The server's own pages may change, with a JSON body; reads from anywhere on loopback are fine.
        #expect(try mock.client.request("POST", reset, headers: [own, "Sec-Fetch-Site: same-origin"]).status == 200)
        let faults = Array(#"{"faults":[]}"#.utf8)
        #expect(
            try mock.client.request(
                "PUT", mock.url("/__admin/faults"), body: faults, headers: [own, "Content-Type: text/plain"]
            ).status == 415)
        #expect(
            try mock.client.request(
                "PUT", mock.url("/__admin/faults"), body: faults, headers: [own, "Content-Type: application/json"]
            ).status == 200)
        #expect(
            try mock.client.get(mock.url("/__admin/health"), headers: ["Origin: http://evil.example"]).status == 200)
        // curl without a content type, as the README's examples do.
        #expect(try mock.client.request("PUT", mock.url("/__admin/faults"), body: faults).status == 200)
        // The 415 says what to send.
        let text = try mock.client.request(
            "PUT", mock.url("/__admin/faults"), body: faults, headers: [own, "Content-Type: text/plain"])
        #expect(
            try JSONParser.parse(text.body)["reason"]?.stringValue?.contains("Content-Type: application/json")
                == true)
        // What Node's fetch sends for a string body: Sec-Fetch-Mode and text/plain, no Origin.
        #expect(
            try mock.client.request(
                "PUT", mock.url("/__admin/faults"), body: faults,
                headers: ["Sec-Fetch-Mode: cors", "Content-Type: text/plain;charset=UTF-8"]
            ).status == 200)
    }

    /// A Node script, as docs/security.md shows it, with Node's own fetch: its fault takes effect.
    @Test(.enabled(if: NodeScript.available, "node is not installed: the Node example is not run"))
    func aNodeScriptsFetchChangesTheFaults() throws {
        let mock = try TestSKANMock()
        let script = """
            const base = process.argv[2];
            const put = await fetch(base + "/__admin/faults", {
              method: "PUT",
              body: JSON.stringify({faults: [{endpoint: "skan4", type: "status", status: 503, times: 1}]}),
            });
            console.log(put.status);
            const answer = await fetch(base + "/api/v2/conversion_value?a=K&i=com.example&p=iOS&idfv=N1&n=__SESSION__");
            console.log(answer.status);
            """
        let lines = try NodeScript.run(script, arguments: ["http://127.0.0.1:\(mock.server.port)"])
        #expect(lines == ["200", "503"])
    }

    @Test func coverageCountsAnsweredEntriesAndIsClearedWithTheJournal() throws {
        let mock = try TestSKANMock()
        let first = String(TestSKANMock.start - 60)
        _ = try mock.get(
            "/api/v2/conversion_value",
            [
                ("a", "K"), ("idfv", "COV"), ("n", "__SESSION__"),
                ("skan_first_call_to_skadnetwork_timestamp", first)
            ])
        let coverage = try mock.admin("/__admin/coverage")
        #expect(coverage["model"] == "singular-testing" && coverage["answered"] == 1)
        #expect(coverage["entries"]?[0]?["window"] == "p0" && coverage["entries"]?[0]?["hits"] == 1)
        #expect((coverage["never"]?.arrayValue?.count ?? 0) > 0)
        #expect(try mock.client.request("DELETE", mock.url("/__admin/requests")).status == 200)
        #expect(try mock.admin("/__admin/coverage")["answered"] == 0)
    }
}
