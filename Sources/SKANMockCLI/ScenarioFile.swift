import SKANFiles
import SKANMock
import SKANSimulator

extension SimulationScenario {
    /// Reads a scenario file from disk: the simulator itself does no file I/O.
    static func load(path: String) throws(ScenarioError) -> SimulationScenario {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw ScenarioError(file: path, path: "$", reason: "cannot read the file: \(error.reason)")
        }
        return try parse(text: String(decoding: bytes, as: UTF8.self), file: path)
    }
}
