import HTTPCore
import SKANDomain
import SKANFiles

#if SKAN_MOCK_UPSTREAM
    import UpstreamHTTP
#endif

/// The real service behind `--upstream`: sends it what a client sent skan-mock, off the request's
/// hot path, and tells what came back. Only the configured base URL is ever contacted, with the
/// request's Singular path and query; the headers that matter to it go along (never
/// `Authorization`, which may carry the admin token, nor cookies).
final class Upstream: Sendable {
    let options: UpstreamOptions
    /// Shadow mode journals in arrival order (see `ArrivalOrder`).
    let arrivals = ArrivalOrder()

    /// What the upstream did with one request, in the journal's words.
    enum Reply: Sendable {
        case answered(status: Int, body: [UInt8], durationMicros: Int64)
        case failed(FindingCode, reason: String, durationMicros: Int64)

        /// The journal entry's `upstream` member.
        var json: JSONValue {
            switch self {
            case .answered(let status, let body, let micros):
                // Bytes kept exactly: text when it is UTF-8, else base64 (a replay serves them).
                .object([
                    JSONMember("status", .int(Int64(status))),
                    Base64.isUTF8(body)
                        ? JSONMember("body", .string(String(decoding: body, as: UTF8.self)))
                        : JSONMember("body_base64", .string(Base64.encode(body))),
                    JSONMember("duration_us", .int(micros))
                ])
            case .failed(let code, let reason, let micros):
                .object([
                    JSONMember("error", .string(Upstream.errorName(code))),
                    JSONMember("reason", .string(reason)), JSONMember("duration_us", .int(micros))
                ])
            }
        }
    }

    /// The journal's `upstream.error` for a failure.
    static func errorName(_ code: FindingCode) -> String {
        switch code {
        case .upstreamTimeout: "timeout"
        case .upstreamSkipped: "not_sent"
        case .upstreamUnusable: "unusable"
        case .upstreamLoop: "loop"
        default: "unreachable"
        }
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

    #if SKAN_MOCK_UPSTREAM
        private let client: UpstreamClient

        init(_ options: UpstreamOptions) throws(SKANMockServer.StartupError) {
            if let caFile = options.caFile {
                do {
                    _ = try FileBytes.read(caFile)
                } catch {
                    throw SKANMockServer.StartupError(description: "--upstream-ca: cannot read \(error.description)")
                }
            }
            self.options = options
            client = UpstreamClient(
                caFile: options.caFile, maxInFlight: options.maxInFlight, maxWaiting: options.maxWaiting)
        }
    #else
        init(_ options: UpstreamOptions) throws(SKANMockServer.StartupError) {
            throw SKANMockServer.StartupError(
                description:
                    "this build of skan-mock has no upstream client (--upstream needs libcurl): on Linux install libcurl4-openssl-dev, then build once with `swift build --manifest-cache none --disable-build-manifest-caching`"
            )
        }
    #endif

    /// The upstream's URL for a request to `endpoint`: Singular's own path, the query as received
    /// and what a route alias added (as the app's back end would send it).
    /// A `#` in the query as received is written `%23`: in a URL it would start a fragment, which
    /// no client sends, and the upstream would get the query cut there. `%23` decodes to the same
    /// parameters that skan-mock read, which is what the upstream must judge.
    func url(for endpoint: SKANEndpoint, query: String, added: [RouteAlias.Parameter]) -> String {
        // Searched as bytes: `String.contains` walks grapheme clusters, 5% of the CPU in shadow mode.
        var query =
            query.utf8.contains(UInt8(ascii: "#"))
            ? query.split(separator: "#", omittingEmptySubsequences: false).joined(separator: "%23") : query
        for parameter in added {
            if !query.isEmpty { query += "&" }
            query += FormURLEncoding.encode(parameter.name) + "=" + FormURLEncoding.encode(parameter.value)
        }
        return options.baseURL + endpoint.path + (query.isEmpty ? "" : "?" + query)
    }

    /// Sends `request` on; `completion` runs on another queue, or at once on the caller's thread
    /// when the request is not sent (`upstream_skipped`: too many already wait for the upstream).
    /// With `inArrivalOrder`, completions run in the order `forward` was called (shadow mode's
    /// journal); otherwise as answers come (proxy mode answers each client as soon as it can).
    func forward(
        _ request: HTTPRequest, endpoint: SKANEndpoint, added: [RouteAlias.Parameter], inArrivalOrder: Bool = false,
        completion: @escaping @Sendable (Reply) -> Void
    ) {
        if inArrivalOrder {
            let ticket = arrivals.ticket()
            let arrivals = self.arrivals
            send(request, endpoint: endpoint, added: added) { reply in
                arrivals.complete(ticket) { completion(reply) }
            }
        } else {
            send(request, endpoint: endpoint, added: added, completion: completion)
        }
    }

    private func send(
        _ request: HTTPRequest, endpoint: SKANEndpoint, added: [RouteAlias.Parameter],
        completion: @escaping @Sendable (Reply) -> Void
    ) {
        if let loop = Self.loop(request) {
            completion(.failed(.upstreamLoop, reason: loop, durationMicros: 0))
            return
        }
        #if SKAN_MOCK_UPSTREAM
            let headers =
                Self.forwardedHeaders.compactMap { name in request.headers[name].map { "\(name): \($0)" } }
                + ["Via: " + (request.headers["Via"].map { $0 + ", " } ?? "") + Self.via]
            let outgoing = UpstreamRequest(
                method: request.method.rawValue, url: url(for: endpoint, query: String(request.query), added: added),
                headers: headers, body: request.body, timeoutSeconds: options.timeoutSeconds)
            let timeout = options.timeoutSeconds
            client.send(outgoing) { result in
                switch result {
                case .response(let status, let body, let micros):
                    // One rule with record and replay: an answer that would hang the client or
                    // break the connection's framing is not passed on.
                    if let problem = RecordableAnswer.problem(status: status, bodyCount: body.count) {
                        completion(
                            .failed(
                                .upstreamUnusable,
                                reason: "the upstream's answer cannot be passed on: \(problem)",
                                durationMicros: micros))
                    } else {
                        completion(.answered(status: status, body: body, durationMicros: micros))
                    }
                case .tooLarge(let limit, let micros):
                    completion(
                        .failed(
                            .upstreamUnusable,
                            reason:
                                "the upstream's answer is over \(limit / 1024) KiB, the most skan-mock passes on (Singular's answers are under 200 bytes); none of it was passed on",
                            durationMicros: micros))
                case .timeout(let micros):
                    completion(
                        .failed(
                            .upstreamTimeout, reason: "the upstream did not answer within \(timeout) s",
                            durationMicros: micros))
                case .unreachable(let reason, let micros):
                    completion(
                        .failed(
                            .upstreamUnreachable, reason: "the upstream could not be reached: \(reason)",
                            durationMicros: micros))
                case .notSent(let waiting):
                    completion(
                        .failed(
                            .upstreamSkipped,
                            reason:
                                "not sent to the upstream: \(waiting) requests were already waiting for it (it answers slower than requests arrive)",
                            durationMicros: 0))
                case .expired(let micros):
                    completion(
                        .failed(
                            .upstreamSkipped,
                            reason:
                                "not sent to the upstream: it waited \(micros / 1000) ms for a free connection, its whole --upstream-timeout (the upstream answers slower than requests arrive)",
                            durationMicros: 0))
                case .stopped:
                    completion(
                        .failed(
                            .upstreamSkipped, reason: "not sent to the upstream: the server was stopping",
                            durationMicros: 0))
                }
            }
        #endif
    }

    /// The most a stop waits for exchanges in flight: each ends within the upstream timeout.
    var drainSeconds: Double { options.timeoutSeconds + 1 }

    /// Stops forwarding and waits (at most `drainSeconds`) until every request received has its
    /// answer or its "not sent", and each completion has journaled it.
    func stop() {
        #if SKAN_MOCK_UPSTREAM
            client.stop(waitingAtMost: drainSeconds)
        #endif
    }
}
