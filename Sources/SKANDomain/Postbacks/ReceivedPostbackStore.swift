import SystemPOSIX

/// The postbacks the server received, newest last, kept in memory for
/// `GET /__admin/postbacks/received`: at most `capacity` of them and `capacityBytes` of their
/// bodies, oldest dropped first and counted, as the journal keeps requests (a phone retrying, or a
/// sender in a loop, must not grow the server without end).
public final class ReceivedPostbackStore: Sendable {
    /// One received postback: what came, when, from where, for which device it was named, and
    /// the verifier's verdict.
    public struct Entry: Sendable {
        /// The journal entry that records it.
        public var id: Int64
        public var timeMilliseconds: Int64
        public var path: String
        public var remote: String
        /// `?device=ID` on the receiving URL; nil when the sender named none (a phone never does).
        public var device: String?
        public var postback: ReceivedPostback
        public var verdict: PostbackVerdict
        /// The body's size, which the bound counts.
        public var bytes: Int

        public init(
            id: Int64, timeMilliseconds: Int64, path: String, remote: String, device: String?,
            postback: ReceivedPostback, verdict: PostbackVerdict, bytes: Int
        ) {
            self.id = id
            self.timeMilliseconds = timeMilliseconds
            self.path = path
            self.remote = remote
            self.device = device
            self.postback = postback
            self.verdict = verdict
            self.bytes = bytes
        }
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var bytes = 0
        var dropped: Int64 = 0
    }

    public let capacity: Int
    public let capacityBytes: Int
    private let state = Mutex(State())

    public init(capacity: Int = 1_000, capacityBytes: Int = 4 << 20) {
        self.capacity = max(1, capacity)
        self.capacityBytes = max(1, capacityBytes)
    }

    /// Keeps `entry`, dropping the oldest while the count or the bytes would pass the bound (the
    /// newest is always kept). Dropped entries are released after the lock.
    public func add(_ entry: Entry) {
        _ = state.withLock { s -> [Entry] in
            var dropped = 0
            while dropped < s.entries.count
                && (s.entries.count - dropped >= capacity || s.bytes + entry.bytes > capacityBytes)
            {
                s.bytes -= s.entries[dropped].bytes
                dropped += 1
            }
            let gone = Array(s.entries.prefix(dropped))
            s.entries.removeFirst(dropped)
            s.dropped += Int64(dropped)
            s.entries.append(entry)
            s.bytes += entry.bytes
            return gone
        }
    }

    /// The entries kept, oldest first; with `device`, those named for it only.
    public func entries(device: String? = nil) -> [Entry] {
        let all = state.withLock { $0.entries }
        guard let device else { return all }
        return all.filter { $0.device == device }
    }

    /// How many were dropped to stay within the bound.
    public var dropped: Int64 { state.withLock { $0.dropped } }

    public var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every postback (`POST /__admin/reset`).
    public func clear() {
        _ = state.withLock { s -> [Entry] in
            let gone = s.entries
            s = State()
            return gone
        }
    }
}
