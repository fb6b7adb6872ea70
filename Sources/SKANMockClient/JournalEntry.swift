import Foundation

/// One request the server recorded, as `/__admin/requests` answers it.
public struct JournalEntry: Sendable, Equatable, Decodable {
    /// What the server sent back.
    public struct Response: Sendable, Equatable, Decodable {
        public var status: Int
        public var body: String
    }

    public var id: Int64
    public var time: String
    public var method: String
    public var path: String
    /// `skan3`, `skan4`, `launch`, `event`, `launch2`, `event2` or `unmatched`.
    public var endpoint: String?
    public var remote: String?
    /// `idfv`, else `sing`, else `idfa` (`sdid` on the v2 S2S endpoints).
    public var device: String?
    /// `n`, the event name.
    public var event: String?
    /// Every parameter as sent: a string, or an array of strings for a repeated key.
    public var params: [String: MockJSON]
    /// The SKAN metadata, typed by the server.
    public var skan: MockJSON?
    /// `p0`, `p1`, `p2`, `over`, or nil.
    public var window: String?
    public var issues: [Finding]
    public var response: Response
    public var durationMicroseconds: Int64?
    /// What a fault did to the request, when one did.
    public var fault: MockJSON?

    /// The validation findings (the journal calls them `issues`).
    public var findings: [Finding] { issues }

    /// A parameter's value as sent (the last one for a repeated key).
    public func param(_ name: String) -> String? {
        switch params[name] {
        case .string(let s)?: return s
        case .array(let values)?: return values.last?.stringValue
        default: return nil
        }
    }

    /// The answer's body parsed as JSON, nil when it was empty or not JSON.
    public var responseJSON: MockJSON? {
        guard let data = response.body.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(MockJSON.self, from: data)
    }

    enum CodingKeys: String, CodingKey {
        case id, time, method, path, endpoint, remote, device, event, params, skan, window, issues, response, fault
        case durationMicroseconds = "duration_us"
    }
}

/// A validation finding: what was wrong with one parameter of a request.
public struct Finding: Sendable, Equatable, Decodable {
    public var param: String?
    /// Stable code, e.g. `timestamp_in_milliseconds`.
    public var code: String
    public var message: String
}
