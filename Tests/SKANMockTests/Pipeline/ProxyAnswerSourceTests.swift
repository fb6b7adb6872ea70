import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// `--upstream-mode proxy` in process: the upstream is a twin that answers when the test says so.
@Suite("Proxy answers")
struct ProxyAnswerSourceTests {
    private let production =
        #"{"status":"ok","conversion_value":5,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#

    @Test func theClientGetsTheUpstreamsAnswerWhenItComesAndTheDeviceFollowsIt() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answer = mock.session("P-1")
        #expect(answer.isWaiting)
        #expect(mock.entries.isEmpty)
        mock.upstream.answer(0, production)
        #expect(answer.status == 200 && answer.text == production)
        let entry = try #require(mock.entries.first)
        #expect(entry["response"]?["body"]?.stringValue == production)
        #expect(entry["upstream"]?["status"] == 200)
        #expect(entry["model"]?["body"]?.stringValue?.contains(#""conversion_value":1"#) == true)
        #expect(entry["issues"]?[0]?["code"] == "differs_from_upstream")
        #expect(mock.server.service.deviceState("P-1")?["skan4"]?["p0"]?["last_returned"]?["fine"] == 5)
    }

    @Test func whatGoesUpstreamIsSingularsPathTheQueryAndTheAllowedHeaders() throws {
        let mock = try InProcessServer(upstream: .proxy) {
            $0.routes = [RouteAlias(path: "/v2/cv", endpoint: .skan4, parameters: [.init(name: "a", value: "K 1")])]
        }
        mock.send(
            .get, "/v2/cv?idfv=P-2&n=__SESSION__",
            headers: ["User-Agent": "App/1", "Authorization": "Bearer secret", "Cookie": "c=1"])
        let sent = try #require(mock.upstream.sent.first)
        #expect(sent.method == "GET")
        #expect(sent.url == "https://upstream.test/api/v2/conversion_value?idfv=P-2&n=__SESSION__&a=K%201")
        #expect(sent.headers == ["User-Agent: App/1", "Via: 1.1 skan-mock"])
        #expect(sent.timeoutSeconds == 5)
    }

    @Test func answersReachTheirOwnClientsInWhateverOrderTheUpstreamGivesThem() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let first = mock.session("P-A")
        let second = mock.session("P-B")
        mock.upstream.answer(1, #"{"status":"ok","conversion_value":2}"#)
        #expect(first.isWaiting && second.text == #"{"status":"ok","conversion_value":2}"#)
        mock.upstream.answer(0, #"{"status":"ok","conversion_value":1}"#)
        #expect(first.text == #"{"status":"ok","conversion_value":1}"#)
        // Journaled as each device changed: when the upstream's answer came.
        #expect(mock.entries.compactMap { $0["device"]?.stringValue } == ["P-B", "P-A"])
    }

    @Test func anUnusableAnswerIsA502SayingWhy() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answer = mock.session("P-3")
        mock.upstream.answer(0, status: 999, "{}")
        #expect(answer.status == 502)
        #expect(answer.text.contains("status 999 is not an HTTP status from 200 to 599"))
        let entry = try #require(mock.entries.first)
        #expect(entry["upstream"]?["error"] == "unusable")
        #expect(entry["issues"]?[0]?["code"] == "upstream_unusable")
        // The model's answer was not kept: the device is as it was.
        #expect(mock.server.service.deviceState("P-3") == nil)
    }

    @Test func aTimeoutIsA502AndAFinding() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answer = mock.session("P-4")
        mock.upstream.timeOut(0)
        #expect(answer.status == 502)
        #expect(
            answer.text
                == #"{"status":"error","reason":"skan-mock could not get the upstream's answer: the upstream did not answer within 5.0 s"}"#
        )
        #expect(mock.entries.first?["upstream"]?["error"] == "timeout")
        #expect(mock.entries.first?["issues"]?[0]?["code"] == "upstream_timeout")
    }

    @Test func aRequestThatCameThroughASkanMockIsNotForwarded() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answer = mock.send(
            .get, "/api/v2/conversion_value?a=K&idfv=P-5&n=__SESSION__", headers: ["Via": "1.1 skan-mock"])
        #expect(answer.status == 502 && answer.text.contains("already came through a skan-mock"))
        #expect(mock.upstream.sent.isEmpty)
        #expect(mock.entries.first?["upstream"]?["error"] == "loop")
    }
}
