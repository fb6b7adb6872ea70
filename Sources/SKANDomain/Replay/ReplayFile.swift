/// A replay file: production's answers, per device and in the order they were given, each under
/// the request's key (`ReplayKey`). `skan-mock record` writes one from a proxy's journal;
/// `--replay` serves it. Versioned, so a later format can be told from this one:
///
/// ```json
/// {"version":1,"recorded_from":"run.jsonl","devices":[
/// {"device":"QA-1","requests":[
/// {"endpoint":"skan4","state":{"event":"__SESSION__","window":"p0","current_fine":0},"status":200,"body":"{...}","journal_id":1}]}]}
/// ```
public struct ReplayFile: Sendable, Equatable {
    /// The format this build reads and writes.
    public static let version: Int64 = 1

    /// One recorded answer.
    public struct Request: Sendable, Equatable {
        public var key: ReplayKey
        public var status: Int
        public var body: [UInt8]
        /// The journal entry it came from, for a person tracing it back.
        public var journalId: Int64?

        public init(key: ReplayKey, status: Int, body: [UInt8], journalId: Int64? = nil) {
            self.key = key
            self.status = status
            self.body = body
            self.journalId = journalId
        }
    }

    /// One device's recorded requests, oldest first.
    public struct Device: Sendable, Equatable {
        public var id: String
        public var requests: [Request]

        public init(id: String, requests: [Request]) {
            self.id = id
            self.requests = requests
        }
    }

    /// The journal it was recorded from.
    public var recordedFrom: String?
    public var devices: [Device]

    public init(recordedFrom: String? = nil, devices: [Device]) {
        self.recordedFrom = recordedFrom
        self.devices = devices
    }

    public var requestCount: Int { devices.reduce(0) { $0 + $1.requests.count } }

    /// The file's text: a device and a request per line, so a recording diffs well in review.
    public var text: [UInt8] {
        var w = JSONWriter()
        w.raw("{\"version\":")
        w.write(Self.version)
        if let recordedFrom {
            w.raw(",\"recorded_from\":")
            w.write(recordedFrom)
        }
        w.raw(",\"devices\":[")
        for (d, device) in devices.enumerated() {
            w.raw(d == 0 ? "\n{\"device\":" : ",\n{\"device\":")
            w.write(device.id)
            w.raw(",\"requests\":[")
            for (r, request) in device.requests.enumerated() {
                w.raw(r == 0 ? "\n" : ",\n")
                var members = [
                    JSONMember("endpoint", .string(request.key.endpoint.rawValue)),
                    JSONMember("state", request.key.stateJSON),
                    JSONMember("status", .int(Int64(request.status))),
                    Base64.isUTF8(request.body)
                        ? JSONMember("body", .string(String(decoding: request.body, as: UTF8.self)))
                        : JSONMember("body_base64", .string(Base64.encode(request.body)))
                ]
                if let id = request.journalId { members.append(JSONMember("journal_id", .int(id))) }
                w.write(.object(members))
            }
            w.raw("]}")
        }
        w.raw("]}\n")
        return w.bytes
    }

    /// Reads a replay file; `source` names it in the error, which gives the JSON path and reason.
    public static func parse(bytes: [UInt8], source: String) throws(ReplayFileError) -> ReplayFile {
        // The parser would put U+FFFD in place of bytes that are not UTF-8: a device id no request
        // can name, a body other than the one recorded (those are written as `body_base64`).
        if let offset = firstInvalidUTF8Offset(bytes) {
            throw ReplayFileError(
                file: source, path: "$",
                reason:
                    "byte \(offset) is not valid UTF-8 (a replay file is UTF-8 JSON; a body that is not UTF-8 is written as body_base64)"
            )
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ReplayFileError(file: source, path: "$", reason: "not JSON: \(error.description)")
        }
        return try Reader(file: source).file(json)
    }

    /// Walks the document, checking each member as it goes: the first problem stops it.
    private struct Reader {
        let file: String

        func fail(_ path: String, _ reason: String) -> ReplayFileError {
            ReplayFileError(file: file, path: path, reason: reason)
        }

        /// Runs one of `CheckedJSON`'s reads; its problem becomes this file's error.
        func read<T>(_ body: () throws(JSONProblem) -> T) throws(ReplayFileError) -> T {
            do {
                return try body()
            } catch {
                throw fail(error.path, error.reason)
            }
        }

        func members(_ value: JSONValue, _ path: String, allowed: [String], required: [String] = [])
            throws(ReplayFileError) -> [String: JSONValue]
        {
            try read { () throws(JSONProblem) in
                try CheckedJSON.members(value, path, allowed: allowed, required: required)
            }
        }

        func integer(_ value: JSONValue?, _ path: String, _ range: ClosedRange<Int64>) throws(ReplayFileError) -> Int64?
        {
            guard let value else { return nil }
            return try read { () throws(JSONProblem) in try CheckedJSON.integer(value, path, range) }
        }

        func string(_ value: JSONValue?, _ path: String) throws(ReplayFileError) -> String? {
            guard let value else { return nil }
            return try read { () throws(JSONProblem) in try CheckedJSON.string(value, path) }
        }

        func amounts(_ value: JSONValue?, _ path: String) throws(ReplayFileError) -> [String: Double]? {
            guard let value else { return nil }
            guard case .object(let list) = value else {
                throw fail(path, "expected an object of currency to amount, found \(value.typeName)")
            }
            var amounts: [String: Double] = [:]
            for member in list {
                guard Revenue.isCurrencyCode(member.key) else {
                    throw fail(path, "\"\(member.key)\" is not a currency code (three capital letters)")
                }
                guard let amount = member.value.doubleValue, amount >= 0 else {
                    throw fail(path + "." + member.key, "expected a non-negative number, found \(member.value)")
                }
                amounts[member.key, default: 0] += amount
            }
            return amounts
        }

        func file(_ json: JSONValue) throws(ReplayFileError) -> ReplayFile {
            let top = try members(
                json, "$", allowed: ["version", "recorded_from", "devices"], required: ["version", "devices"])
            let version = try integer(top["version"], "$.version", Int64.min...Int64.max)
            guard version == ReplayFile.version else {
                throw fail(
                    "$.version",
                    "version \(version ?? 0) is not one this skan-mock reads (it reads version \(ReplayFile.version)); record the file again with this version's `skan-mock record`"
                )
            }
            let recordedFrom = try string(top["recorded_from"], "$.recorded_from")
            guard let list = top["devices"]?.arrayValue else { throw fail("$.devices", "expected an array of devices") }
            var devices: [Device] = []
            var seen: [String: Int] = [:]
            for (d, item) in list.enumerated() {
                let path = "$.devices[\(d)]"
                let fields = try members(item, path, allowed: ["device", "requests"], required: ["device", "requests"])
                guard let id = try string(fields["device"], path + ".device"), !id.isEmpty else {
                    throw fail(path + ".device", "the device id is empty")
                }
                // An escaped lone surrogate (`\udc80`) reads as U+FFFD: no request names that id.
                guard !id.unicodeScalars.contains("\u{FFFD}") else {
                    throw fail(
                        path + ".device",
                        "the device id is not valid UTF-8 (it holds U+FFFD, the mark of a byte or escape that is no character)"
                    )
                }
                if let first = seen[id] {
                    throw fail(
                        path + ".device", "device \"\(id)\" is also at $.devices[\(first)]; list each device once")
                }
                seen[id] = d
                guard let requests = fields["requests"]?.arrayValue else {
                    throw fail(path + ".requests", "expected an array of requests")
                }
                var recorded: [Request] = []
                for (r, request) in requests.enumerated() {
                    recorded.append(try self.request(request, "\(path).requests[\(r)]"))
                }
                devices.append(Device(id: id, requests: recorded))
            }
            return ReplayFile(recordedFrom: recordedFrom, devices: devices)
        }

        func request(_ json: JSONValue, _ path: String) throws(ReplayFileError) -> Request {
            let fields = try members(
                json, path, allowed: ["endpoint", "state", "status", "body", "body_base64", "journal_id"],
                required: ["endpoint", "state", "status"])
            let name = try string(fields["endpoint"], path + ".endpoint") ?? ""
            guard let endpoint = SKANEndpoint(name: name) else {
                throw fail(
                    path + ".endpoint",
                    "\"\(name)\" is not an endpoint; use one of \(SKANEndpoint.served.map(\.rawValue).joined(separator: ", "))"
                )
            }
            let status = try integer(fields["status"], path + ".status", Int64.min...Int64.max) ?? 200
            let body = try self.body(fields, path)
            if let problem = RecordableAnswer.problem(status: Int(clamping: status), bodyCount: body.count) {
                throw fail(path + ".status", problem)
            }
            let id = try integer(fields["journal_id"], path + ".journal_id", Int64.min...Int64.max)
            let key = try self.key(endpoint, fields["state"] ?? .object([]), path + ".state")
            return Request(key: key, status: Int(status), body: body, journalId: id)
        }

        /// `body` (UTF-8 text) or `body_base64` (any bytes): one of the two, as the journal has it.
        func body(_ fields: [String: JSONValue], _ path: String) throws(ReplayFileError) -> [UInt8] {
            switch (fields["body"], fields["body_base64"]) {
            case (nil, nil):
                throw fail(path, "\"body\" is missing (or \"body_base64\" for a body that is not UTF-8)")
            case (.some, .some):
                throw fail(path + ".body_base64", "give \"body\" or \"body_base64\", not both")
            case (let text?, nil):
                return Array((try string(text, path + ".body") ?? "").utf8)
            case (nil, let encoded?):
                let text = try string(encoded, path + ".body_base64") ?? ""
                guard let bytes = Base64.decode(text) else {
                    throw fail(path + ".body_base64", "not base64 (RFC 4648, padded with =)")
                }
                return bytes
            }
        }

        /// The members `ReplayKey.stateJSON` writes, read back; anything else is refused, so a
        /// typo cannot quietly make a key that never matches.
        func key(_ endpoint: SKANEndpoint, _ json: JSONValue, _ path: String) throws(ReplayFileError) -> ReplayKey {
            let skan3 = endpoint == .skan3
            let allowed =
                skan3
                ? ["event", "conversion_value", "total_revenue"]
                : ["event", "window", "current_fine", "total_revenue", "total_admon_revenue", "windows"]
            let fields = try members(json, path, allowed: allowed)
            var key = ReplayKey(endpoint: endpoint)
            key.event = try string(fields["event"], path + ".event")
            if let name = try string(fields["window"], path + ".window") {
                guard let window = SKANWindow(rawValue: name) else {
                    throw fail(path + ".window", "\"\(name)\" is not a window; use p0, p1, p2 or over")
                }
                key.window = window
            }
            key.value = try integer(
                fields[skan3 ? "conversion_value" : "current_fine"],
                path + (skan3 ? ".conversion_value" : ".current_fine"), 0...63)
            key.totalRevenue = try amounts(fields["total_revenue"], path + ".total_revenue")
            key.totalAdmonRevenue = try amounts(fields["total_admon_revenue"], path + ".total_admon_revenue")
            if let windows = fields["windows"] {
                let byName = try members(windows, path + ".windows", allowed: ["p0", "p1", "p2"])
                for n in 0..<3 {
                    let name = SKANWindow.measurement(n).rawValue
                    guard let window = byName[name] else { continue }
                    let at = "\(path).windows.\(name)"
                    let w = try members(window, at, allowed: ["coarse", "locked", "iap_revenue", "admon_revenue"])
                    key.windows[n].coarse = try integer(w["coarse"], at + ".coarse", 0...2)
                    if let locked = w["locked"] {
                        key.windows[n].locked = try read { () throws(JSONProblem) in
                            try CheckedJSON.bool(locked, at + ".locked")
                        }
                    }
                    key.windows[n].iapRevenue = try amounts(w["iap_revenue"], at + ".iap_revenue")
                    key.windows[n].admonRevenue = try amounts(w["admon_revenue"], at + ".admon_revenue")
                }
            }
            return key
        }
    }
}
