import Foundation
import Testing

@testable import SKANDomain

/// 2025-11-21T04:40:00Z: the fixed "now" most tests start from.
// swift-format-ignore: AlwaysUseLowerCamelCase
let T0: Int64 = 1_763_700_000
let hour: Int64 = 3600
let day: Int64 = 86_400

/// A service on a manual clock set to `now` (Unix seconds).
func makeService(
    _ model: ConversionModel = .builtIn, now: Int64 = T0, strict: Bool = false,
    capacity: Int = 100_000
) -> (ConversionService, ManualClock) {
    let clock = ManualClock(seconds: now)
    return (ConversionService(model: model, clock: clock, deviceCapacity: capacity, strict: strict), clock)
}

func request(_ endpoint: SKANEndpoint, _ params: [(String, String)]) -> SKANRequest {
    SKANRequest(
        method: "GET", path: endpoint.path, remote: "127.0.0.1:50000",
        parameters: params.map { (name: $0.0, value: $0.1) })
}

/// What the SKAN 4 snippet sends, for device `device`, with the SKAN metadata given in `skan`.
func skan4Params(
    device: String = "IDFV-1", event: String = "__SESSION__", first: Int64? = T0,
    _ skan: [(String, String)] = []
) -> [(String, String)] {
    var p: [(String, String)] = [
        ("a", "KEY"), ("v", "17.1"), ("i", "com.example.app"), ("app_v", "1.0"),
        ("n", event), ("p", "iOS"), ("idfv", device), ("idfa", "IDFA")
    ]
    if let first { p.append(("skan_first_call_to_skadnetwork_timestamp", String(first))) }
    p.append(contentsOf: skan)
    return p
}

/// What the SKAN 3 snippet sends.
func skan3Params(
    device: String = "IDFV-1", event: String = "__SESSION__", value: String? = "0",
    first: Int64 = T0, _ extra: [(String, String)] = []
) -> [(String, String)] {
    var p: [(String, String)] = [
        ("a", "SDK-KEY"), ("i", "com.example.app"), ("app_v", "1.0"), ("n", event), ("p", "iOS"),
        ("idfv", device), ("idfa", "")
    ]
    if let value { p.append(("conversion_value", value)) }
    p.append(("total_revenue_by_currency", "{}"))
    p.append(("first_call_to_skadnetwork_timestamp", String(first)))
    p.append(("last_call_to_skadnetwork_timestamp", String(first)))
    p.append(contentsOf: extra)
    return p
}

extension ConversionService {
    func skan4(_ params: [(String, String)]) -> SKANOutcome { handle(.skan4, request(.skan4, params)) }
    func skan3(_ params: [(String, String)]) -> SKANOutcome { handle(.skan3, request(.skan3, params)) }
}

func loadModel(_ json: String, source: String = "test.json") throws -> ConversionModel {
    try ConversionModel.parse(text: json, source: source)
}

func modelError(_ json: String, source: String = "test.json") -> ModelError? {
    do {
        _ = try ConversionModel.parse(text: json, source: source)
        return nil
    } catch {
        return error
    }
}

/// The repository's config/ folder, found from this file's path.
func configFile(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let url = root.appendingPathComponent("config").appendingPathComponent(name)
    return [UInt8](try Data(contentsOf: url))
}

func codes(_ outcome: SKANOutcome) -> [String] { outcome.findings.map(\.code.rawValue) }

func finding(_ outcome: SKANOutcome, _ code: FindingCode) -> ValidationFinding? {
    outcome.findings.first { $0.code == code }
}

final class CollectingSink: JournalSink {
    private let lines = LockedLines()
    func write(line: [UInt8]) { lines.append(line) }
    var all: [[UInt8]] { lines.all }
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[UInt8]] = []
    func append(_ line: [UInt8]) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }
    var all: [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
