import Foundation
import SKANDomain
import SystemPOSIX

@testable import SKANMock

/// A whole skan-mock, started in process on 127.0.0.1 and a free port, with a hand-moved clock and
/// its journal logged to a temporary file; plus the admin calls the tests read it back with.
final class TestSKANMock {
    let server: SKANMockServer
    let clock: ManualClock
    let logPath: String
    let client = CurlClient()

    /// 2026-09-15T12:00:00Z: a fixed "now" so windows and timestamps are known to the test.
    static let start: Int64 = 1_789_473_600

    /// `timer`: the server's own time (real timers unless a test watches them).
    init(timer: ServerTimer = .dispatch, configure: (inout ServerOptions) -> Void = { _ in }) throws {
        TestDescriptorLimit.ensure()
        clock = ManualClock(seconds: Self.start)
        logPath = NSTemporaryDirectory() + "skan-mock-test-\(UUID().uuidString).jsonl"
        var options = ServerOptions()
        options.host = "127.0.0.1"
        options.port = 0
        options.logPath = logPath
        configure(&options)
        server = try SKANMockServer(
            options: options, clock: clock, localAddresses: System.reachableAddresses().map(\.address),
            edges: .init(timer: timer))
        try server.start()
    }

    deinit {
        server.stop(gracePeriod: 1)
        try? FileManager.default.removeItem(atPath: logPath)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    /// GET `path` with `parameters` percent-encoded into the query, as NSURLComponents would.
    func get(_ path: String, _ parameters: [(String, String)], using client: CurlClient? = nil) throws
        -> CurlClient.Response
    {
        try (client ?? self.client).get(url(path + "?" + Self.query(parameters)))
    }

    /// The admin API's JSON answer to `GET path`.
    func admin(_ path: String, headers: [String] = []) throws -> JSONValue {
        let response = try client.get(url(path), headers: headers)
        return try JSONParser.parse(response.body)
    }

    /// The journal entries matching `query` (e.g. `endpoint=skan4&device=X`).
    func journal(_ query: String = "") throws -> [JSONValue] {
        try admin("/__admin/requests" + (query.isEmpty ? "" : "?" + query))["requests"]?.arrayValue ?? []
    }

    /// Every line of the journal log, once the writer has caught up.
    func logLines() throws -> [String] {
        server.flushJournalLog()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension JSONValue {
    static func parse(_ response: CurlClient.Response) throws -> JSONValue { try JSONParser.parse(response.body) }
}
