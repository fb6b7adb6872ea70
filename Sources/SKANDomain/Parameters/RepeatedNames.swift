/// Which of a request's fields share a name, found in one pass: for each field, whether it is the
/// first of its name and the next field with the same name. The journal groups repeated names
/// (`"n":["a","b"]`) with it; comparing every field with every earlier one held an event loop for
/// 15 s on a 1 MiB body of 60,000 names. The table hashes names with the standard library's
/// per-process seed (`Hasher`), so names chosen to collide cannot make it quadratic either.
struct RepeatedNames {
    /// Per field, the index of the next field with the same name; -1 for the last of its name.
    private(set) var next: [Int32]
    /// Per field, whether no earlier field has its name.
    private(set) var isFirst: [Bool]
    /// Slots looked at while grouping: about one per field, whatever the names (tests check it).
    private(set) var probes = 0

    /// `names[i]` is the name of field `i`, as bytes of `bytes`.
    init(names: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>) {
        let count = names.count
        next = Array(repeating: -1, count: count)
        isFirst = Array(repeating: false, count: count)
        var size = 16
        while size < 2 * count { size *= 2 }
        let mask = size - 1
        // The last field seen of each name, and its hash.
        var table = [Int32](repeating: -1, count: size)
        var hashes = [Int](repeating: 0, count: size)
        for i in 0..<count {
            let name = UnsafeBufferPointer(rebasing: bytes[names[i]])
            let h = RequestParameters.hash(name)
            var slot = h & mask
            while true {
                probes += 1
                let j = Int(table[slot])
                if j < 0 {
                    table[slot] = Int32(i)
                    hashes[slot] = h
                    isFirst[i] = true
                    break
                }
                if hashes[slot] == h && RequestParameters.same(UnsafeBufferPointer(rebasing: bytes[names[j]]), name) {
                    next[j] = Int32(i)
                    table[slot] = Int32(i)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
