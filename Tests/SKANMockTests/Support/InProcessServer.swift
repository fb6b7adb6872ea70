import HTTPCore
import SKANDomain
import SystemPOSIX

@testable import SKANMock

/// A whole server built in process with its I/O edges replaced by twins (the upstream, the delay
/// timer): requests go through the responder, answers are captured as a connection would get
/// them, and nothing listens. Like a router tested without a server.
struct InProcessServer {
    let server: SKANMockServer
    let upstream = UpstreamTwin()
    let timer = ManualTimer()
    /// The server's clock, moved by hand.
    let clock = ManualClock(seconds: InProcessServer.now)

    static let now: Int64 = 1_789_473_600

    init(
        upstream mode: UpstreamOptions.Mode? = nil, postbacks: any PostbackTransport = SocketPostbackTransport(),
        configure: (inout ServerOptions) -> Void = { _ in }
    ) throws {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        if let mode {
            options.upstream = try UpstreamOptions(baseURL: "https://upstream.test", mode: mode, timeoutSeconds: 5)
        }
        configure(&options)
        server = try SKANMockServer(
            options: options, clock: clock, localAddresses: [],
            edges: .init(upstream: upstream, timer: timer.timer, postbackTransport: postbacks))
    }

    /// What became of one request: still waiting, answered, or dropped.
    final class Answer: Sendable {
        enum State: Sendable {
            case waiting
            case answered(HTTPResponse)
            case dropped
        }

        fileprivate let state = Mutex(State.waiting)

        var response: HTTPResponse? {
            if case .answered(let response) = state.withLock({ $0 }) { return response }
            return nil
        }

        var isWaiting: Bool {
            if case .waiting = state.withLock({ $0 }) { return true }
            return false
        }

        var isDropped: Bool {
            if case .dropped = state.withLock({ $0 }) { return true }
            return false
        }

        var status: Int? { response?.status.code }
        var text: String { response.map { String(decoding: $0.body, as: UTF8.self) } ?? "" }
    }

    /// Sends a request through the server's responder.
    @discardableResult
    func send(
        _ method: HTTPMethod = .get, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = ""
    ) -> Answer {
        let answer = Answer()
        server.responder.respond(
            to: HTTPRequest(
                method: method, target: target, headers: headers, body: Array(body.utf8),
                remoteAddress: "127.0.0.1:50000"),
            writer: .capturing { response in
                answer.state.withLock { $0 = response.map { .answered($0) } ?? .dropped }
            })
        return answer
    }

    /// A SKAN 4 session from `device`, with event `event`, in window p0.
    @discardableResult
    func session(_ device: String, event: String = "__SESSION__", path: String = "/api/v2/conversion_value")
        -> Answer
    {
        send(
            .get,
            "\(path)?a=KEY&i=com.example.app&p=iOS&idfv=\(device)&n=\(event)&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=\(Self.now - 60)"
        )
    }

    /// The journal's entries, oldest first, as their JSON lines.
    var entries: [JSONValue] { server.journal.query().entries.map(\.json) }

    /// The Prometheus text of `/__admin/metrics`.
    var metrics: String { send(.get, "/__admin/metrics").text }
}
