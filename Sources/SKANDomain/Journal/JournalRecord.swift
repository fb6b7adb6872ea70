/// One journal line read back, typed: what `--resume`, `report`, `record` and `compare` (and the
/// admin report) know of a request. This reader and the members the application adds
/// (`JournalRecord+Members.swift`, `JournalRecord+Postback.swift`) name fields through
/// `JournalRecord.Field`; `JournalEntry.make` writes the entry's own keys as literal bytes (it runs
/// on every request), and `JournalRecordTests` holds those to the `Field` names and reads back
/// every field the writer writes: a field renamed on one side fails there, not silently in a report.
///
/// Reading is strict about types and lenient about absence: a member that is there must have its
/// type (a `"time"` that is not an RFC 3339 time is a reason to skip the line, named with its
/// JSON path), and a member that is missing reads as nil, as in lines older versions wrote.
public struct JournalRecord: Sendable {
    public var id: Int64
    /// The tenant whose request it was (`/t/NAME`); nil for the default tenant.
    public var tenant: String?
    /// Milliseconds since 1970, on the server's clock (time travel included).
    public var time: Int64?
    public var method: String
    public var path: String
    public var endpoint: JournalEndpoint?
    public var remote: String
    public var device: String?
    public var event: String?
    /// The parameters as the server read them: as sent (repeats in order), then what a route
    /// alias added (`route_params`).
    public var parameters: RequestParameters
    public var window: SKANWindow?
    public var issues: [Issue]
    /// What the client was sent.
    public var response: Answer
    public var durationMicros: Int64?
    /// The time-travel offset in force (`clock_offset_s`).
    public var clockOffsetSeconds: Int64?
    /// The TLS version of the connection (`tls`), nil for plain HTTP.
    public var tls: String?
    /// The fault that changed the answer or its timing.
    public var fault: Fault?
    /// What the upstream did (`--upstream`).
    public var upstream: UpstreamOutcome?
    /// The model's own answer, when the client was sent another (proxy mode, a replay).
    public var model: Answer?
    /// Whether a replay file gave the answer (present only under `--replay`).
    public var replayed: Bool?
    /// The id of the entry a replayed answer was recorded from.
    public var recordedId: Int64?
    /// Why the answer was never sent (the server stopped during its delay).
    public var notSent: String?
    /// A postback the receiver took (endpoint `postback`), with its verdicts and body.
    public var postback: Received?

    /// A finding as the journal holds it, its code read through the type the writer writes it
    /// with: a code this version does not know (from a newer version's line) is kept as written
    /// (`FindingCode.isKnown` false).
    public struct Issue: Sendable, Equatable {
        public var param: String?
        public var code: FindingCode
        public var message: String

        public init(param: String?, code: FindingCode, message: String) {
            self.param = param
            self.code = code
            self.message = message
        }
    }

    /// An HTTP answer: status and the exact bytes of its body.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var body: [UInt8]

        public init(status: Int, body: [UInt8]) {
            self.status = status
            self.body = body
        }

        /// The body as text (journal bodies are UTF-8 text unless written as base64).
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `fault`: the kind that replaced the answer (`type`), and the delay, when there was one.
    public struct Fault: Sendable, Equatable {
        /// `status`, `garbage`, `drop`, ...; nil for a delay alone (the model's answer, late).
        public var type: String?
        public var delayMilliseconds: Int64?

        public init(type: String?, delayMilliseconds: Int64?) {
            self.type = type
            self.delayMilliseconds = delayMilliseconds
        }

        /// Whether the client got something other than the model's answer.
        public var replacedAnswer: Bool { type != nil }
    }

    /// `upstream`: the upstream's answer, or why there was none.
    public enum UpstreamOutcome: Sendable, Equatable {
        case answered(Answer, durationMicros: Int64?)
        /// `error` is the journal's word for it (`timeout`, `unreachable`, `not_sent`, `unusable`,
        /// `loop`).
        case failed(error: String, reason: String, durationMicros: Int64?)

        /// The upstream's answer, when it gave one.
        public var answer: Answer? {
            if case .answered(let answer, _) = self { return answer }
            return nil
        }
    }

    public init(
        id: Int64, time: Int64? = nil, method: String = "GET", path: String = "", endpoint: JournalEndpoint? = nil,
        remote: String = "", device: String? = nil, event: String? = nil,
        parameters: RequestParameters = RequestParameters(), window: SKANWindow? = nil, issues: [Issue] = [],
        response: Answer = Answer(status: 200, body: [])
    ) {
        self.id = id
        self.time = time
        self.method = method
        self.path = path
        self.endpoint = endpoint
        self.remote = remote
        self.device = device
        self.event = event
        self.parameters = parameters
        self.window = window
        self.issues = issues
        self.response = response
    }

    /// The request as the server read it, to answer it again (`--resume`, the report's rebuild).
    public var request: SKANRequest {
        SKANRequest(method: method, path: path, remote: remote, parameters: parameters)
    }

    /// The request's `conversion_value`, when the answer was a JSON object carrying one.
    public var answeredValue: Int64? {
        guard response.body.contains(UInt8(ascii: "{")) else { return nil }
        return (try? JSONParser.parse(response.body))?["conversion_value"]?.intValue
    }
}

extension JournalRecord {
    /// The names of the journal's members (SPEC 2), for the writer and the reader alike.
    public enum Field {
        public static let id = "id"
        public static let tenant = "tenant"
        public static let time = "time"
        public static let method = "method"
        public static let path = "path"
        public static let endpoint = "endpoint"
        public static let remote = "remote"
        public static let device = "device"
        public static let event = "event"
        public static let params = "params"
        public static let routeParams = "route_params"
        public static let skan = "skan"
        public static let window = "window"
        public static let issues = "issues"
        public static let response = "response"
        public static let durationMicros = "duration_us"
        public static let clockOffsetSeconds = "clock_offset_s"
        public static let tls = "tls"
        public static let fault = "fault"
        public static let upstream = "upstream"
        public static let model = "model"
        public static let replayed = "replayed"
        public static let recordedId = "recorded_id"
        public static let notSent = "not_sent"
        public static let postback = "postback"
        /// In `postback`.
        public static let framework = "framework"
        public static let transactionID = "transaction_id"
        public static let index = "index"
        public static let didWin = "did_win"
        public static let fine = "fine"
        public static let coarse = "coarse"
        public static let verified = "verified"
        public static let key = "key"
        public static let badSignature = "bad_signature"
        public static let version = "version"
        public static let sourceIdentifier = "source_identifier"
        public static let comparison = "comparison"
        /// In `postback.comparison`.
        public static let result = "result"
        public static let tier = "tier"
        public static let differences = "differences"
        public static let predicted = "predicted"
        /// In `response`, `model` and `upstream`.
        public static let status = "status"
        public static let body = "body"
        /// A body that is not UTF-8, in base64.
        public static let bodyBase64 = "body_base64"
        /// In `upstream`, when it did not answer.
        public static let error = "error"
        public static let reason = "reason"
        /// In `fault`.
        public static let type = "type"
        public static let delayMilliseconds = "delay_ms"
        /// In each of `issues`.
        public static let param = "param"
        public static let code = "code"
        public static let message = "message"
    }
}

extension JournalRecord {
    /// Reads a parsed journal line. Only `id` is required; a member of the wrong type is an error
    /// naming its JSON path.
    public init(json: JSONValue) throws(JSONProblem) {
        guard case .object = json else {
            throw JSONProblem(path: "$", reason: "expected a JSON object, found \(json.typeName)")
        }
        typealias F = Field
        guard let idValue = json[F.id] else {
            throw JSONProblem(path: "$", reason: "no \"id\", so not a journal entry")
        }
        guard let id = idValue.intValue else {
            throw JSONProblem(path: "$.id", reason: "expected an integer, found \(idValue.typeName)")
        }
        self.init(id: id)
        tenant = try Self.string(json, F.tenant, "$")
        if let text = try Self.string(json, F.time, "$") {
            guard let time = RFC3339.parse(text) else {
                throw JSONProblem(path: "$.time", reason: "not an RFC 3339 time: \(text)")
            }
            self.time = time
        }
        method = try Self.string(json, F.method, "$") ?? "GET"
        path = try Self.string(json, F.path, "$") ?? ""
        if let name = try Self.string(json, F.endpoint, "$") {
            guard let endpoint = JournalEndpoint(name: name) else {
                throw JSONProblem(path: "$.endpoint", reason: "not an endpoint skan-mock journals: \(name)")
            }
            self.endpoint = endpoint
        }
        remote = try Self.string(json, F.remote, "$") ?? ""
        device = try Self.string(json, F.device, "$")
        event = try Self.string(json, F.event, "$")
        parameters = try Self.parameters(json)
        if let name = try Self.string(json, F.window, "$") {
            guard let window = SKANWindow(rawValue: name) else {
                throw JSONProblem(path: "$.window", reason: "not a window (p0, p1, p2, over): \(name)")
            }
            self.window = window
        }
        issues = try Self.issues(json)
        if let answer = try Self.answer(json, F.response, "$") { response = answer }
        durationMicros = try Self.integer(json, F.durationMicros, "$")
        clockOffsetSeconds = try Self.integer(json, F.clockOffsetSeconds, "$")
        tls = try Self.string(json, F.tls, "$")
        if let fault = json[F.fault], !fault.isNull {
            guard case .object = fault else { throw Self.typeProblem("$.fault", "an object", fault) }
            self.fault = Fault(
                type: try Self.string(fault, F.type, "$.fault"),
                delayMilliseconds: try Self.integer(fault, F.delayMilliseconds, "$.fault"))
        }
        if let upstream = json[F.upstream], !upstream.isNull {
            guard case .object = upstream else { throw Self.typeProblem("$.upstream", "an object", upstream) }
            if let error = try Self.string(upstream, F.error, "$.upstream") {
                self.upstream = .failed(
                    error: error, reason: try Self.string(upstream, F.reason, "$.upstream") ?? "",
                    durationMicros: try Self.integer(upstream, F.durationMicros, "$.upstream"))
            } else if let answer = try Self.answer(json, F.upstream, "$") {
                self.upstream = .answered(
                    answer, durationMicros: try Self.integer(upstream, F.durationMicros, "$.upstream"))
            }
        }
        model = try Self.answer(json, F.model, "$")
        recordedId = try Self.integer(json, F.recordedId, "$")
        notSent = try Self.string(json, F.notSent, "$")
        if let replayed = json[F.replayed], !replayed.isNull {
            guard let flag = replayed.boolValue else { throw Self.typeProblem("$.replayed", "true or false", replayed) }
            self.replayed = flag
        }
        postback = try Self.received(json)
    }

    /// Reads one line's bytes (without its newline).
    public init(line: some Collection<UInt8>) throws(JSONProblem) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(Array(line))
        } catch {
            throw JSONProblem(path: "$", reason: "not JSON: \(error.description)")
        }
        try self.init(json: json)
    }

    static func typeProblem(_ path: String, _ expected: String, _ value: JSONValue) -> JSONProblem {
        JSONProblem(path: path, reason: "expected \(expected), found \(value.typeName)")
    }

    static func string(_ object: JSONValue, _ key: String, _ at: String) throws(JSONProblem) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw typeProblem(CheckedJSON.child(at, key), "a string", value) }
        return text
    }

    static func integer(_ object: JSONValue, _ key: String, _ at: String) throws(JSONProblem) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.intValue else {
            throw typeProblem(CheckedJSON.child(at, key), "an integer", value)
        }
        return number
    }

    /// `{"status":200,"body":"..."}` or `{"status":200,"body_base64":"..."}` under `key`.
    private static func answer(_ object: JSONValue, _ key: String, _ at: String) throws(JSONProblem) -> Answer? {
        guard let value = object[key], !value.isNull else { return nil }
        let path = CheckedJSON.child(at, key)
        guard case .object = value else { throw typeProblem(path, "an object", value) }
        guard let status = try integer(value, Field.status, path) else { return nil }
        guard (0...999).contains(status) else {
            throw JSONProblem(path: CheckedJSON.child(path, Field.status), reason: "not an HTTP status: \(status)")
        }
        if let text = try string(value, Field.body, path) { return Answer(status: Int(status), body: Array(text.utf8)) }
        if let encoded = try string(value, Field.bodyBase64, path) {
            guard let bytes = Base64.decode(encoded) else {
                throw JSONProblem(path: CheckedJSON.child(path, Field.bodyBase64), reason: "not base64")
            }
            return Answer(status: Int(status), body: bytes)
        }
        return Answer(status: Int(status), body: [])
    }

    /// `params` as sent (a string, or an array of strings for a repeated name), then `route_params`.
    private static func parameters(_ json: JSONValue) throws(JSONProblem) -> RequestParameters {
        var parameters = RequestParameters()
        if let params = json[Field.params], !params.isNull {
            guard let members = params.objectValue else { throw typeProblem("$.params", "an object", params) }
            for member in members {
                switch member.value {
                case .string(let value): parameters.append(name: member.key, value: value)
                case .array(let values):
                    for (n, value) in values.enumerated() {
                        guard let text = value.stringValue else {
                            throw typeProblem("\(CheckedJSON.child("$.params", member.key))[\(n)]", "a string", value)
                        }
                        parameters.append(name: member.key, value: text)
                    }
                default:
                    throw typeProblem(CheckedJSON.child("$.params", member.key), "a string or strings", member.value)
                }
            }
        }
        if let added = json[Field.routeParams], !added.isNull {
            guard let members = added.objectValue else { throw typeProblem("$.route_params", "an object", added) }
            for member in members {
                guard let text = member.value.stringValue else {
                    throw typeProblem(CheckedJSON.child("$.route_params", member.key), "a string", member.value)
                }
                parameters.addIfAbsent(name: member.key, value: text)
            }
        }
        return parameters
    }

    private static func issues(_ json: JSONValue) throws(JSONProblem) -> [Issue] {
        guard let value = json[Field.issues], !value.isNull else { return [] }
        guard let list = value.arrayValue else { throw typeProblem("$.issues", "an array", value) }
        var issues: [Issue] = []
        issues.reserveCapacity(list.count)
        for (n, item) in list.enumerated() {
            let at = "$.issues[\(n)]"
            guard case .object = item else { throw typeProblem(at, "an object", item) }
            guard let code = try string(item, Field.code, at) else {
                throw JSONProblem(path: at, reason: "\"code\" is missing")
            }
            issues.append(
                Issue(
                    param: try string(item, Field.param, at), code: FindingCode(rawValue: code),
                    message: try string(item, Field.message, at) ?? ""))
        }
        return issues
    }
}
