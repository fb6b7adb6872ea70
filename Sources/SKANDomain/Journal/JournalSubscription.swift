import SystemPOSIX

/// A live reader of the journal (the console's event stream). Readers pull: they keep their own
/// position and read what is new (`Journal.read`), so recording an entry costs a reader nothing but
/// one flag check, however many readers are open. A reader that has read everything arms itself;
/// the next commit disarms it and calls `wake` once (under the journal's lock: `wake` must only
/// schedule work, never call back into the journal). Clearing the journal wakes every reader.
public final class JournalSubscription: Sendable {
    private let armed = Atomic<Bool>(false)
    private let onWake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        onWake = wake
    }

    /// Asks to be woken by the next commit. Arm before reading, so an entry committed between the
    /// read and the arming cannot be missed (at worst a wake finds nothing new).
    public func arm() { armed.store(true, ordering: .releasing) }

    /// On commit: wakes the reader if it was armed.
    func commitHappened() {
        guard armed.load(ordering: .relaxed) else { return }
        if armed.exchange(false, ordering: .acquiringAndReleasing) { onWake() }
    }

    /// On clear: wakes the reader whatever it was doing.
    func wake() {
        armed.store(false, ordering: .relaxed)
        onWake()
    }
}

/// Where a new reader starts from: the latest id stored, and the journal's generation (bumped by
/// each clear), to pass to the first `read`.
public struct JournalPosition: Sendable, Equatable {
    public let lastId: Int64
    public let generation: Int
}

/// What one `Journal.read` found after a reader's position.
public struct JournalReading: Sendable {
    /// True when what the reader showed is gone: the journal was cleared since `generation`, or
    /// entries after the reader's position were dropped. The reader starts its view again.
    public var reset = false
    /// Matching entries after the position, oldest first, at most the limit asked for.
    public var entries: [JournalEntry] = []
    /// The position to read after next time (the last entry looked at, matching or not).
    public var cursor: Int64
    /// The generation to pass next time.
    public var generation: Int
    /// True when the limit cut the reading short: more matching entries are waiting.
    public var more = false
}
