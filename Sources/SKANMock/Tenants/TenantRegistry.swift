import SKANDomain
import SystemPOSIX

/// The named tenants, made on first use and bounded in number: past `capacity`, the one least
/// recently used is dropped (its next request starts it afresh). The one owner of the tenants'
/// table; a request to a tenant costs one lookup under its lock.
final class TenantRegistry: Sendable {
    /// What the registry keeps of a tenant.
    struct Slot: Sendable {
        var site: TenantSite
        /// The registry's tick at the last use: the smallest is dropped first.
        var lastUsed: UInt64
        /// Milliseconds since 1970 of the last request (nil: made, never asked yet).
        var lastRequestMilliseconds: Int64?
    }

    private struct State: Sendable {
        var slots: [String: Slot] = [:]
        var tick: UInt64 = 0
    }

    let capacity: Int
    /// What each named tenant's devices are bounded by (`Tenant.deviceBounds`), for the health answer.
    let deviceBounds: (capacity: Int, bytes: Int)
    private let make: @Sendable (String) -> TenantSite
    /// Told of each tenant dropped (by the bound or by `drop`), after the lock.
    private let dropped: @Sendable (TenantSite) -> Void
    private let clock: any SKANClock
    private let state = Mutex(State())

    init(
        capacity: Int, deviceBounds: (capacity: Int, bytes: Int), clock: any SKANClock,
        make: @escaping @Sendable (String) -> TenantSite, dropped: @escaping @Sendable (TenantSite) -> Void
    ) {
        self.capacity = max(1, capacity)
        self.deviceBounds = deviceBounds
        self.clock = clock
        self.make = make
        self.dropped = dropped
    }

    /// The tenant `name` (valid), made when it is new; marks it used now (a request, when
    /// `request`, which the tenants' list shows).
    func site(_ name: String, request: Bool = true) -> TenantSite {
        let now = request ? clock.nowMilliseconds() : nil
        var evicted: TenantSite?
        let site = state.withLock { s -> TenantSite in
            s.tick += 1
            if let index = s.slots.index(forKey: name) {
                // In place: one lookup, no copy of the slot.
                s.slots.values[index].lastUsed = s.tick
                if let now { s.slots.values[index].lastRequestMilliseconds = now }
                return s.slots.values[index].site
            }
            if s.slots.count >= capacity, let oldest = s.slots.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
                evicted = s.slots.removeValue(forKey: oldest.key)?.site
            }
            let site = make(name)
            s.slots[name] = Slot(site: site, lastUsed: s.tick, lastRequestMilliseconds: now)
            return site
        }
        if let evicted { dropped(evicted) }
        return site
    }

    /// The tenant `name` when it exists, without making it or marking it used.
    func existing(_ name: String) -> TenantSite? {
        state.withLock { $0.slots[name]?.site }
    }

    /// Drops the tenant `name`; false when there was none.
    @discardableResult
    func drop(_ name: String) -> Bool {
        let removed = state.withLock { $0.slots.removeValue(forKey: name) }
        guard let removed else { return false }
        dropped(removed.site)
        return true
    }

    /// The tenants, most recently used first.
    var slots: [(name: String, slot: Slot)] {
        state.withLock { s in s.slots.map { ($0.key, $0.value) } }.sorted { $0.slot.lastUsed > $1.slot.lastUsed }
    }

    var count: Int { state.withLock { $0.slots.count } }
}
