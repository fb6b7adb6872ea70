/// The window a SKAN 4 request (`/api/v2/conversion_value`, or an S2S notification) falls in,
/// decided once from its first call and the time, with the findings that need that window; the
/// windowed rules, the journal and the outcome all read this one decision.
struct WindowDecision: Sendable {
    /// nil without a first call: then no window can be chosen and nothing is answered.
    let window: SKANWindow?

    init(_ parameters: SKAN4Parameters, nowMilliseconds now: Int64, reader: inout ParameterReader) {
        window = parameters.firstCall.map { SKANWindow.at(firstCallSeconds: $0, nowMilliseconds: now) }
        parameters.checkConsistency(window: window, reader: &reader)
    }

    /// The client says the current window is locked, yet asks for an update in it.
    func lockParameterFinding(_ parameters: SKAN4Parameters) -> ValidationFinding? {
        guard let n = window?.index, let lock = parameters.windows[n].windowLock else { return nil }
        let name = SKANWindowParameters.windowLockName(n).name
        return ValidationFinding(
            param: name, code: .updateAfterWindowLock,
            message:
                "\(name) is set (\(lock)): p\(n) was locked, so iOS ignores this update; stop asking for values \(n + 1 < 3 ? "until p\(n + 1) begins" : "(p2 is the last window)")"
        )
    }
}
