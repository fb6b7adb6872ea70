import SystemPOSIX

/// The postbacks the server received, newest last, kept in memory for
/// `GET /__admin/postbacks/received`: at most `capacity` of them and `capacityBytes` of their
/// bodies, oldest dropped first and counted, as the journal keeps requests (a phone retrying, or a
/// sender in a loop, must not grow the server without end). Each named tenant has a share of the
/// server's bound (`Tenant.receivedPostbackBounds`), so all of them together hold no more than the
/// default tenant may.
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

    /// An entry as kept: the body's bytes in place of the parsed postback, read again when listed.
    /// A parsed body costs many times its bytes (a 1 MiB array of zeros took 12 MiB), so a bound on
    /// the bytes received bounded nothing that was held (issue 47.5).
    private struct Kept: Sendable {
        var entry: Entry
        var framework: PostbackQuery.Framework
        var body: [UInt8]
    }

    private struct State: Sendable {
        var kept: [Kept] = []
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

    /// Keeps `entry` received as `body`, dropping the oldest while the count or the bytes would
    /// pass the bound (the newest is always kept). What is held is `body`, counted by its size;
    /// `entry.postback` is read from it again when listed. Dropped entries are released after the lock.
    public func add(_ entry: Entry, body: [UInt8]) {
        var entry = entry
        entry.bytes = body.count
        let kept = Kept(entry: entry, framework: entry.postback.framework, body: body)
        _ = state.withLock { s -> [Kept] in
            var dropped = 0
            while dropped < s.kept.count
                && (s.kept.count - dropped >= capacity || s.bytes + kept.body.count > capacityBytes)
            {
                s.bytes -= s.kept[dropped].body.count
                dropped += 1
            }
            let gone = Array(s.kept.prefix(dropped))
            s.kept.removeFirst(dropped)
            s.dropped += Int64(dropped)
            s.kept.append(kept)
            s.bytes += kept.body.count
            return gone
        }
    }

    /// The entries kept, oldest first, each body read again; with `device`, those named for it only.
    public func entries(device: String? = nil) -> [Entry] {
        let all = state.withLock { s in device.map { d in s.kept.filter { $0.entry.device == d } } ?? s.kept }
        return all.compactMap { kept in
            // It was read once before it was kept, so it reads again the same.
            guard case .success(let postback) = ReceivedPostback.parse(kept.body, framework: kept.framework) else {
                return nil
            }
            var entry = kept.entry
            entry.postback = postback
            return entry
        }
    }

    /// The bytes held now, which `capacityBytes` bounds.
    public var bytesHeld: Int { state.withLock { $0.bytes } }

    /// How many were dropped to stay within the bound.
    public var dropped: Int64 { state.withLock { $0.dropped } }

    public var count: Int { state.withLock { $0.kept.count } }

    /// Forgets every postback (`POST /__admin/reset`).
    public func clear() {
        _ = state.withLock { s -> [Kept] in
            let gone = s.kept
            s = State()
            return gone
        }
    }
}
