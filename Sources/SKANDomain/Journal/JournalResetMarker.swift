/// The line the journal writes to its file when it is emptied (`DELETE /__admin/requests`) or the
/// server is reset (`POST /__admin/reset`), so that `--resume` does not bring back what was reset:
/// entries with an id up to `through` are not listed again, and after a reset they rebuild no
/// device either. Ids keep increasing across a clear, so `through` holds even when lines are
/// written out of id order. Readers of the file that count entries (report, record, compare)
/// skip it.
///
/// A named tenant's marker says so, and clears that tenant's entries and devices only; a marker
/// without one is the default tenant's (as every marker written before tenants).
///
///     {"type":"reset","through":41,"devices":true}
///     {"type":"reset","through":57,"devices":true,"tenant":"test-7"}
public struct JournalResetMarker: Sendable, Equatable {
    /// The last id cleared.
    public var through: Int64
    /// True for a reset (devices forgotten too), false for a journal-only clear.
    public var devices: Bool
    /// The tenant reset; nil for the default tenant.
    public var tenant: String?

    public init(through: Int64, devices: Bool, tenant: String? = nil) {
        self.through = through
        self.devices = devices
        self.tenant = tenant
    }

    /// The marker on a parsed line, or nil when the line is something else.
    public init?(json: JSONValue) {
        guard json["type"]?.stringValue == "reset", let through = json["through"]?.intValue else { return nil }
        self.through = through
        devices = json["devices"] == .bool(true)
        tenant = json[JournalRecord.Field.tenant]?.stringValue
    }

    /// Whether a parsed line is a reset marker (for readers that skip it).
    public static func isMarker(_ json: JSONValue) -> Bool {
        json["type"]?.stringValue == "reset"
    }

    /// The JSON Lines record, newline included.
    public var line: [UInt8] {
        var w = JSONWriter(capacity: 64 + (tenant?.utf8.count ?? 0))
        w.raw(#"{"type":"reset","through":"#)
        w.write(through)
        w.raw(#","devices":"#)
        w.write(devices)
        if let tenant {
            w.raw(#","tenant":"#)
            w.write(tenant)
        }
        w.raw("}\n")
        return w.bytes
    }
}
