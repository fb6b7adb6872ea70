#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A value behind a lock, with the API of `Synchronization.Mutex` (`withLock`), which needs macOS 15
/// and iOS 18: this one lets the server run on macOS 14 (what Xcode 16.0 runs on) and the in-process
/// server on iOS 16. `os_unfair_lock` on Darwin, a `pthread_mutex_t` on Linux, each on the heap (a
/// lock must never move, so it is never a stored struct that Swift may copy).
///
/// `@unchecked Sendable`: every access to `value` is under the lock.
public final class Mutex<Value: ~Copyable>: @unchecked Sendable {
    /// On the heap too, beside the lock: as a stored property, every `withLock` also paid the
    /// runtime's exclusivity check (`swift_beginAccess`), which the lock already guarantees.
    private let value: UnsafeMutablePointer<Value>
    #if canImport(Darwin)
        private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    public init(_ value: consuming Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        #if canImport(Darwin)
            lock = .allocate(capacity: 1)
            lock.initialize(to: os_unfair_lock())
        #else
            lock = .allocate(capacity: 1)
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, alone; never call it again from inside `body` (not reentrant).
    @inline(__always)
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
        #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&value.pointee)
    }
}
