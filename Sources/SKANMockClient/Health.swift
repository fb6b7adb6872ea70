import Foundation

/// How the server is (`GET /__admin/health`): which model answers, how far its clock was moved, and
/// whether the journal kept everything, so a test can fail early on a server in the wrong state.
public struct Health: Sendable, Equatable, Decodable {
    /// The model in use.
    public struct Model: Sendable, Equatable, Decodable {
        public var name: String
        /// A file name, `built-in ...` or `PUT /__admin/model`.
        public var source: String
        /// Why the last reload of the model file failed (the old model stays); nil when it did not.
        public var reloadError: String?

        enum CodingKeys: String, CodingKey {
            case name, source
            case reloadError = "reload_error"
        }
    }

    /// The in-memory journal, and with `--log` its file.
    public struct Journal: Sendable, Equatable, Decodable {
        /// Entries kept.
        public var size: Int
        /// Entries dropped because the journal was full; nonzero means a test may miss requests.
        public var dropped: Int64
        /// The most entries kept (`--journal-size`).
        public var capacity: Int
        /// Bytes of the entries kept.
        public var bytes: Int
        /// The most bytes kept (`--journal-bytes`).
        public var capacityBytes: Int
        /// Nil without `--log`.
        public var file: File?

        enum CodingKeys: String, CodingKey {
            case size, dropped, capacity, bytes, file
            case capacityBytes = "capacity_bytes"
        }
    }

    /// The `--log` file: `ok`, or `failing` (a full disk) with the lines kept to write later.
    public struct File: Sendable, Equatable, Decodable {
        /// `ok` or `failing`.
        public var state: String
        /// When writes began to fail (RFC 3339); nil while `ok`.
        public var since: String?
        public var reason: String?
        /// Lines waiting to be written.
        public var waiting: Int
        /// Lines given up.
        public var lost: Int64

        public var isFailing: Bool { state == "failing" }
    }

    /// `ok` (the server answers only when it is).
    public var status: String
    public var version: String
    public var uptimeSeconds: Int64
    public var model: Model
    /// How far the clock was moved (`PUT /__admin/clock`), in seconds.
    public var clockOffsetSeconds: Int64
    public var journal: Journal
    /// Devices the server remembers.
    public var devices: Int
    /// The answer as sent, for members this type does not name.
    public var raw: MockJSON

    /// A member as sent (what `health()` returned before it was typed).
    public subscript(key: String) -> MockJSON? { raw[key] }

    enum CodingKeys: String, CodingKey {
        case status, version, model, journal, devices
        case uptimeSeconds = "uptime_s"
        case clockOffsetSeconds = "clock_offset_s"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(String.self, forKey: .status)
        version = try c.decode(String.self, forKey: .version)
        uptimeSeconds = try c.decode(Int64.self, forKey: .uptimeSeconds)
        model = try c.decode(Model.self, forKey: .model)
        clockOffsetSeconds = try c.decode(Int64.self, forKey: .clockOffsetSeconds)
        journal = try c.decode(Journal.self, forKey: .journal)
        devices = try c.decode(Int.self, forKey: .devices)
        raw = try MockJSON(from: decoder)
    }
}
