/// What a step did to the device, in the terms of the snippet's completion handler.
public enum SimulationOutcome: Sendable, Equatable {
    /// `registerAppForAdNetworkAttribution` stored fine 0 and the first-call time.
    case registered(firstCall: Int64)
    /// Registered before: the snippet returns without doing anything.
    case alreadyRegistered
    /// The server's values, applied with `valuesHasBeenUpdated` in window `window` (0...2).
    case applied(fine: Int64, coarse: Int64?, lock: Bool, window: Int?)
    /// `{"status":"ok"}` with no value: nothing to update, the handler is not called.
    case nothingToUpdate
    /// The handler got an error (the server's reason, or the snippet's own text); nothing stored.
    case failed(String)
    /// `isSkanWindowOver` (35 days past the first call, or never registered): nothing sent.
    case skippedWindowOver
    /// Revenue added to the total and, when in a window, to that window's total.
    case revenueAdded(window: Int?)
    /// An amount of 0: `updateRevenue` returns at once.
    case revenueIgnored
    /// The clock moved on; every stored timestamp was moved back by `seconds`.
    case advanced(seconds: Int64)

    /// True for an error told by the server or by the snippet's checks.
    public var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}
