import Dispatch
import SystemPOSIX
import Testing

@testable import HTTPCore

/// Hostile and heavy clients, each bounded in count and time: the server keeps serving the others.
@Suite("Server robustness")
struct RobustnessTests {
    private var router: HTTPRouter {
        var router = HTTPRouter()
        router.on(.get, "/ok") { _, _, writer in writer.send(.json("{\"ok\":true}")) }
        return router
    }

    /// 200 connections sending their headers a byte at a time (slowloris) do not stop a normal
    /// client from being served.
    @Test func tricklingClientsDoNotStarveANormalOne() throws {
        var limits = HTTPLimits()
        limits.headerTimeoutSeconds = 300  // the trickle must outlast the test, however slow the machine
        let server = try TestHTTPServer(limits: limits, responder: router)
        var trickling: [RawConnection] = []
        for _ in 0..<200 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /ok HTTP/1.1\r\nHo")
            trickling.append(connection)
        }
        let stop = Mutex(false)
        let trickler = DispatchQueue(label: "trickler")
        let connections = trickling
        trickler.async {
            while !stop.withLock({ $0 }) {
                for connection in connections { connection.send("s") }
                System.sleep(microseconds: 50_000)
            }
        }
        let client = CurlClient()
        var statuses: [Int] = []
        for _ in 0..<50 { statuses.append(try client.get(server.url("/ok")).status) }
        stop.withLock { $0 = true }
        trickler.sync {}
        #expect(statuses == Array(repeating: 200, count: 50))
        #expect(server.server.openConnections >= 200)
    }

    /// 1,000 connections opened at once, past a limit of 500: each one is answered, 200 or 503,
    /// and none is left hanging.
    @Test func aThousandConnectionsAreServedOrRefusedNeverHung() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 500
        let server = try TestHTTPServer(limits: limits, responder: router)
        let counted = try answers(ofConnections: 1000, to: server.port)
        #expect(counted["none"] == nil, "connections left without an answer: \(counted)")
        #expect(counted["200", default: 0] + counted["503", default: 0] == 1000)
        #expect(counted["200", default: 0] >= 500)
        #expect(counted["503", default: 0] > 0)
        // Their clients are gone: the server notices, and has room again.
        for _ in 0..<250 where server.server.openConnections > 0 { System.sleep(microseconds: 20_000) }
        #expect(server.server.openConnections == 0)
        #expect(try CurlClient().get(server.url("/ok")).status == 200)
    }

    /// `GET /path` with no HTTP version (HTTP/0.9's request line) is answered 400 and closed as
    /// soon as its line ends, as nginx and h11 do; it does not sit until the header timeout.
    @Test func aRequestLineWithoutAVersionIsRefusedAtOnce() throws {
        var limits = HTTPLimits()
        limits.headerTimeoutSeconds = 30
        let server = try TestHTTPServer(limits: limits, responder: router)
        let connection = try RawConnection(port: server.port, receiveTimeout: 10)
        let started = DispatchTime.now().uptimeNanoseconds
        connection.send("GET /ok\r\n")
        let (text, closed) = connection.readToEnd()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        #expect(text.hasPrefix("HTTP/1.1 400 "), "got: \(text.prefix(80))")
        #expect(text.contains("Connection: close\r\n"))
        #expect(closed)
        #expect(seconds < 3, "answered after \(seconds) s")
        #expect(try CurlClient().get(server.url("/ok")).status == 200)
    }

    /// A body that trickles in (a byte every 0.2 s) is cut off with 408 once the body deadline
    /// (1 s here) has passed since the headers ended; each byte does not buy more time.
    @Test func aTricklingBodyIsCutOffAtTheBodyDeadline() throws {
        var limits = HTTPLimits()
        limits.bodyTimeoutSeconds = 1
        let server = try TestHTTPServer(limits: limits, responder: router)
        let connection = try RawConnection(port: server.port, receiveTimeout: 10)
        let started = DispatchTime.now().uptimeNanoseconds
        connection.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        let stop = Mutex(false)
        let trickler = DispatchQueue(label: "body-trickler")
        trickler.async {
            for _ in 0..<100 where !stop.withLock({ $0 }) {
                connection.send("b")
                System.sleep(microseconds: 200_000)
            }
        }
        let (text, closed) = connection.readToEnd()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        stop.withLock { $0 = true }
        trickler.sync {}
        #expect(text.hasPrefix("HTTP/1.1 408 "), "got: \(text.prefix(80))")
        #expect(closed)
        #expect(seconds >= 0.9 && seconds < 5, "cut off after \(seconds) s")
        for _ in 0..<250 where server.server.openConnections > 0 { System.sleep(microseconds: 20_000) }
        #expect(server.server.openConnections == 0)
        #expect(try CurlClient().get(server.url("/ok")).status == 200)
    }

    /// Opens `count` connections, sends a request on each, and counts the statuses answered
    /// ("none" for a connection that got nothing before its timeout). The connections are closed
    /// on return.
    private func answers(ofConnections count: Int, to port: Int) throws -> [String: Int] {
        var connections: [RawConnection] = []
        for _ in 0..<count {
            let connection = try RawConnection(port: port, receiveTimeout: 10)
            connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        let outcomes = Mutex<[String: Int]>([:])
        let all = connections
        DispatchQueue.concurrentPerform(iterations: 8) { slice in
            for index in stride(from: slice, to: all.count, by: 8) {
                let response = all[index].readResponses(1).first ?? "none"
                let status = response == "none" ? "none" : String(response.prefix(12).dropFirst(9))
                outcomes.withLock { $0[status, default: 0] += 1 }
            }
        }
        return outcomes.withLock { $0 }
    }

    /// Connections that send garbage, half a request, or nothing, then vanish, leave no trace.
    @Test func abandonedConnectionsAreCleanedUp() throws {
        let server = try TestHTTPServer(responder: router)
        for index in 0..<100 {
            let connection = try RawConnection(port: server.port)
            switch index % 3 {
            case 0: connection.send([0, 255, 13, 10, 13, 10])
            case 1: connection.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
            default: break
            }
        }
        for _ in 0..<100 where server.server.openConnections > 0 { System.sleep(microseconds: 20_000) }
        #expect(server.server.openConnections == 0)
        #expect(try CurlClient().get(server.url("/ok")).status == 200)
    }
}
