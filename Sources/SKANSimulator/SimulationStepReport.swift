/// Everything one step did: where the device stood, what was sent, what came back, and its state
/// afterwards. The printer and the tests read these.
public struct SimulationStepReport: Sendable, Equatable {
    /// 1-based, as printed.
    public var number: Int
    public var step: SimulationStep
    /// The window (0...2, nil when over or unregistered) and the device's age in seconds since the
    /// first call (nil before registration), at the moment the step acted (after it, for `advance`).
    public var window: Int?
    public var age: Int64?
    public var exchanges: [SimulationExchange]
    public var outcome: SimulationOutcome
    public var device: SimulatedDevice

    public init(
        number: Int, step: SimulationStep, window: Int?, age: Int64?, exchanges: [SimulationExchange],
        outcome: SimulationOutcome, device: SimulatedDevice
    ) {
        self.number = number
        self.step = step
        self.window = window
        self.age = age
        self.exchanges = exchanges
        self.outcome = outcome
        self.device = device
    }

    /// `p0`, `p1`, `p2`, `over`, or `--` for a device not registered yet.
    public var windowLabel: String {
        if let window { return "p\(window)" }
        return age == nil ? "--" : "over"
    }
}
