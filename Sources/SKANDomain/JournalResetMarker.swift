/// The line the journal writes to its file when it is emptied (`DELETE /__admin/requests`) or the
/// server is reset (`POST /__admin/reset`), so that `--resume` does not bring back what was reset:
/// entries with an id up to `through` are not listed again, and after a reset they rebuild no
/// device either. Ids keep increasing across a clear, so `through` holds even when lines are
/// written out of id order. Readers of the file that count entries (report, record, compare)
/// skip it.
///
///     {"type":"reset","through":41,"devices":true}
public struct JournalResetMarker: Sendable, Equatable {
    /// The last id cleared.
    public var through: Int64
    /// True for a reset (devices forgotten too), false for a journal-only clear.
    public var devices: Bool

    public init(through: Int64, devices: Bool) {
        self.through = through
        self.devices = devices
    }

    /// The marker on a parsed line, or nil when the line is something else.
    public init?(json: JSONValue) {
        guard json["type"]?.stringValue == "reset", let through = json["through"]?.intValue else { return nil }
        self.through = through
        devices = json["devices"] == .bool(true)
    }

    /// Whether a parsed line is a reset marker (for readers that skip it).
    public static func isMarker(_ json: JSONValue) -> Bool {
        json["type"]?.stringValue == "reset"
    }

    /// The JSON Lines record, newline included.
    public var line: [UInt8] {
        Array(#"{"type":"reset","through":\#(through),"devices":\#(devices)}"#.utf8) + [UInt8(ascii: "\n")]
    }
}
