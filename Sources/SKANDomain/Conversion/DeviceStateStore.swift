/// Device states bounded by a least-recently-used policy: a dictionary from device key to a slot in
/// an array of nodes linked into a recency list by index, so lookup, touch and eviction are all O(1).
/// Bounded by count and by bytes (`DeviceState.estimatedBytes`: ids and event names are the
/// client's choice; 1,200 ids of 1 MB once held 1.2 GiB under the count alone).
/// Not synchronised: its owner (`ConversionService`) keeps it behind its lock.
public struct DeviceStateStore: Sendable {
    private struct Node: Sendable {
        var key: String
        var state: DeviceState
        var newer: Int
        var older: Int
        /// What this node counts in `bytes`.
        var bytes = 0
    }

    public let capacity: Int
    /// The most bytes of state kept (estimated); past it, the least recently used devices go.
    public let maxBytes: Int
    /// The bytes of state kept, estimated as `maxBytes` counts them.
    public private(set) var bytes = 0
    private var slots: [String: Int] = [:]
    private var nodes: [Node] = []
    /// Slots of devices dropped for bytes, reused first.
    private var free: [Int] = []
    /// Most recently used, least recently used; -1 when empty.
    private var newest = -1
    private var oldest = -1
    /// Devices dropped to stay within capacity.
    public private(set) var evicted = 0

    /// 256 MiB: 100,000 ordinary devices take about a tenth of it.
    public static let defaultMaxBytes = 256 << 20

    public init(capacity: Int = 100_000, maxBytes: Int = DeviceStateStore.defaultMaxBytes) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
    }

    public var count: Int { slots.count }

    /// The state of `key` (marking it most recently used), nil when unknown.
    public mutating func get(_ key: String) -> DeviceState? {
        guard let slot = slots[key] else { return nil }
        touch(slot)
        return nodes[slot].state
    }

    /// The state of `key` without changing its recency (for admin reads).
    public func peek(_ key: String) -> DeviceState? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot].state
    }

    /// Stores `state` for `key` as the most recently used, evicting the least recently used device
    /// when the store is full.
    public mutating func set(_ key: String, _ state: DeviceState) {
        if let slot = slots[key] {
            nodes[slot].state = state
            touch(slot)
            account(slot)
            return
        }
        account(insert(key, state))
    }

    /// Runs `body` on the state of `key` in place, creating it with `make` when unknown (which may
    /// evict the least recently used device), and marks it most recently used. No copy is made.
    public mutating func update<R>(_ key: String, make: () -> DeviceState, _ body: (inout DeviceState) -> R) -> R {
        let slot: Int
        if let existing = slots[key] {
            slot = existing
            touch(slot)
        } else {
            slot = insert(key, make())
        }
        let result = body(&nodes[slot].state)
        account(slot)
        return result
    }

    private mutating func insert(_ key: String, _ state: DeviceState) -> Int {
        let slot: Int
        if slots.count >= capacity {
            slot = oldest
            unlink(slot)
            slots[nodes[slot].key] = nil
            bytes -= nodes[slot].bytes
            nodes[slot] = Node(key: key, state: state, newer: -1, older: -1)
            evicted += 1
        } else if let reused = free.popLast() {
            slot = reused
            nodes[slot] = Node(key: key, state: state, newer: -1, older: -1)
        } else {
            slot = nodes.count
            nodes.append(Node(key: key, state: state, newer: -1, older: -1))
        }
        slots[key] = slot
        linkAsNewest(slot)
        return slot
    }

    /// Counts what `slot`'s device takes now, then drops the least recently used others while the
    /// store is over `maxBytes` (the device just used stays, however large: its id and names are cut
    /// to `CommonParameters.maxIdentifierBytes` and its names to `DeviceState.maximumDistinctEvents`).
    private mutating func account(_ slot: Int) {
        let now = nodes[slot].state.estimatedBytes(key: nodes[slot].key)
        bytes += now - nodes[slot].bytes
        nodes[slot].bytes = now
        while bytes > maxBytes && oldest != slot && oldest >= 0 {
            let victim = oldest
            unlink(victim)
            slots[nodes[victim].key] = nil
            bytes -= nodes[victim].bytes
            // Gives the id and the event names back at once.
            nodes[victim] = Node(key: "", state: DeviceState(nowMilliseconds: 0), newer: -1, older: -1)
            free.append(victim)
            evicted += 1
        }
    }

    public mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        free.removeAll()
        bytes = 0
        newest = -1
        oldest = -1
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    public var keysByRecency: [String] { keysByRecency(limit: Int.max) }

    /// The `limit` most recently used keys, newest first (O(limit)).
    public func keysByRecency(limit: Int) -> [String] {
        var keys: [String] = []
        var slot = newest
        while slot >= 0 && keys.count < limit {
            keys.append(nodes[slot].key)
            slot = nodes[slot].older
        }
        return keys
    }

    private mutating func touch(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer
        let older = nodes[slot].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = -1
        nodes[slot].older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
