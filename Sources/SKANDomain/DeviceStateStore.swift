/// Device states bounded by a least-recently-used policy: a dictionary from device key to a slot in
/// an array of nodes linked into a recency list by index, so lookup, touch and eviction are all O(1).
/// Not synchronised: its owner (`ConversionService`) keeps it behind its lock.
public struct DeviceStateStore: Sendable {
    private struct Node: Sendable {
        var key: String
        var state: DeviceState
        var newer: Int
        var older: Int
    }

    public let capacity: Int
    private var slots: [String: Int] = [:]
    private var nodes: [Node] = []
    /// Most recently used, least recently used; -1 when empty.
    private var newest = -1
    private var oldest = -1
    /// Devices dropped to stay within capacity.
    public private(set) var evicted = 0

    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
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
            return
        }
        insert(key, state)
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
        return body(&nodes[slot].state)
    }

    @discardableResult
    private mutating func insert(_ key: String, _ state: DeviceState) -> Int {
        let slot: Int
        if slots.count >= capacity {
            slot = oldest
            unlink(slot)
            slots[nodes[slot].key] = nil
            nodes[slot].key = key
            nodes[slot].state = state
            evicted += 1
        } else {
            slot = nodes.count
            nodes.append(Node(key: key, state: state, newer: -1, older: -1))
        }
        slots[key] = slot
        linkAsNewest(slot)
        return slot
    }

    public mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        newest = -1
        oldest = -1
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    public var keysByRecency: [String] {
        var keys: [String] = []
        var slot = newest
        while slot >= 0 {
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
