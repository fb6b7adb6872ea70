@testable import SKANSimulator

/// A transport with no sockets: records every target and answers from a script, so the simulator's
/// state machine is tested on its own.
final class ScriptedTransport: SimulatorTransport {
    var targets: [String] = []
    var answer: (String) throws(SimulatorTransportError) -> SimulatorResponse

    init(
        answer: @escaping (String) throws(SimulatorTransportError) -> SimulatorResponse = { _ in ScriptedTransport.ok }
    ) {
        self.answer = answer
    }

    func get(_ target: String) throws(SimulatorTransportError) -> SimulatorResponse {
        targets.append(target)
        return try answer(target)
    }

    static let ok = SimulatorResponse(status: 200, body: Array(#"{"status":"ok"}"#.utf8))

    static func json(_ text: String, status: Int = 200) -> SimulatorResponse {
        SimulatorResponse(status: status, body: Array(text.utf8))
    }

    static func skan4(fine: Int, coarse: Int?, lock: Bool) -> SimulatorResponse {
        let coarseText = coarse.map { ",\"skan_updated_coarse_value\":\($0)" } ?? ""
        return json(
            "{\"status\":\"ok\",\"conversion_value\":\(fine)\(coarseText),\"skan_updated_lock_window_value\":\(lock)}")
    }
}
