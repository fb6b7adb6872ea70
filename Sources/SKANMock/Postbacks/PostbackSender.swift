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

    func send(device id: String, body: [UInt8], _ scope: TenantScope, writer: HTTPResponseWriter) {
        let url: String
        var options = PostbackQuery()
        options.tiers = [3]
        do {
            let json = try JSONParser.parse(body)
            let members = try CheckedJSON.members(json, "$", allowed: ["url", "tier", "framework"], required: ["url"])
            url = try CheckedJSON.string(members["url"] ?? .null, "$.url")
            if let tier = members["tier"] { options.tiers = [Int(try CheckedJSON.integer(tier, "$.tier", 0...3))] }
            if let framework = members["framework"] {
                let name = try CheckedJSON.string(framework, "$.framework")
                guard let parsed = PostbackQuery.Framework(rawValue: name) else {
                    throw JSONProblem(path: "$.framework", reason: "expected skan or aak, found \(framework)")
                }
                options.framework = parsed
            }
        } catch let error as JSONParseError {
            writer.send(.jsonError("the body is not JSON: \(error)", status: .badRequest))
            return
        } catch let problem as JSONProblem {
            writer.send(.jsonError("\(problem.path): \(problem.reason)", status: .badRequest))
            return
        } catch {
            writer.send(.jsonError("\(error)", status: .badRequest))
            return
        }
        let target: PostbackTarget
        switch PostbackTarget.parse(url, framework: options.framework) {
        case .success(let parsed): target = parsed
        case .failure(let failure):
            writer.send(.jsonError(failure.reason, status: .badRequest))
            return
        }
        if let refusal = ownListenerRefusal(target.host, port: target.port, target: target, url: url) {
            writer.send(.jsonError(refusal, status: .badRequest))
            return
        }
        guard let state = scope.service.device(id) else {
            writer.send(.jsonError("unknown device \(id)", status: .notFound))
            return
        }
        let postbacks = PostbackRoute(signing: server.postbackSigning).predict(scope, id, state, options).appleBodies
        let (tier, framework) = (options.tiers[0], options.framework)
        @Sendable func answer(_ sent: [JSONValue]) -> HTTPResponse {
            AdminResponse.json(
                .object([
                    JSONMember("device", .string(id)), JSONMember("url", .string(url)),
                    JSONMember("tier", .int(Int64(tier))), JSONMember("framework", .string(framework.rawValue)),
                    JSONMember("sent", .array(sent))
                ]))
        }
        let sender = self
        let job = PostbackSendQueue.Job(
            run: { stopping in
                var sent: [JSONValue] = []
                for postback in postbacks {
                    if stopping() {
                        sent.append(Self.notSent(postback.body, window: postback.window, url: url, device: id, scope))
                    } else {
                        sent.append(
                            sender.post(postback.body, window: postback.window, to: target, url: url, device: id, scope)
                        )
                    }
                }
                writer.send(answer(sent))
            },
            abandon: {
                let sent = postbacks.map { Self.notSent($0.body, window: $0.window, url: url, device: id, scope) }
                writer.send(answer(sent))
            })
        let queue = server.postbackSends
        switch queue.submit(job) {
        case .queued: break
        case .full(let waiting):
            var response = HTTPResponse.jsonError(
                "the postback sender is busy: \(queue.workers) sends in progress and \(waiting) waiting, the most it holds; nothing was sent, try again when they are done (each post gives up after \(Int(Self.timeoutSeconds)) s)",
                status: .serviceUnavailable)
            response.headers.set("Retry-After", String(Int(Self.timeoutSeconds)))
            writer.send(response)
        case .stopped:
            writer.send(.jsonError("the server is stopping; nothing was sent", status: .serviceUnavailable))
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

    /// POSTs one postback and journals what came back.
    private func post(
        _ apple: JSONValue, window: String, to target: PostbackTarget, url: String, device: String, _ scope: TenantScope
    ) -> JSONValue {
        let body = JSONWriter.serialize(apple)
        let status: Int
        let answer: [UInt8]
        var failure: String?
        do {
            (status, answer) = try server.postbackTransport.post(
                to: target, body: body, timeout: Self.timeoutSeconds,
                admit: { address in
                    // The address the name resolved to is checked again: DNS may lead to this server.
                    ownListenerRefusal(address, port: target.port, target: target, url: url)
                })
        } catch {
            (status, answer) = (0, [])
            failure = error.description
        }
        Self.journal(apple, window: window, status: status, answer: answer, notSent: false, url: url, device, scope)
        return .object([
            JSONMember("window", .string(window)), JSONMember("status", .int(Int64(status))),
            JSONMember("answer", .string(String(decoding: answer, as: UTF8.self))),
            JSONMember("error", failure.map { .string($0) } ?? .null)
        ])
    }

    /// A post the sender did not make because the server stopped first: journaled with
    /// `not_sent`, so the journal says what the receiver never got.
    private static func notSent(_ apple: JSONValue, window: String, url: String, device: String, _ scope: TenantScope)
        -> JSONValue
    {
        journal(apple, window: window, status: 0, answer: [], notSent: true, url: url, device, scope)
        return .object([
            JSONMember("window", .string(window)), JSONMember("status", .int(0)), JSONMember("answer", .string("")),
            JSONMember("error", .string("not sent: the server stopped first")), JSONMember("not_sent", .bool(true))
        ])
    }

    private static func journal(
        _ apple: JSONValue, window: String, status: Int, answer: [UInt8], notSent: Bool, url: String,
        _ device: String, _ scope: TenantScope
    ) {
        let request = SKANRequest(method: "POST", path: url, remote: "", parameters: RequestParameters())
        var outcome = SKANOutcome.refused(
            .postback, request, status: status, body: answer, findings: [],
            timeMilliseconds: scope.clock.nowMilliseconds())
        outcome.device = device
        var sent = [JSONMember("window", .string(window)), JSONMember("postback", apple)]
        if notSent { sent.append(JSONMember("not_sent", .bool(true))) }
        // Journaled and counted as every exchange, by the tenant's recorder.
        ExchangeRecorder(scope).record(postback: request, outcome, members: [JSONMember("sent", .object(sent))])
    }
}
