/// The SKAN metadata a request carried, typed: what the journal's `skan` member shows. Kept as the
/// parsed parameters and written straight into the journal line (no JSON tree per request).
/// Indirect: the parameters sit in one box, so the outcome and the answer that carry them are
/// copied with one reference count instead of one per revenue, array and string inside.
public indirect enum SKANMetadata: Sendable, Equatable {
    /// A request the service never judged (a wrong path, a refused method): `null`.
    case none
    case skan3(SKAN3Parameters)
    case skan4(SKAN4Parameters)

    /// The journal's `skan` value.
    public var json: JSONValue { (try? JSONParser.parse(jsonText)) ?? .null }

    /// The JSON text the journal line holds.
    public var jsonText: [UInt8] {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.bytes
    }

    func write(to w: inout JSONWriter) {
        switch self {
        case .none: w.raw("null")
        case .skan3(let p): p.write(to: &w)
        case .skan4(let p): p.write(to: &w)
        }
    }
}
