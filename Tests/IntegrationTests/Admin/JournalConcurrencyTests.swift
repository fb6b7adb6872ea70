import Dispatch
import SKANDomain
import SystemPOSIX
import Testing

@Suite("Journal under concurrent load")
struct JournalConcurrencyTests {
    /// 16 clients x 200 requests: every one is in the journal and in the log, each line whole JSON.
    @Test func losesNothingUnderSixteenClients() throws {
        let mock = try TestSKANMock { $0.journalSize = 10_000 }
        let failures = Mutex(0)
        let port = mock.server.port
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            let curl = CurlClient()
            for request in 0..<200 {
                let url =
                    "http://127.0.0.1:\(port)/api/v2/conversion_value?a=k&p=iOS&i=com.x&n=__SESSION__"
                    + "&idfv=C\(client)&skan_current_conversion_value=0"
                    + "&skan_first_call_to_skadnetwork_timestamp=\(TestSKANMock.start - 60)&r=\(request)"
                if (try? curl.get(url))?.status != 200 { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try mock.admin("/__admin/requests/count")["count"] == 3200)
        let lines = try mock.logLines()
        #expect(lines.count == 3200)
        var ids = Set<Int64>()
        for line in lines {
            let entry = try JSONParser.parse(line)
            if let id = entry["id"]?.intValue { ids.insert(id) }
        }
        #expect(ids.count == 3200)
        for client in [0, 7, 15] {
            #expect(try mock.admin("/__admin/requests/count?device=C\(client)")["count"] == 200)
        }
    }
}
