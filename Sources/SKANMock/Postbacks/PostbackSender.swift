import HTTPCore
import SKANDomain
import SKANReport
import SystemPOSIX

/// `POST /__admin/devices/{id}/postbacks/send` with `{"url", "tier"?, "framework"?}`: POSTs the
/// device's predicted postbacks (every one not `never_sent`, pending ones too, as StoreKitTest's
/// `flushPostbacks` does), signed as the postbacks route shows them, to `url` over plain HTTP,
/// one after the other, and answers with each answer (or why there was none), each journaled as
/// endpoint `postback` with a `sent` member: an ad network tests its receiver from CI without a
/// device. A `url` with no path gets the path Apple adds to an app's copy endpoint.
struct PostbackSender: Sendable {
    let server: ServerComponents

    /// Each POST's whole exchange, at most.
    static let timeoutSeconds = 5.0

    /// Reads the body, checks the target, predicts the device's postbacks and queues their sends;
    /// every refusal is answered at once, the sends' answer when the queue has run them.
    func send(device id: String, body: [UInt8], _ scope: TenantScope, writer: HTTPResponseWriter) {
        let request: PostbackSendRequest
        let target: PostbackTarget
        switch checkedTarget(body) {
        case .success(let checked): (request, target) = checked
        case .failure(let failure):
            writer.send(.jsonError(failure.reason, status: .badRequest))
            return
        }
        guard let state = scope.service.device(id) else {
            writer.send(.jsonError("unknown device \(id)", status: .notFound))
            return
        }
        let postbacks = PostbackRoute(signing: server.postbackSigning).predict(scope, id, state, request.options)
            .appleBodies
        let job = job(postbacks, to: target, request, device: id, scope, writer: writer)
        if let refusal = Self.refusal(server.postbackSends, submitting: job) { writer.send(refusal) }
    }

    /// The body read and its `url` read as a target that is not this server itself, or why not.
    private func checkedTarget(_ body: [UInt8]) -> Result<(PostbackSendRequest, PostbackTarget), AdminQueryError> {
        let request: PostbackSendRequest
        switch PostbackSendRequest.parse(body) {
        case .success(let parsed): request = parsed
        case .failure(let failure): return .failure(failure)
        }
        let target: PostbackTarget
        switch PostbackTarget.parse(request.url, framework: request.options.framework) {
        case .success(let parsed): target = parsed
        case .failure(let failure): return .failure(failure)
        }
        if let refusal = ownListenerRefusal(target.host, port: target.port, target: target, url: request.url) {
            return .failure(AdminQueryError(reason: refusal))
        }
        return .success((request, target))
    }

    /// The queued work: post each postback in turn (journaling the rest `not_sent` once the server
    /// stops), or journal them all `not_sent` when the queue stops before running it; either way
    /// the caller gets one answer listing each.
    private func job(
        _ postbacks: [(window: String, body: JSONValue)], to target: PostbackTarget, _ request: PostbackSendRequest,
        device id: String, _ scope: TenantScope, writer: HTTPResponseWriter
    ) -> PostbackSendQueue.Job {
        let (url, tier, framework) = (request.url, request.options.tiers[0], request.options.framework)
        let to = Destination(
            url: url, target: target, device: id, framework: framework, scope: scope,
            verifier: server.postbackVerifier)
        @Sendable func answer(_ sent: [JSONValue]) -> HTTPResponse {
            AdminResponse.json(
                .object([
                    JSONMember("device", .string(id)), JSONMember("url", .string(url)),
                    JSONMember("tier", .int(Int64(tier))), JSONMember("framework", .string(framework.rawValue)),
                    JSONMember("sent", .array(sent))
                ]))
        }
        let sender = self
        return PostbackSendQueue.Job(
            run: { stopping in
                let sent = postbacks.map { postback in
                    stopping()
                        ? Self.notSent(postback.body, window: postback.window, to)
                        : sender.post(postback.body, window: postback.window, to)
                }
                writer.send(answer(sent))
            },
            abandon: {
                let sent = postbacks.map { Self.notSent($0.body, window: $0.window, to) }
                writer.send(answer(sent))
            })
    }

    /// The answer when `queue` does not take `job` (full, or stopping); nil when it queued it.
    static func refusal(_ queue: PostbackSendQueue, submitting job: PostbackSendQueue.Job) -> HTTPResponse? {
        switch queue.submit(job) {
        case .queued: return nil
        case .full(let waiting):
            var response = HTTPResponse.jsonError(
                "the postback sender is busy: \(queue.workers) sends in progress and \(waiting) waiting, the most it holds; nothing was sent, try again when they are done (each post gives up after \(Int(Self.timeoutSeconds)) s)",
                status: .serviceUnavailable)
            response.headers.set("Retry-After", String(Int(Self.timeoutSeconds)))
            return response
        case .stopped:
            return .jsonError("the server is stopping; nothing was sent", status: .serviceUnavailable)
        }
    }

    /// Why `host:port` must not be reached: this server's own listener, at any spelling of its
    /// address, except at a receiver path. The caller could otherwise reset or drop any tenant
    /// through the sender (issue 47.2). Nil when the target is elsewhere.
    func ownListenerRefusal(_ host: String, port: Int, target: PostbackTarget, url: String) -> String? {
        guard !target.isReceiverPath else { return nil }
        let ports = [server.ports.http] + (server.ports.https.map { [$0] } ?? [])
        let listenHost = server.listenHost
        let address = System.numericAddress(host) ?? host
        let everyInterface = OwnListenerCheck.isWildcard(OwnListenerCheck.normalized(listenHost))
        guard
            OwnListenerCheck.reaches(
                host: address, port: port, listenHost: listenHost, ports: ports.filter { $0 != 0 },
                localAddresses: everyInterface ? System.reachableAddresses().map(\.address) : [])
        else { return nil }
        return
            "url \(url) reaches this server itself (\(address) port \(port)), where the sender may post to a receiver path only: /.well-known/skadnetwork/report-attribution/ or /.well-known/appattribution/report-attribution/, at the root or under /t/NAME; nothing was sent"
    }

    /// Who a send is for and where it goes: what each post and its journal entry name.
    struct Destination: Sendable {
        let url: String
        let target: PostbackTarget
        let device: String
        let framework: PostbackQuery.Framework
        let scope: TenantScope
        /// The server's, as the receiver checks what it receives.
        let verifier: PostbackVerifier
    }

    /// POSTs one postback and journals what came back.
    private func post(_ apple: JSONValue, window: String, _ to: Destination) -> JSONValue {
        let body = JSONWriter.serialize(apple)
        let status: Int
        let answer: [UInt8]
        var failure: String?
        do {
            (status, answer) = try server.postbackTransport.post(
                to: to.target, body: body, timeout: Self.timeoutSeconds,
                admit: { address in
                    // The address the name resolved to is checked again: DNS may lead to this server.
                    ownListenerRefusal(address, port: to.target.port, target: to.target, url: to.url)
                })
        } catch {
            (status, answer) = (0, [])
            failure = error.description
        }
        Self.journal(apple, window: window, status: status, answer: answer, notSent: false, to)
        return .object([
            JSONMember("window", .string(window)), JSONMember("status", .int(Int64(status))),
            JSONMember("answer", .string(String(decoding: answer, as: UTF8.self))),
            JSONMember("error", failure.map { .string($0) } ?? .null)
        ])
    }

    /// A post the sender did not make because the server stopped first: journaled with
    /// `not_sent`, so the journal says what the receiver never got.
    private static func notSent(_ apple: JSONValue, window: String, _ to: Destination) -> JSONValue {
        journal(apple, window: window, status: 0, answer: [], notSent: true, to)
        return .object([
            JSONMember("window", .string(window)), JSONMember("status", .int(0)), JSONMember("answer", .string("")),
            JSONMember("error", .string("not sent: the server stopped first")), JSONMember("not_sent", .bool(true))
        ])
    }

    /// Journals one post (made or not) as a postback exchange whose `sent` member says what was
    /// sent: the window, Apple's body, and what it says, typed, verified and compared with the
    /// prediction as a received postback's is (the receiver it went to may be another's).
    private static func journal(
        _ apple: JSONValue, window: String, status: Int, answer: [UInt8], notSent: Bool, _ to: Destination
    ) {
        let request = SKANRequest(method: "POST", path: to.url, remote: "", parameters: RequestParameters())
        let exchange = PostbackExchange(
            request: request, status: status, body: answer, device: to.device,
            timeMilliseconds: to.scope.clock.nowMilliseconds())
        var sent = [JSONMember("window", .string(window)), JSONMember("postback", apple)]
        if case .success(let typed) = ReceivedPostback.parse(json: apple, framework: to.framework) {
            let comparison = PostbackComparison.compare(
                typed, device: to.device, predict: PostbackReceiver.predictor(to.scope))
            sent +=
                JournalRecord.postbackFields(typed)
                + JournalRecord.judgement(to.verifier.verify(typed), comparison.verdict)
        }
        if notSent { sent.append(JSONMember("not_sent", .bool(true))) }
        // Journaled and counted as every exchange, by the tenant's recorder.
        ExchangeRecorder(to.scope).record(exchange, members: [JSONMember("sent", .object(sent))])
    }
}
