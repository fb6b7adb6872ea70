import HTTPCore
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// The admin route collections through the server's responder in process: no sockets, the answer
/// captured as the connection would get it.
@Suite("Admin routes in process")
struct AdminRoutesTests {
    /// A server that is built but never listens, on a hand-moved clock.
    private func server() throws -> SKANMockServer {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        return try SKANMockServer(options: options, clock: ManualClock(seconds: 1_789_473_600))
    }

    private func call(_ server: SKANMockServer, _ method: HTTPMethod, _ target: String, body: String = "") -> (
        status: Int, json: JSONValue
    ) {
        let captured = Mutex<HTTPResponse?>(nil)
        server.responder.respond(
            to: HTTPRequest(method: method, target: target, body: Array(body.utf8), remoteAddress: "127.0.0.1:1"),
            writer: .capturing { response in captured.withLock { $0 = response } })
        let response = captured.withLock { $0 }
        return (response?.status.code ?? 0, (try? JSONParser.parse(response?.body ?? [])) ?? .null)
    }

    @Test func everyCollectionAnswersUnderTheAdminGroup() throws {
        let mock = try server()
        #expect(call(mock, .get, "/__admin/health").json["status"] == "ok")
        #expect(call(mock, .get, "/api/v2/conversion_value?a=K&idfv=IN&n=__SESSION__").status == 200)
        #expect(call(mock, .get, "/__admin/requests/count").json["count"] == 1)
        #expect(call(mock, .get, "/__admin/requests/mark").json["last_id"] == 1)
        #expect(call(mock, .get, "/__admin/report").json["requests"] == 1)
        #expect(call(mock, .get, "/__admin/devices/IN").json["device"] == "IN")
        #expect(call(mock, .get, "/__admin/devices/IN/postbacks?tier=1").json["skan4"]?[0]?["tier"] == 1)
        #expect(call(mock, .get, "/__admin/model").json["name"] == "singular-testing")
        #expect(
            call(mock, .put, "/__admin/faults", body: #"{"faults":[{"endpoint":"evt","type":"drop"}]}"#).json[
                "faults"]?[0]?["endpoint"] == "event")
        #expect(call(mock, .delete, "/__admin/faults").json == ["status": "ok"])
        #expect(call(mock, .put, "/__admin/clock", body: #"{"advance_s":60}"#).json["offset_s"] == 60)
        #expect(
            call(mock, .post, "/__admin/reset?scope=all").json["reset"] == [
                "journal", "devices", "faults", "model", "clock"
            ])
        #expect(call(mock, .get, "/__admin/requests/count").json["count"] == 0)
        #expect(call(mock, .get, "/__admin/clock").json["offset_s"] == 0)
    }

    @Test func badInputIsNamed() throws {
        let mock = try server()
        #expect(call(mock, .get, "/__admin/requests?devcie=x").status == 400)
        #expect(call(mock, .put, "/__admin/clock", body: "{}").status == 400)
        let model = call(mock, .put, "/__admin/model", body: #"{"skan3": 7}"#)
        #expect(model.status == 400 && model.json["problems"]?.arrayValue?.isEmpty == false)
        #expect(call(mock, .get, "/__admin/devices/nobody").status == 404)
        #expect(call(mock, .post, "/__admin/reset?scope=everything").status == 400)
    }

    /// The wait's answer is the journal page with `timed_out` written by the JSON writer.
    @Test func aWaitThatTimesOutSaysSo() throws {
        let mock = try server()
        let page = mock.journal.query(JournalFilter()).json(extra: [JSONMember("timed_out", .bool(true))])
        #expect(String(decoding: page, as: UTF8.self) == #"{"requests":[],"total":0,"dropped":0,"timed_out":true}"#)
    }
}
