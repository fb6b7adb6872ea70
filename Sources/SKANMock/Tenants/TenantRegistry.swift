import SKANDomain
import SystemPOSIX

/// The named tenants, made on first use and bounded in number: past `capacity`, the one least
/// recently used that is not in use is dropped (its next request starts it afresh). In use: a
/// pending wait or an open event stream, or a request within `idleMilliseconds`. When every
/// tenant is in use, a new one is refused. The one owner of the tenants' table; a request to a
/// tenant costs one lookup under its lock.
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

        /// The tenant `name` when it exists, marked used now: one lookup, no copy of the slot.
        mutating func use(_ name: String, now: Int64, request: Bool) -> TenantSite? {
            guard let index = slots.index(forKey: name) else { return nil }
            tick += 1
            slots.values[index].lastUsed = tick
            if request { slots.values[index].lastRequestMilliseconds = now }
            return slots.values[index].site
        }
    }

    let capacity: Int
    /// A tenant asked nothing for this long may be dropped to make room.
    static let idleMilliseconds: Int64 = 60_000
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
    /// `request`, which the tenants' list shows). Nil when it is new and every one of the
    /// `capacity` tenants is in use. A new tenant is made outside the lock, so requests to the
    /// others never wait for it; when two requests make the same one at once, the first put in wins.
    func site(_ name: String, request: Bool = true) -> TenantSite? {
        let now = clock.nowMilliseconds()
        if let found = state.withLock({ $0.use(name, now: now, request: request) }) { return found }
        let made = make(name)
        var evicted: TenantSite?
        let site = state.withLock { s -> TenantSite? in
            if let found = s.use(name, now: now, request: request) { return found }
            if s.slots.count >= capacity {
                let idle = s.slots.filter { !Self.inUse($0.value, now: now) }
                guard let oldest = idle.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return nil }
                evicted = s.slots.removeValue(forKey: oldest.key)?.site
            }
            s.tick += 1
            s.slots[name] = Slot(site: made, lastUsed: s.tick, lastRequestMilliseconds: request ? now : nil)
            return made
        }
        if let evicted { dropped(evicted) }
        return site
    }

    /// A pending wait, an open event stream, or a request within `idleMilliseconds`.
    private static func inUse(_ slot: Slot, now: Int64) -> Bool {
        if slot.site.tenant.isHeld { return true }
        guard let last = slot.lastRequestMilliseconds else { return false }
        return now - last < idleMilliseconds
    }

    /// Why a new tenant was refused: every one is in use.
    var fullReason: String {
        "every one of the \(capacity) tenants (--max-tenants \(capacity)) is in use (a pending wait, an open console, or a request in the last \(Self.idleMilliseconds / 1000) s), so no tenant was made; try again when one is done, drop one (DELETE /__admin/tenants/NAME), or start the server with a larger --max-tenants"
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
