import CSystemAtomics

/// How an atomic access orders the memory around it: the C11 orderings, named as in
/// `Synchronization` so that code reads the same.
public struct AtomicOrdering: Sendable {
    let c: Int32

    public static let relaxed = AtomicOrdering(c: 0)  // __ATOMIC_RELAXED
    public static let acquiring = AtomicOrdering(c: 2)  // __ATOMIC_ACQUIRE
    public static let releasing = AtomicOrdering(c: 3)  // __ATOMIC_RELEASE
    public static let acquiringAndReleasing = AtomicOrdering(c: 4)  // __ATOMIC_ACQ_REL
    public static let sequentiallyConsistent = AtomicOrdering(c: 5)  // __ATOMIC_SEQ_CST

    /// A store may not acquire, a load may not release (C11): the nearest ordering that is allowed.
    var forStore: Int32 { c == 2 || c == 4 ? 3 : c }
    var forLoad: Int32 { c == 3 || c == 4 ? 2 : c }
}

/// A value that fits one 64-bit word, for `Atomic`.
public protocol AtomicWord {
    var atomicWord: Int64 { get }
    init(atomicWord: Int64)
}

extension Int: AtomicWord {
    public var atomicWord: Int64 { Int64(self) }
    public init(atomicWord: Int64) { self = Int(truncatingIfNeeded: atomicWord) }
}

extension Int64: AtomicWord {
    public var atomicWord: Int64 { self }
    public init(atomicWord: Int64) { self = atomicWord }
}

extension Bool: AtomicWord {
    public var atomicWord: Int64 { self ? 1 : 0 }
    public init(atomicWord: Int64) { self = atomicWord != 0 }
}

/// One word read and changed without a lock, with the API of `Synchronization.Atomic` (which needs
/// macOS 15 and iOS 18) for the values this project keeps: counts, flags and offsets. The word is on
/// the heap, so it never moves.
///
/// `@unchecked Sendable`: the word is only touched through the atomic builtins.
public final class Atomic<Value: AtomicWord>: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int64>

    public init(_ value: Value) {
        word = .allocate(capacity: 1)
        word.initialize(to: value.atomicWord)
    }

    deinit { word.deallocate() }

    @inline(__always)
    public func load(ordering: AtomicOrdering) -> Value {
        Value(atomicWord: CSystemAtomics_load(word, ordering.forLoad))
    }

    @inline(__always)
    public func store(_ value: Value, ordering: AtomicOrdering) {
        CSystemAtomics_store(word, value.atomicWord, ordering.forStore)
    }

    /// Sets `value`; returns the value before.
    @inline(__always)
    @discardableResult
    public func exchange(_ value: Value, ordering: AtomicOrdering) -> Value {
        Value(atomicWord: CSystemAtomics_exchange(word, value.atomicWord, ordering.c))
    }

    /// Sets `desired` if the value is still `expected`; whether it was, and the value it found.
    /// A read-decide-write without a lock (a bounded add) loops on it until nothing raced it.
    @inline(__always)
    public func compareExchange(expected: Value, desired: Value, ordering: AtomicOrdering) -> (
        exchanged: Bool, original: Value
    ) {
        var found = expected.atomicWord
        let exchanged = CSystemAtomics_compare_exchange(word, &found, desired.atomicWord, ordering.c)
        return (exchanged, Value(atomicWord: found))
    }
}

extension Atomic where Value: FixedWidthInteger {
    /// Adds `delta`; returns the values before and after (wrapping, as `Synchronization`'s `add`).
    @inline(__always)
    @discardableResult
    public func add(_ delta: Value, ordering: AtomicOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(atomicWord: CSystemAtomics_add(word, delta.atomicWord, ordering.c))
        return (old, old &+ delta)
    }

    @inline(__always)
    @discardableResult
    public func subtract(_ delta: Value, ordering: AtomicOrdering) -> (oldValue: Value, newValue: Value) {
        let old = Value(atomicWord: CSystemAtomics_add(word, 0 &- delta.atomicWord, ordering.c))
        return (old, old &- delta)
    }
}
