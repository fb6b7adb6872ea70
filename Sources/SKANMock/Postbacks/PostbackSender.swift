import Dispatch
import HTTPCore
import SKANDomain
import SKANReport

/// `POST /__admin/devices/{id}/postbacks/send` with `{"url", "tier"?, "framework"?}`: POSTs the
/// device's predicted postbacks (every one not `never_sent`, pending ones too, as StoreKitTest's
/// `flushPostbacks` does), signed as the postbacks route shows them, to `url` over plain HTTP,
/// one after the other, and answers with each answer (or why there was none), each journaled as
/// endpoint `postback` with a `sent` member: an ad network tests its receiver from CI without a
/// device. A `url` with no path gets the path Apple adds to an app's copy endpoint.
struct PostbackSender: Sendable {
    let context: AppContext

    /// Where to POST: plain HTTP, a host, a port (80 by default) and a path.
    struct Target: Sendable, Equatable {
        var host: String
        var port: Int
        var path: String
    }

    /// Each POST's whole exchange, at most.
    static let timeoutSeconds = 5.0

    /// `url` read as an `http://` URL; the framework's well-known path when it has none.
    static func target(_ url: String, framework: PostbackQuery.Framework) -> Result<Target, AdminQueryError> {
        guard url.hasPrefix("http://") else {
            return .failure(
                AdminQueryError(reason: "url must start with http:// (the sender speaks plain HTTP only): \(url)"))
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        if path.isEmpty || path.hasPrefix("?") {
            path =
                (framework == .skan
                    ? "/.well-known/skadnetwork/report-attribution/"
                    : "/.well-known/appattribution/report-attribution/")
                + path
        }
        var host = String(authority)
        var port = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(AdminQueryError(reason: "url has an unclosed [ in its host: \(url)"))
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else {
                    return .failure(AdminQueryError(reason: "url has a bad port: \(url)"))
                }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]) else {
                return .failure(AdminQueryError(reason: "url has a bad port: \(url)"))
            }
            port = number
        }
        guard !host.isEmpty, (1...65_535).contains(port) else {
            return .failure(AdminQueryError(reason: "url needs a host and a port from 1 to 65535: \(url)"))
        }
        return .success(Target(host: host, port: port, path: path))
    }

    func send(device id: String, body: [UInt8], writer: HTTPResponseWriter) {
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
        let target: Target
        switch Self.target(url, framework: options.framework) {
        case .success(let parsed): target = parsed
        case .failure(let failure):
            writer.send(.jsonError(failure.reason, status: .badRequest))
            return
        }
        guard let state = context.service.device(id) else {
            writer.send(.jsonError("unknown device \(id)", status: .notFound))
            return
        }
        let predicted = PostbackRoute.predict(context, id, state, options).json
        var postbacks: [(window: String, apple: JSONValue)] = []
        for (index, postback) in (predicted["skan4"]?[0]?["postbacks"]?.arrayValue ?? []).enumerated() {
            if let apple = postback["apple"], !apple.isNull { postbacks.append(("p\(index)", apple)) }
        }
        if options.framework == .skan, let apple = predicted["skan3"]?["apple"], !apple.isNull {
            postbacks.append(("skan3", apple))
        }
        // Blocking sends, off the event loop: the target may be this very server.
        let (context, sending, tier, framework) = (self.context, postbacks, options.tiers[0], options.framework)
        DispatchQueue.global().async {
            var sent: [JSONValue] = []
            for postback in sending {
                sent.append(
                    Self.post(postback.apple, window: postback.window, to: target, url: url, device: id, context))
            }
            writer.send(
                AdminResponse.json(
                    .object([
                        JSONMember("device", .string(id)), JSONMember("url", .string(url)),
                        JSONMember("tier", .int(Int64(tier))),
                        JSONMember("framework", .string(framework.rawValue)), JSONMember("sent", .array(sent))
                    ])))
        }
    }

    /// POSTs one postback and journals what came back.
    private static func post(
        _ apple: JSONValue, window: String, to target: Target, url: String, device: String, _ context: AppContext
    ) -> JSONValue {
        let body = JSONWriter.serialize(apple)
        let status: Int
        let answer: [UInt8]
        var failure: String?
        do {
            (status, answer) = try HTTPProbe.post(
                host: target.host, port: target.port, path: target.path,
                headers: [("Content-Type", "application/json")], body: body, timeout: timeoutSeconds)
        } catch {
            (status, answer) = (0, [])
            failure = error.description
        }
        let result: JSONValue = .object([
            JSONMember("window", .string(window)), JSONMember("status", .int(Int64(status))),
            JSONMember("answer", .string(String(decoding: answer, as: UTF8.self))),
            JSONMember("error", failure.map { .string($0) } ?? .null)
        ])
        let request = SKANRequest(method: "POST", path: url, remote: "", parameters: RequestParameters())
        var outcome = SKANOutcome.refused(
            .postback, request, status: status, body: answer, findings: [],
            timeMilliseconds: context.clock.nowMilliseconds())
        outcome.device = device
        context.journal.record(
            request: request, outcome: outcome, status: status, body: answer, durationMicros: 0,
            extra: [
                JSONMember("sent", .object([JSONMember("window", .string(window)), JSONMember("postback", apple)]))
            ],
            tenant: context.tenant.name)
        return result
    }
}
