/// Which deadline a connection is under, kept apart from I/O so that every timeout rule is tested
/// with a hand-moved clock. The connection reports what it is doing; `action(at:)` says whether
/// time is up and what to do about it.
struct ConnectionTimeouts: Sendable, Equatable {
    enum Phase: Sendable, Equatable {
        /// Between requests on a keep-alive connection.
        case idle
        /// Some bytes of a request head have arrived, not all of it.
        case readingHead
        /// Headers done, the body still coming: it has the body deadline, from the end of the
        /// headers, to arrive whole.
        case readingBody
        /// A handler owns the request; no deadline (a fault may delay an answer on purpose).
        case responding
        /// An answer is queued but the client is not reading it.
        case writing
        /// Answer sent and our side shut; waiting for the client to finish so close does not RST.
        case draining
    }

    enum Action: Sendable, Equatable {
        /// Answer `408 Request Timeout`, then close.
        case requestTimeout
        /// Close without a word.
        case close
    }

    private(set) var phase: Phase
    private(set) var since: Double
    let limits: HTTPLimits.Timeouts

    /// Seconds a closing connection waits for its client before closing anyway.
    static let drainSeconds: Double = 2

    init(limits: HTTPLimits.Timeouts, now: Double) {
        self.limits = limits
        phase = .idle
        since = now
    }

    /// Moves to `phase`; the clock restarts only when the phase changes, so a trickling head or
    /// body does not extend its own deadline.
    mutating func enter(_ phase: Phase, at now: Double) {
        if phase != self.phase {
            self.phase = phase
            since = now
        }
    }

    func action(at now: Double) -> Action? {
        let elapsed = now - since
        switch phase {
        case .idle: return elapsed >= limits.idle ? .close : nil
        case .readingHead: return elapsed >= limits.header ? .requestTimeout : nil
        case .readingBody: return elapsed >= limits.body ? .requestTimeout : nil
        case .responding: return nil
        case .writing: return elapsed >= limits.write ? .close : nil
        case .draining: return elapsed >= Self.drainSeconds ? .close : nil
        }
    }
}

extension HTTPLimits {
    struct Timeouts: Sendable, Equatable {
        var header: Double
        var body: Double
        var idle: Double
        var write: Double
    }

    var timeouts: Timeouts {
        Timeouts(
            header: headerTimeoutSeconds, body: bodyTimeoutSeconds, idle: idleTimeoutSeconds, write: writeTimeoutSeconds
        )
    }
}
