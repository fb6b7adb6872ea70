/// What the server remembers about one device, so that conditions can count events across requests
/// and findings can compare a request with earlier ones. Kept apart per channel: the conversion-value
/// endpoints and the S2S endpoints see the same events (an app reports each to both), so sharing
/// counts would count every event twice.
public struct DeviceState: Sendable, Equatable {
    /// At most this many distinct event names are counted per window, so a client inventing names
    /// cannot grow the state without bound.
    public static let maximumDistinctEvents = 256

    public var firstSeenMilliseconds: Int64
    public var lastSeenMilliseconds: Int64
    public var requests: Int = 0
    public var skan3 = SKAN3DeviceState()
    /// `/api/v2/conversion_value`.
    public var skan4 = WindowedDeviceState()
    /// `/api/v1/launch` and `/api/v1/evt`.
    public var s2s = WindowedDeviceState()

    public init(nowMilliseconds: Int64) {
        firstSeenMilliseconds = nowMilliseconds
        lastSeenMilliseconds = nowMilliseconds
    }

    /// `GET /__admin/devices/{device}`.
    public func json(device: String) -> JSONValue {
        .object([
            JSONMember("device", .string(device)),
            JSONMember("first_seen", .string(RFC3339.format(milliseconds: firstSeenMilliseconds))),
            JSONMember("last_seen", .string(RFC3339.format(milliseconds: lastSeenMilliseconds))),
            JSONMember("requests", .int(Int64(requests))),
            JSONMember("skan3", skan3.json),
            JSONMember("skan4", skan4.json),
            JSONMember("s2s", s2s.json)
        ])
    }

    /// Counts `event`; the bytes a new name adds to the state (0 when it was counted before).
    @discardableResult
    static func count(_ event: String, in counts: inout [String: Int]) -> Int {
        if let n = counts[event] {
            counts[event] = n + 1
        } else if counts.count < maximumDistinctEvents {
            counts[event] = 1
            return event.utf8.count + perEventBytes
        }
        return 0
    }

    /// What the device store counts for a device: a fixed share for the state's own arrays and
    /// dictionaries, plus its id and the names of its events, which a client chooses.
    func estimatedBytes(key: String) -> Int {
        Self.fixedBytes + key.utf8.count + skan3.eventBytes + skan4.eventBytes + s2s.eventBytes
    }

    /// About what an empty state and its dictionaries take on the heap, and what a counted name
    /// adds besides its bytes (a dictionary slot, a string's header).
    static let fixedBytes = 1024
    static let perEventBytes = 48

    static func eventsJSON(_ counts: [String: Int]) -> JSONValue {
        .object(counts.sorted { $0.key < $1.key }.map { JSONMember($0.key, .int(Int64($0.value))) })
    }
}

/// SKAN 3 has no windows: events are counted over the device's whole life.
public struct SKAN3DeviceState: Sendable, Equatable {
    public var events: [String: Int] = [:]
    /// The bytes its event names take (`DeviceState.count`).
    public var eventBytes = 0
    /// The highest `conversion_value` the device has sent; a lower one later is a finding.
    public var highestValueSent: Int64?
    public var lastValueReturned: Int64?
    /// When an answer last raised the value (SKAN 3's postback timer runs from it), milliseconds.
    public var lastRaisedMilliseconds: Int64?
    /// When the app first sent `highestValueSent` (milliseconds): a value it set without asking
    /// (a first request that already reports 2) starts the postback timer too.
    public var highestSentMilliseconds: Int64?
    /// The device's `first_call_to_skadnetwork_timestamp` (seconds), part of its transaction-id.
    public var firstCallSeconds: Int64?

    /// The client got `value` at `now` (nil: an answer without one changes nothing); a value
    /// higher than the last starts SKAN 3's postback timer again.
    mutating func remember(_ value: Int64?, at now: Int64) {
        guard let value else { return }
        if value > (lastValueReturned ?? -1) { lastRaisedMilliseconds = now }
        lastValueReturned = value
    }

    var json: JSONValue {
        .object([
            JSONMember("events", DeviceState.eventsJSON(events)),
            JSONMember("highest_value_sent", highestValueSent.map { .int($0) } ?? .null),
            JSONMember("last_value_returned", lastValueReturned.map { .int($0) } ?? .null)
        ])
    }
}

/// SKAN 4 state: per window the events seen, the last values returned and whether the server told
/// the client to lock; plus the fine value the device had when p0 ended.
public struct WindowedDeviceState: Sendable, Equatable {
    public var events: [[String: Int]] = [[:], [:], [:]]
    /// The bytes its event names take (`DeviceState.count`).
    public var eventBytes = 0
    public var lastReturned: [ModelAnswer?] = [nil, nil, nil]
    public var lockedByServer: [Bool] = [false, false, false]
    /// The last fine value known for p0 (sent by the client or returned by the server in p0). After
    /// p0 the client should keep sending it; when the server first meets a device after p0, the first
    /// value it sees becomes this baseline.
    public var p0Fine: Int64?
    /// The device's `skan_first_call_to_skadnetwork_timestamp` (seconds): where its windows begin.
    public var firstCallSeconds: Int64?
    /// When each window's value was last answered, and when the server locked it (milliseconds).
    public var lastSetMilliseconds: [Int64?] = [nil, nil, nil]
    public var lockedAtMilliseconds: [Int64?] = [nil, nil, nil]
    /// The values a window held when it was locked: iOS ignores later updates, so these are what
    /// its postback carries, whatever was answered after.
    public var lockedValue: [ModelAnswer?] = [nil, nil, nil]
    /// What the app reports of each window (`pN_coarse`, `pN_window_lock` in seconds): its postback
    /// carries them where the server answered no value, or no lock, in that window.
    public var appCoarse: [Int64?] = [nil, nil, nil]
    public var appLockSeconds: [Int64?] = [nil, nil, nil]

    /// A newer first call is a new install, so a new attribution: its windows start empty, and
    /// nothing of the old install (events, values, locks) is carried into them.
    mutating func reinstall(firstCallSeconds first: Int64) {
        self = WindowedDeviceState()
        firstCallSeconds = first
    }

    /// Remembers what the app reports of each window begun (a coarse value in 0...2, a lock time).
    mutating func noteAppReported(_ windows: SKAN4Parameters.Windows, through current: Int) {
        for n in 0...Swift.min(current, 2) {
            if let coarse = windows[n].coarse, (0...2).contains(coarse) { appCoarse[n] = coarse }
            if let lock = windows[n].windowLock { appLockSeconds[n] = lock }
        }
    }

    /// The client got `answer` in window `n` at `now` (the model's, or one it was given instead):
    /// the window's values are these now, a lock locks it, and in p0 the fine value is the device's.
    mutating func remember(_ answer: ModelAnswer, window n: Int, at now: Int64) {
        lastReturned[n] = answer
        lastSetMilliseconds[n] = now
        if answer.lock {
            lockedByServer[n] = true
            lock(n, at: now)
        }
        if n == 0, let fine = answer.fine { p0Fine = fine }
    }

    /// Window `n` was locked at `now` (milliseconds): the first lock counts, with the values it held.
    mutating func lock(_ n: Int, at now: Int64) {
        guard lockedAtMilliseconds[n] == nil else { return }
        lockedAtMilliseconds[n] = now
        lockedValue[n] = lastReturned[n]
    }

    var json: JSONValue {
        var windows: [JSONMember] = []
        for n in 0..<3 {
            var last: JSONValue = .null
            if let a = lastReturned[n] {
                var m: [JSONMember] = []
                if let f = a.fine { m.append(JSONMember("fine", .int(f))) }
                if let c = a.coarse { m.append(JSONMember("coarse", .int(c))) }
                m.append(JSONMember("lock", .bool(a.lock)))
                last = .object(m)
            }
            windows.append(
                JSONMember(
                    "p\(n)",
                    .object([
                        JSONMember("events", DeviceState.eventsJSON(events[n])),
                        JSONMember("last_returned", last),
                        JSONMember("locked", .bool(lockedByServer[n]))
                    ])))
        }
        windows.append(JSONMember("p0_fine", p0Fine.map { .int($0) } ?? .null))
        return .object(windows)
    }
}
