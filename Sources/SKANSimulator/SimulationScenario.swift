import SKANDomain

/// A scenario file for `skan-mock simulate`: who the device is and what the app does, step by step.
///
/// ```json
/// {"name": "lifecycle", "device": "SIM-1", "s2s": true,
///  "app": {"api_key": "K", "bundle": "com.example.app", "version": "1.0", "os_version": "17.4", "idfa": "..."},
///  "steps": [{"register": {}}, {"session": {}}, {"event": "level_up"},
///            {"revenue": {"amount": 15.53, "currency": "KRW", "admon": false}}, {"advance": "49h"}]}
/// ```
/// Unknown keys are errors, so a typo never silently changes what is simulated.
public struct SimulationScenario: Sendable, Equatable {
    public var name: String
    public var description: String?
    /// The `idfv` sent; by default derived from the name, so reruns hit the same device.
    public var device: String
    public var app = SimulatedApp()
    /// Also forward `getSkanDetails` to `/api/v1/launch` and `/api/v1/evt`, as the lifecycle example's back end does.
    public var s2s = false
    public var steps: [SimulationStep]

    public init(
        name: String, description: String? = nil, device: String? = nil, s2s: Bool = false, steps: [SimulationStep]
    ) {
        self.name = name
        self.description = description
        self.device = device ?? Self.defaultDevice(for: name)
        self.s2s = s2s
        self.steps = steps
    }

    /// A stable, IDFV-shaped id (8-4-4-4-12 hex) from the scenario's name: random-looking, so
    /// devices of different scenarios never share server state, yet the same on every run.
    public static func defaultDevice(for name: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in name.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01B3
            }
            return hash
        }
        let hex = Array("0123456789ABCDEF")
        var digits: [Character] = []
        for word in [fnv(0xCBF2_9CE4_8422_2325), fnv(0x8422_2325_CBF2_9CE4)] {
            for shift in stride(from: 60, through: 0, by: -4) { digits.append(hex[Int((word >> UInt64(shift)) & 0xF)]) }
        }
        let text = String(digits)
        var parts: [Substring] = []
        var index = text.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = text.index(index, offsetBy: length)
            parts.append(text[index..<end])
            index = end
        }
        return parts.joined(separator: "-")
    }

    /// Reads a scenario from JSON text; `file` names it in errors, and its base name is the
    /// scenario's name when the file gives none.
    public static func parse(text: String, file: String) throws(ScenarioError) -> SimulationScenario {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw ScenarioError(
                file: file, path: "line \(error.line), column \(error.column)", reason: error.reason)
        }
        return try ScenarioReader(file: file).scenario(root)
    }

    /// The name a file gives a scenario without a `name`: its base name without `.json`.
    static func baseName(_ file: String) -> String {
        var name = file.split(separator: "/").last.map(String.init) ?? file
        if name.hasSuffix(".json") { name.removeLast(5) }
        return name
    }
}
