import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// skan-mock's admin API for XCTest and Swift Testing: read and wait for journal entries, mark
/// where a step begins, reset between tests, set faults, move the clock, swap the model, and fail
/// a test on findings. Foundation only, so an iOS UI-test target can add it alone.
///
/// ```swift
/// let mock = SKANMockClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let mark = try await mock.mark()
/// // ... drive the app ...
/// let result = try await mock.waitForRequests(count: 1, filter: RequestFilter(endpoint: "skan4", sinceId: mark))
/// try await mock.expectNoFindings(since: mark)
/// ```
public struct SKANMockClient: Sendable {
    public let baseURL: URL
    public let adminToken: String?
    let session: URLSession

    /// `adminToken` is the server's `--admin-token`, sent as `Authorization: Bearer`; nil or empty
    /// sends none.
    public init(baseURL: URL, adminToken: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        // Empty is none, as for the server: an unset variable read as "" must not send `Bearer `.
        self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
        self.session = session
    }

    /// One page of the journal (`GET /__admin/requests`).
    public struct Page: Sendable, Decodable {
        public var requests: [JournalEntry]
        /// Matches before `limit`.
        public var total: Int
        /// Entries the server dropped because its journal was full.
        public var dropped: Int64
    }

    /// What `waitForRequests` got: the matching entries, and whether the wait ran out first.
    public struct WaitResult: Sendable, Decodable {
        public var requests: [JournalEntry]
        public var total: Int
        public var dropped: Int64
        public var timedOut: Bool

        enum CodingKeys: String, CodingKey {
            case requests, total, dropped
            case timedOut = "timed_out"
        }
    }

    /// The server's clock (`GET /__admin/clock`).
    public struct Clock: Sendable, Decodable, Equatable {
        public var offsetSeconds: Int64
        public var now: String
        public var nowSeconds: Int64

        enum CodingKeys: String, CodingKey {
            case now
            case offsetSeconds = "offset_s"
            case nowSeconds = "now_s"
        }
    }

    /// `POST /__admin/reset?scope=`.
    public enum ResetScope: String, Sendable {
        /// Journal, devices and faults.
        case state
        /// Also the start-up model and clock offset.
        case all
    }

    // MARK: Journal

    public func requests(_ filter: RequestFilter = RequestFilter()) async throws -> [JournalEntry] {
        try await page(filter).requests
    }

    public func page(_ filter: RequestFilter = RequestFilter()) async throws -> Page {
        try decode(Page.self, try await call("GET", "/__admin/requests", query: filter.queryItems))
    }

    public func count(_ filter: RequestFilter = RequestFilter()) async throws -> Int {
        struct Count: Decodable { var count: Int }
        return try decode(Count.self, try await call("GET", "/__admin/requests/count", query: filter.queryItems)).count
    }

    /// Waits on the server (no polling) until `count` entries match `filter` or `timeout` seconds
    /// pass (at most 60); check `timedOut`. `filter.limit` must be nil.
    public func waitForRequests(
        count: Int = 1, filter: RequestFilter = RequestFilter(),
        timeout: TimeInterval = 10
    ) async throws -> WaitResult {
        let ms = Int((max(0, min(timeout, 60)) * 1000).rounded())
        let query =
            filter.queryItems + [
                URLQueryItem(name: "count", value: String(count)),
                URLQueryItem(name: "timeout_ms", value: String(ms))
            ]
        return try decode(
            WaitResult.self,
            try await call(
                "GET", "/__admin/requests/wait", query: query,
                timeout: Double(ms) / 1000 + 10))
    }

    /// The id of the latest journal entry: pass it as `since` / `sinceId` to see only what came after.
    public func mark() async throws -> Int64 {
        struct Mark: Decodable {
            var lastId: Int64
            enum CodingKeys: String, CodingKey { case lastId = "last_id" }
        }
        return try decode(Mark.self, try await call("GET", "/__admin/requests/mark")).lastId
    }

    /// Throws a `FindingsError` listing every finding (and its request) recorded after `since`.
    public func expectNoFindings(since: Int64? = nil, filter: RequestFilter = RequestFilter()) async throws {
        var f = filter
        f.hasIssues = true
        if let since { f.sinceId = since }
        let entries = try await requests(f)
        if !entries.isEmpty { throw FindingsError(entries: entries) }
    }

    /// Empties the journal (ids keep increasing).
    public func clearJournal() async throws {
        _ = try await call("DELETE", "/__admin/requests")
    }

    /// Resets and returns what was reset, e.g. `["journal", "devices", "faults"]`.
    @discardableResult
    public func reset(scope: ResetScope = .state) async throws -> [String] {
        struct Reset: Decodable { var reset: [String] }
        return try decode(
            Reset.self,
            try await call("POST", "/__admin/reset", query: [URLQueryItem(name: "scope", value: scope.rawValue)])
        ).reset
    }

    /// `GET /__admin/report`: the summary per device (the shape `skan-mock report --json` prints).
    public func report(_ filter: RequestFilter = RequestFilter()) async throws -> Report {
        try decode(Report.self, try await call("GET", "/__admin/report", query: filter.queryItems))
    }

    // MARK: Devices, health

    /// What Apple would send for a device, at one crowd-anonymity tier or (nil) all four; nil when
    /// the server does not know the device. `options` asks for a network that did not win,
    /// Developer Mode's timings, AdAttributionKit's format or the first postback's digits.
    public func postbacks(_ id: String, tier: Int? = nil, options: PostbackOptions = PostbackOptions()) async throws
        -> Postbacks?
    {
        let path =
            "/__admin/devices/"
            + (id.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id)
            + "/postbacks"
        let query = (tier.map { [URLQueryItem(name: "tier", value: String($0))] } ?? []) + options.queryItems
        do {
            return try decode(Postbacks.self, try await call("GET", path, query: query))
        } catch SKANMockClientError.unexpectedStatus(404, _) {
            return nil
        }
    }

    /// The postbacks the server received, each verified and compared with skan-mock's prediction:
    /// with `device`, for that device (postbacks a phone sent name none, and are compared with it).
    public func receivedPostbacks(device: String? = nil, developerMode: Bool = false) async throws
        -> ReceivedPostbacks
    {
        var query: [URLQueryItem] = []
        if let device { query.append(URLQueryItem(name: "device", value: device)) }
        if developerMode { query.append(URLQueryItem(name: "developer_mode", value: "true")) }
        return try decode(ReceivedPostbacks.self, try await call("GET", "/__admin/postbacks/received", query: query))
    }

    /// A device's state (events per window, values answered), nil when the server does not know it.
    public func device(_ id: String) async throws -> Device? {
        let path =
            "/__admin/devices/"
            + (id.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? id)
        do {
            return try decode(Device.self, try await call("GET", path))
        } catch SKANMockClientError.unexpectedStatus(404, _) {
            return nil
        }
    }

    /// Version, uptime, model, clock offset, journal size and drops.
    public func health() async throws -> Health {
        try decode(Health.self, try await call("GET", "/__admin/health"))
    }

    // MARK: Faults, clock, model

    public func setFaults(_ faults: [Fault]) async throws {
        let body = try JSONEncoder().encode(MockJSON.object(["faults": .array(faults.map(\.json))]))
        _ = try await call("PUT", "/__admin/faults", body: body)
    }

    public func clearFaults() async throws {
        _ = try await call("DELETE", "/__admin/faults")
    }

    public func clock() async throws -> Clock {
        try decode(Clock.self, try await call("GET", "/__admin/clock"))
    }

    /// Moves the server's clock on (e.g. 172_800 for p1), returning the new clock.
    @discardableResult
    public func advanceClock(seconds: Int64) async throws -> Clock {
        try decode(Clock.self, try await call("PUT", "/__admin/clock", body: Data("{\"advance_s\":\(seconds)}".utf8)))
    }

    @discardableResult
    public func setClockOffset(seconds: Int64) async throws -> Clock {
        try decode(Clock.self, try await call("PUT", "/__admin/clock", body: Data("{\"offset_s\":\(seconds)}".utf8)))
    }

    /// The model in use, as its document was written.
    public func model() async throws -> ModelInfo {
        try decode(ModelInfo.self, try await call("GET", "/__admin/model"))
    }

    /// Replaces the model with a model file's bytes (the server answers 400 with every problem when it
    /// does not load; that becomes `unexpectedStatus`).
    public func replaceModel(_ json: Data) async throws {
        _ = try await call("PUT", "/__admin/model", body: json)
    }

    // MARK: Transport

    private func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw SKANMockClientError.unreadableAnswer("\(error)")
        }
    }

    func call(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil,
        timeout: TimeInterval = 30
    ) async throws -> Data {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw SKANMockClientError.transport("bad base URL \(baseURL)")
        }
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else { throw SKANMockClientError.transport("bad URL for \(path)") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body ?? (method == "GET" || method == "DELETE" ? nil : Data())
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await send(request)
        guard let http = response as? HTTPURLResponse else { throw SKANMockClientError.transport("not an HTTP answer") }
        guard (200..<300).contains(http.statusCode) else {
            throw SKANMockClientError.unexpectedStatus(http.statusCode, body: String(decoding: data, as: UTF8.self))
        }
        return data
    }

    /// `dataTask` wrapped for async/await, the same on Linux's FoundationNetworking and Apple's.
    private func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: SKANMockClientError.transport(error.localizedDescription))
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: SKANMockClientError.transport("no answer"))
                }
            }.resume()
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
