/// `--resume`: a restarted server (a container that restarts) picks up where it was, from its own
/// `--log` file, read as a stream in bounded memory. Each entry's request is answered again at its
/// own time, adopting the answer the journal says the client received, so the devices' state is
/// what they acted on; the newest entries go back into the journal, as many as it keeps.
///
/// What it relies on: the journal writes entries in id order (`Journal` commits strictly in id
/// order, whatever order the threads recording them finish in), and an entry's id is given when it
/// is recorded, just before its answer leaves. That is the order requests arrived in, so the
/// file's order is the devices' order, except for an answer a `delay` fault held back: it is
/// recorded after the requests that came during its delay, and answered again here in that place,
/// at its own `time`. Lines out of order by less than `reorderWindow` are put back in order; one
/// further out is answered where it stands, and said.
///
/// Only the last run in the file counts: a server started without `--resume` appends ids from 1
/// again, so an id that goes back starts a new run and what came before is forgotten. A reset
/// marker forgets what it cleared: entries up to its id are not listed again and, after a reset of
/// the devices, rebuild none. A line that is not an entry is skipped with its number and reason,
/// never the lines after it; the entries on both sides of it are kept, and listed with a gap.
///
/// Tenants: each line is answered again by its tenant's service (`tenants`), and a reset marker
/// forgets only its own tenant's entries and devices. A tenant `tenants` gives no service for is
/// not restored: none of its entries is kept (issue 46.6). A line naming a tenant against
/// `TenantName`'s rule is skipped with a note (G15: no route could reach or delete it).
///
/// Memory: the journal's capacity (entries and bytes), the reorder window and the devices (at most
/// the service's capacity), whatever the file's size.
public struct JournalRestorer {
    /// How far out of id order a line may be and still be answered in order.
    public static let reorderWindow = 1024
    /// At most this many skipped lines are named one by one; the rest are counted.
    public static let namedSkips = 10

    private let service: ConversionService
    /// A named tenant's service, made on first use; nil when there is none to give.
    private let tenants: (String) -> ConversionService?
    /// The named tenants' services met so far.
    private var tenantServices: [String: ConversionService] = [:]
    private let capacity: Int
    private let capacityBytes: Int
    private let source: String

    /// Entries read but not yet answered, in id order from `pendingStart` (at most `reorderWindow`).
    /// The file is in id order but for hostile edits, so an entry almost always goes at the end.
    private var pending: [Pending] = []
    private var pendingStart = 0

    private struct Pending {
        var record: JournalRecord
        var bytes: [UInt8]
        var line: Int
    }

    private var pendingCount: Int { pending.count - pendingStart }
    /// The newest entries answered, oldest first, for the journal (by id span and bytes).
    private var kept: [JournalEntry] = []
    private var keptStart = 0
    private var keptBytes = 0
    /// The last id answered; an entry at or below it is late or starts a new run.
    private var lastReleased: Int64 = 0
    /// Per tenant (nil: the default one), ids at or below these were cleared from the listing /
    /// forgotten with the devices.
    private var clearedThrough: [String?: Int64] = [:]
    private var forgottenThrough: [String?: Int64] = [:]
    private var skipped = 0

    /// Lines for standard error: lines skipped, earlier runs ignored, lines far out of order.
    public private(set) var notes: [String] = []
    /// The time-travel offset in force when the default tenant's last entry was written.
    public private(set) var clockOffsetSeconds: Int64?
    /// The same for each named tenant.
    public private(set) var tenantClockOffsets: [String: Int64] = [:]
    /// Requests answered again for the devices' state.
    public private(set) var answered = 0
    /// Entries read (the last run's and earlier ones).
    public private(set) var entriesRead = 0

    /// `source` names the file in notes; `tenants` gives a named tenant's service (the default's
    /// is `service`), nil to answer none of its lines again.
    public init(
        into service: ConversionService, tenants: @escaping (String) -> ConversionService? = { _ in nil },
        journalCapacity: Int, journalBytes: Int, source: String
    ) {
        self.service = service
        self.tenants = tenants
        capacity = max(1, journalCapacity)
        capacityBytes = max(1, journalBytes)
        self.source = source
    }

    /// Takes the file's next line.
    public mutating func add(_ line: JournalLine) {
        switch line {
        case .entry(let record, let bytes, let number):
            entriesRead += 1
            if let tenant = record.tenant, !TenantName.isValid(tenant.utf8) {
                return skip(line: number, tenant: tenant)
            }
            let index = pendingIndex(of: record.id)
            if record.id <= lastReleased || (index < pending.count && pending[index].record.id == record.id) {
                startNewRun(at: record, line: number)
                pending.append(Pending(record: record, bytes: bytes, line: number))
            } else {
                pending.insert(Pending(record: record, bytes: bytes, line: number), at: index)
            }
            if pendingCount > Self.reorderWindow { releaseOldest() }
        case .reset(let marker, let number):
            if let tenant = marker.tenant, !TenantName.isValid(tenant.utf8) {
                return skip(line: number, tenant: tenant)
            }
            while pendingCount > 0 && pending[pendingStart].record.id <= marker.through { releaseOldest() }
            let tenant = marker.tenant
            clearedThrough[tenant] = max(clearedThrough[tenant] ?? 0, marker.through)
            forget(tenant, through: marker.through)
            if marker.devices {
                forgottenThrough[tenant] = max(forgottenThrough[tenant] ?? 0, marker.through)
                // A marker makes no tenant: only one whose entries came before it has devices.
                (tenant == nil ? service : tenantServices[tenant ?? ""])?.resetDevices()
            }
        case .skipped(let failure):
            skipped += 1
            guard skipped <= Self.namedSkips else { return }
            notes.append(
                failure.kind == .torn
                    ? "skan-mock: --resume: \(source):\(failure.line ?? 0): the last line was cut short (a kill during a write) and is skipped"
                    : "skan-mock: --resume: \(source):\(failure.line ?? 0): skipped: \(failure.reason)")
        }
    }

    /// Skips a line whose tenant is against the rule, named by its first 40 bytes, escaped.
    private mutating func skip(line: Int, tenant: String) {
        skipped += 1
        guard skipped <= Self.namedSkips else { return }
        let shown = JSONWriter.serialize(.string(String(tenant.prefix(40))))
        notes.append(
            "skan-mock: --resume: \(source):\(line): skipped: its tenant \(String(decoding: shown, as: UTF8.self))\(tenant.count > 40 ? "..." : "") is against the rule (\(TenantName.rule))"
        )
    }

    /// Answers what is still waiting and returns the entries for `Journal.restore`, oldest first
    /// (ids may have gaps where lines were skipped).
    public mutating func finish() -> [JournalEntry] {
        while pendingCount > 0 { releaseOldest() }
        if skipped > Self.namedSkips {
            notes.append("skan-mock: --resume: \(skipped - Self.namedSkips) more lines of \(source) skipped")
        }
        return Array(kept[keptStart...])
    }

    private mutating func startNewRun(at record: JournalRecord, line: Int) {
        notes.append(
            "skan-mock: --resume: \(source):\(line): ids start again at \(record.id): a server started without --resume appended a new run; the entries before it are not resumed"
        )
        pending.removeAll()
        pendingStart = 0
        kept.removeAll()
        keptStart = 0
        keptBytes = 0
        lastReleased = 0
        clearedThrough = [:]
        forgottenThrough = [:]
        clockOffsetSeconds = nil
        tenantClockOffsets = [:]
        service.resetDevices()
        for tenant in tenantServices.values { tenant.resetDevices() }
    }

    /// The service that answers `tenant`'s lines again (nil: the default tenant's).
    private mutating func service(for tenant: String?) -> ConversionService? {
        guard let tenant else { return service }
        if let known = tenantServices[tenant] { return known }
        let made = tenants(tenant)
        if let made { tenantServices[tenant] = made }
        return made
    }

    /// Drops the kept entries of `tenant` up to `through`; the other tenants' stay.
    private mutating func forget(_ tenant: String?, through: Int64) {
        let remaining = kept[keptStart...].filter { !($0.tenant == tenant && $0.id <= through) }
        guard remaining.count != kept.count - keptStart else { return }
        kept = remaining
        keptStart = 0
        keptBytes = kept.reduce(0) { $0 + $1.line.count }
    }

    /// Where an entry with `id` goes in `pending` (the first with an id not below it).
    private func pendingIndex(of id: Int64) -> Int {
        if pendingCount == 0 || pending[pending.count - 1].record.id < id { return pending.count }
        var low = pendingStart
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if pending[middle].record.id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Answers the pending entry with the lowest id.
    private mutating func releaseOldest() {
        guard pendingCount > 0 else { return }
        let (record, bytes, line) = (
            pending[pendingStart].record, pending[pendingStart].bytes, pending[pendingStart].line
        )
        let id = record.id
        pendingStart += 1
        if pendingStart > 4096 && pendingStart * 2 > pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        if id < lastReleased {
            notes.append(
                "skan-mock: --resume: \(source):\(line): entry \(id) is more than \(Self.reorderWindow) lines out of order; answered where it stands"
            )
        }
        lastReleased = max(lastReleased, id)
        let tenant = record.tenant
        guard let service = service(for: tenant) else { return }  // a tenant not restored: nothing kept
        if let tenant {
            if let offset = record.clockOffsetSeconds { tenantClockOffsets[tenant] = offset }
        } else {
            clockOffsetSeconds = record.clockOffsetSeconds
        }
        if id > forgottenThrough[tenant] ?? 0, service.answerAgain(record) != nil {
            answered += 1
        }
        guard id > clearedThrough[tenant] ?? 0 else { return }
        keep(JournalEntry.restored(record, bytes: bytes))
    }

    /// Adds the newest entry, dropping the oldest while the id span or the bytes exceed the
    /// journal's capacity (the newest is always kept).
    private mutating func keep(_ entry: JournalEntry) {
        if let newest = kept.last, entry.id <= newest.id { return }
        kept.append(entry)
        keptBytes += entry.line.count
        while kept.count - keptStart > 1
            && (entry.id - kept[keptStart].id + 1 > Int64(capacity) || keptBytes > capacityBytes)
        {
            dropOldestKept()
        }
        // Compact now and then, so the array holds about the journal's capacity.
        if keptStart > 4096 && keptStart * 2 > kept.count {
            kept.removeFirst(keptStart)
            keptStart = 0
        }
    }

    private mutating func dropOldestKept() {
        keptBytes -= kept[keptStart].line.count
        keptStart += 1
    }
}
