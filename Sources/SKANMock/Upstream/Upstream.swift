import HTTPCore
import SKANDomain
import SKANFiles

/// The real service behind `--upstream`: sends it what a client sent skan-mock, off the request's
/// hot path, and tells what came back. Only the configured base URL is ever contacted, with the
/// request's Singular path and query; the headers that matter to it go along (never
/// `Authorization`, which may carry the admin token, nor cookies). What carries the exchange is a
/// `UpstreamTransport`: libcurl's client in the server, an in-memory twin in tests.
final class Upstream: Sendable {
    let options: UpstreamOptions
    private let transport: any UpstreamTransport

    init(_ options: UpstreamOptions, transport: any UpstreamTransport) {
        self.options = options
        self.transport = transport
    }

    /// The upstream of a server: libcurl's client, in a build that has it.
    static func curl(_ options: UpstreamOptions) throws(SKANMockServer.StartupError) -> Upstream {
        #if SKAN_MOCK_UPSTREAM
            Upstream(options, transport: CurlUpstreamTransport(options))
        #else
            throw SKANMockServer.StartupError(
                description:
                    "this build of skan-mock has no upstream client (--upstream needs libcurl): on Linux install libcurl4-openssl-dev, then build once with `swift build --manifest-cache none --disable-build-manifest-caching`"
            )
        #endif
    }

    /// The headers sent on: what tells the service who is asking and in what form.
    static let forwardedHeaders = ["User-Agent", "Content-Type", "Accept", "Accept-Language"]

    /// Added to every forwarded request (RFC 9110 §7.6.3), so a request that comes back to a
    /// skan-mock, through any number of hosts, is seen and not forwarded again.
    static let via = "1.1 skan-mock"

    /// Why `request` must not be forwarded: it already came through a skan-mock.
    static func loop(_ request: HTTPRequest) -> String? {
        guard let via = request.headers["Via"], via.lowercased().contains("skan-mock") else { return nil }
        return
            "the request already came through a skan-mock (Via: \(via)); forwarding it again would loop, so it was not sent"
    }

    /// The upstream's target for a request to `endpoint` (the URL after the base): Singular's own
    /// path, the query as received and what a route alias added (as the app's back end would send it).
    /// A `#` in the query as received is written `%23`: in a URL it would start a fragment, which
    /// no client sends, and the upstream would get the query cut there. `%23` decodes to the same
    /// parameters that skan-mock read, which is what the upstream must judge.
    func target(for endpoint: SKANEndpoint, query: Substring, added: [RouteAlias.Parameter]) -> String {
        // Built as bytes in one buffer sized up front: a 1 KB query walked as a String view and
        // joined with `+` was 7% of an event loop's CPU in shadow mode.
        let addedQuery = added.map { FormURLEncoding.encode($0.name) + "=" + FormURLEncoding.encode($0.value) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            endpoint.path.utf8.count + query.utf8.count + 2 + addedQuery.reduce(0) { $0 + $1.utf8.count + 1 })
        bytes += endpoint.path.utf8
        var separator = UInt8(ascii: "?")
        if !query.isEmpty {
            bytes.append(separator)
            separator = UInt8(ascii: "&")
            var query = query
            query.withUTF8 { query in
                var start = 0
                while let hash = query[start...].firstIndex(of: UInt8(ascii: "#")) {
                    bytes += query[start..<hash]
                    bytes += "%23".utf8
                    start = hash + 1
                }
                bytes += query[start...]
            }
        }
        for parameter in addedQuery {
            bytes.append(separator)
            separator = UInt8(ascii: "&")
            bytes += parameter.utf8
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What goes to the upstream for `request`: its method, the upstream's URL, the forwarded
    /// headers with `Via` added, and the body as received.
    func exchange(
        for request: HTTPRequest, endpoint: SKANEndpoint, added: [RouteAlias.Parameter]
    ) -> UpstreamForward {
        let headers =
            Self.forwardedHeaders.compactMap { name in request.headers[name].map { "\(name): \($0)" } }
            + ["Via: " + (request.headers["Via"].map { $0 + ", " } ?? "") + Self.via]
        return UpstreamForward(
            method: request.method.rawValue, origin: options.baseURL,
            target: target(for: endpoint, query: request.query, added: added),
            headers: headers, body: request.body, timeoutSeconds: options.timeoutSeconds)
    }

    /// Sends `request` on; `completion` runs once, on another thread, or at once on the caller's
    /// when the request is not sent (a loop, a full queue, a stop). Completions come in the
    /// upstream's order; shadow mode puts them back in arrival order (`ShadowComparison`).
    func forward(
        _ request: HTTPRequest, endpoint: SKANEndpoint, added: [RouteAlias.Parameter],
        completion: @escaping @Sendable (UpstreamReply) -> Void
    ) {
        if let loop = Self.loop(request) {
            completion(.failed(.loop, reason: loop, durationMicros: 0))
            return
        }
        transport.send(exchange(for: request, endpoint: endpoint, added: added), completion: completion)
    }

    /// The most a stop waits for exchanges in flight: each ends within the upstream timeout.
    var drainSeconds: Double { options.timeoutSeconds + 1 }

    /// Stops forwarding and waits (at most `drainSeconds`) until every request received has its
    /// answer or its "not sent", and each completion has journaled it.
    func stop() {
        transport.stop(waitingAtMost: drainSeconds)
    }
}
