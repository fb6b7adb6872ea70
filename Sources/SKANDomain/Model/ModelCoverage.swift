/// Which entries of one model table answered a request. `.last` models have one winner (no
/// allocation on the hot path); `.or` models may have several.
struct EntryHits: Sendable {
    /// 0 = SKAN 3 rules, 1...3 = SKAN 4 p0...p2.
    var table = -1
    /// The winning entry's index, `entries.count` for the table's `default`, nil for none.
    var first: Int?
    var more: [Int] = []

    mutating func add(_ index: Int) {
        if first == nil { first = index } else { more.append(index) }
    }

    /// For `.last`: a later match replaces the winner.
    mutating func replace(_ index: Int) { first = index }
}

/// The entries a counted request used, handed back with the upstream's verdict on it (`--upstream`)
/// once that arrives; `generation` tells a verdict on counts that were since cleared.
public struct CoverageHits: Sendable {
    let hits: EntryHits
    let generation: Int
}

/// How many requests each entry of the loaded model answered ("did we test every bucket?"), for
/// `GET /__admin/coverage`; with `--upstream`, also how many of those answers the upstream's
/// matched. Cleared with the journal and when the model changes. Requests whose answer a fault
/// replaced, or that `--strict` rejected, are not counted: they changed nothing.
public struct ModelCoverage: Sendable {
    /// [table][entry]; the last slot of each table counts its `default`.
    private var hits: [[Int]]
    /// Of those, how many the upstream answered, and how many of its answers matched the model's.
    private var compared: [[Int]]
    private var matched: [[Int]]
    let generation: Int

    public init(model: ConversionModel, generation: Int = 0) {
        hits = Self.tables(model).map { table in
            table.map { Array(repeating: 0, count: $0.entries.count + 1) } ?? []
        }
        compared = hits
        matched = hits
        self.generation = generation
    }

    /// Counts a request's entries; returns what to hand back with the upstream's verdict.
    mutating func record(_ h: EntryHits) -> CoverageHits? {
        guard h.table >= 0, h.table < hits.count, let first = h.first else { return nil }
        hits[h.table][first] += 1
        for index in h.more { hits[h.table][index] += 1 }
        return CoverageHits(hits: h, generation: generation)
    }

    /// The upstream answered a counted request: `matched` when its answer was the model's.
    mutating func recordUpstream(_ c: CoverageHits, matched isMatch: Bool) {
        guard c.generation == generation, let first = c.hits.first else { return }
        for index in [first] + c.hits.more where c.hits.table < hits.count && index < hits[c.hits.table].count {
            compared[c.hits.table][index] += 1
            if isMatch { matched[c.hits.table][index] += 1 }
        }
    }

    /// `{"model": NAME, "entries": [{"window","index","hits","entry"}...], "never": [{"window","index"}...]}`;
    /// `index` is `"default"` for a table's default entry. SKAN 3's rules are window `skan3`.
    public func json(model: ConversionModel) -> JSONValue {
        var entries: [JSONValue] = []
        var never: [JSONValue] = []
        var total = 0
        var upstream = (compared: 0, matched: 0)
        let names = ["skan3", "p0", "p1", "p2"]
        for (t, table) in Self.tables(model).enumerated() {
            guard let table, t < hits.count else { continue }
            let documents = Self.entryDocuments(model, table: t)
            for index in 0...table.entries.count {
                let isDefault = index == table.entries.count
                if isDefault && table.defaultAnswer == nil { continue }
                let count = hits[t][index]
                total += count
                let id: JSONValue = isDefault ? "default" : .int(Int64(index))
                let document = isDefault ? Self.defaultDocument(model, table: t) : documents?[index]
                var members = [
                    JSONMember("window", .string(names[t])), JSONMember("index", id),
                    JSONMember("hits", .int(Int64(count))),
                    JSONMember("entry", document ?? .null)
                ]
                if compared[t][index] > 0 {
                    members.append(JSONMember("upstream", Self.upstreamJSON(compared[t][index], matched[t][index])))
                    upstream.compared += compared[t][index]
                    upstream.matched += matched[t][index]
                }
                entries.append(.object(members))
                if count == 0 {
                    never.append(.object([JSONMember("window", .string(names[t])), JSONMember("index", id)]))
                }
            }
        }
        var members = [
            JSONMember("model", .string(model.name)), JSONMember("answered", .int(Int64(total))),
            JSONMember("entries", .array(entries)), JSONMember("never", .array(never))
        ]
        if upstream.compared > 0 {
            members.append(JSONMember("upstream", Self.upstreamJSON(upstream.compared, upstream.matched)))
        }
        return .object(members)
    }

    /// `{"compared": N, "matched": M}`: answers the upstream gave, and how many were the model's.
    private static func upstreamJSON(_ compared: Int, _ matched: Int) -> JSONValue {
        .object([JSONMember("compared", .int(Int64(compared))), JSONMember("matched", .int(Int64(matched)))])
    }

    private static func tables(_ model: ConversionModel) -> [RuleTable?] {
        let skan3: RuleTable? = if case .rules(let table) = model.skan3 { table } else { nil }
        return [skan3] + model.skan4
    }

    private static func tableDocument(_ model: ConversionModel, table: Int) -> JSONValue? {
        table == 0 ? model.json["skan3"] : model.json["skan4"]?["p\(table - 1)"]
    }

    private static func entryDocuments(_ model: ConversionModel, table: Int) -> [JSONValue]? {
        tableDocument(model, table: table)?["entries"]?.arrayValue
    }

    private static func defaultDocument(_ model: ConversionModel, table: Int) -> JSONValue? {
        tableDocument(model, table: table)?["default"]
    }
}
