/// `--resume`'s first look at a journal file: which named tenants wrote last. The server keeps at
/// most `--max-tenants`, so `--resume` restores the `limit` tenants whose last entry comes latest
/// in the file and leaves the others out whole, instead of making each one and dropping it again
/// (which wrote a reset marker per tenant at every start, G9, and kept devices in tenants no
/// longer served, issue 46.6). Names against `TenantName`'s rule are not counted (G15).
///
/// Memory: at most `2 * limit` tenants ranked, and `countedNames` names to count what is left out,
/// whatever the file's size. Ranking by last line is exact with the pruning: a tenant pruned has
/// `limit` others whose last line is later already, and comes back if it writes again.
public struct JournalTenantCensus {
    /// How many names are told apart to count those left out; past it the count is a floor.
    public static let countedNames = 100_000
    /// How many left-out tenants the note names; the rest are counted.
    public static let namedLeftOut = 10

    public let limit: Int
    /// Per tenant ranked, the number of its last entry's line.
    private var lastLine: [String: Int] = [:]
    private var seen: Set<String> = []
    private var moreThanCounted = false

    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Takes the file's next line.
    public mutating func add(_ line: JournalLine) {
        guard case .entry(let record, _, let number) = line, let name = record.tenant, TenantName.isValid(name.utf8)
        else { return }
        lastLine[name] = number
        if seen.count < Self.countedNames {
            seen.insert(name)
        } else if !seen.contains(name) {
            moreThanCounted = true
        }
        if lastLine.count > 2 * max(1, limit) { prune() }
    }

    /// Keeps the `limit` tenants ranked highest.
    private mutating func prune() {
        let kept = lastLine.sorted { $0.value > $1.value }.prefix(limit)
        lastLine = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// The tenants to restore: the `limit` whose last entry comes latest.
    public var restored: Set<String> {
        Set(lastLine.sorted { $0.value > $1.value }.prefix(limit).map(\.key))
    }

    /// The line for standard error naming the tenants left out, nil when none was; `source` names
    /// the file.
    public func leftOutNote(source: String) -> String? {
        let restored = restored
        let leftOut = seen.subtracting(restored).sorted()
        guard !leftOut.isEmpty || moreThanCounted else { return nil }
        let count = "\(moreThanCounted ? "more than " : "")\(leftOut.count)"
        let named = leftOut.prefix(Self.namedLeftOut).joined(separator: ", ")
        let rest = leftOut.count > Self.namedLeftOut || moreThanCounted ? ", and more" : ""
        return
            "skan-mock: --resume: \(source) names more tenants than --max-tenants \(limit): the \(restored.count) that wrote last are restored; \(count) left out, with their entries and devices: \(named)\(rest)"
    }
}
