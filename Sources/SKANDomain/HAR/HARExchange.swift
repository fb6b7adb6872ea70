/// One HAR entry read for checking: the request as the app sent it and the answer it got, with
/// when it started. Read strictly where skan-mock needs a field (a missing `request.url` is a
/// reason, named with its JSON path) and leniently elsewhere, since tools differ in what they
/// write: Charles leaves out `queryString`, a browser's `response.content.text` may be absent.
public struct HARExchange: Sendable {
    /// The 0-based index of the entry in `log.entries`.
    public var index: Int
    /// Milliseconds since 1970 (`startedDateTime`).
    public var started: Int64
    public var method: String
    /// As captured (`request.url`), for messages.
    public var url: String
    /// `scheme://host[:port]` of the URL.
    public var origin: String
    /// The path, as it was on the wire (not decoded).
    public var path: String
    /// The query after `?` (not decoded), without a fragment.
    public var query: String
    public var requestHeaders: [(name: String, value: String)]
    /// `request.postData.text`, decoded when the tool wrote it in base64.
    public var requestBody: [UInt8]
    /// The answer's status; 0 when the capture has no answer (the request failed or is pending).
    public var status: Int
    /// `response.content.text`, decoded when `content.encoding` is `base64`; nil when the capture
    /// holds no body (some tools keep none for large or binary answers).
    public var responseBody: [UInt8]?
    /// `time`: the whole exchange in milliseconds, when given.
    public var durationMilliseconds: Double?

    /// Why an entry cannot be read: the JSON path and the reason.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public init(_ path: String, _ reason: String) {
            self.path = path
            self.reason = reason
        }
        public var description: String { "\(path): \(reason)" }
    }

    /// The `request.url` of an entry's JSON when it has one, for naming an entry that does not read.
    public static func url(in json: JSONValue) -> String? { json["request"]?["url"]?.stringValue }

    public init(json: JSONValue, index: Int) throws(Problem) {
        self.index = index
        guard case .object = json else { throw Problem("$", "expected an object, found \(json.typeName)") }
        let startedText = try Self.string(json, "startedDateTime", "$")
        guard let started = HARTime.parse(startedText) else {
            throw Problem("$.startedDateTime", "not an ISO 8601 time: \(startedText)")
        }
        self.started = started
        guard let request = json["request"], case .object = request else {
            throw Problem("$.request", json["request"] == nil ? "missing" : "expected an object")
        }
        method = try Self.string(request, "method", "$.request")
        url = try Self.string(request, "url", "$.request")
        guard let parts = Self.split(url) else {
            throw Problem("$.request.url", "not an absolute http(s) URL: \(url.prefix(200))")
        }
        (origin, path, query) = parts
        requestHeaders = try Self.headers(request, "$.request")
        requestBody = []
        if let post = request["postData"], !post.isNull {
            guard case .object = post else { throw Problem("$.request.postData", "expected an object") }
            requestBody = try Self.body(post, "$.request.postData") ?? []
        }
        guard let response = json["response"], case .object = response else {
            throw Problem("$.response", json["response"] == nil ? "missing" : "expected an object")
        }
        guard let status = response["status"]?.intValue, (0...999).contains(status) else {
            throw Problem("$.response.status", "missing, or not an HTTP status")
        }
        self.status = Int(status)
        if let content = response["content"], !content.isNull {
            guard case .object = content else { throw Problem("$.response.content", "expected an object") }
            responseBody = try Self.body(content, "$.response.content")
        }
        durationMilliseconds = json["time"]?.doubleValue
    }

    /// `time` in microseconds, kept within a day: a tool's absurd number is no reason to fail.
    public var durationMicros: Int64? {
        durationMilliseconds.map { Int64(min(max($0, 0), 86_400_000) * 1000) }
    }

    /// The value of header `name` (case-insensitive), the first of its name.
    public func requestHeader(_ name: String) -> String? {
        let lower = name.lowercased()
        return requestHeaders.first { $0.name.lowercased() == lower }?.value
    }

    /// `text`, in base64 when `encoding` says so; nil when there is no `text`.
    private static func body(_ object: JSONValue, _ at: String) throws(Problem) -> [UInt8]? {
        guard let value = object["text"], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw Problem(at + ".text", "expected a string") }
        guard let encoding = object["encoding"]?.stringValue, !encoding.isEmpty else { return Array(text.utf8) }
        guard encoding.lowercased() == "base64" else {
            throw Problem(at + ".encoding", "\(encoding) is not an encoding HAR tools write (base64, or none)")
        }
        guard let bytes = Base64.decode(text.filter { !$0.isWhitespace }) else {
            throw Problem(at + ".text", "encoding is base64 but the text is not base64")
        }
        return bytes
    }

    private static func headers(_ object: JSONValue, _ at: String) throws(Problem) -> [(name: String, value: String)] {
        guard let value = object["headers"], !value.isNull else { return [] }
        guard let list = value.arrayValue else { throw Problem(at + ".headers", "expected an array") }
        var headers: [(name: String, value: String)] = []
        for (n, header) in list.enumerated() {
            guard let name = header["name"]?.stringValue, let text = header["value"]?.stringValue else {
                throw Problem("\(at).headers[\(n)]", "expected {\"name\": string, \"value\": string}")
            }
            headers.append((name, text))
        }
        return headers
    }

    private static func string(_ object: JSONValue, _ key: String, _ at: String) throws(Problem) -> String {
        guard let value = object[key], !value.isNull else { throw Problem("\(at).\(key)", "missing") }
        guard let text = value.stringValue else {
            throw Problem("\(at).\(key)", "expected a string, found \(value.typeName)")
        }
        return text
    }

    /// `http(s)://host/path?query#fragment` into origin, path (`/` when empty) and query.
    static func split(_ url: String) -> (origin: String, path: String, query: String)? {
        let lower = url.prefix(8).lowercased()
        let schemeEnd: String.Index
        if lower.hasPrefix("https://") {
            schemeEnd = url.index(url.startIndex, offsetBy: 8)
        } else if lower.hasPrefix("http://") {
            schemeEnd = url.index(url.startIndex, offsetBy: 7)
        } else {
            return nil
        }
        var rest = url[schemeEnd...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard hostEnd > rest.startIndex else { return nil }
        let origin = String(url[..<hostEnd])
        let target = rest[hostEnd...]
        let question = target.firstIndex(of: "?")
        var path = String(target[..<(question ?? target.endIndex)])
        if path.isEmpty { path = "/" }
        let query = question.map { String(target[target.index(after: $0)...]) } ?? ""
        return (origin, path, query)
    }
}
