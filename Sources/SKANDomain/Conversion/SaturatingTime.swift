/// Sums and products of times pinned to the Int64 range instead of trapping. Timestamps come from
/// clients, journals and old versions: one absurd value must give an absurd answer, never a crash.

/// `a - b`, pinned to the Int64 range.
@inline(__always)
func saturatingSubtract(_ a: Int64, _ b: Int64) -> Int64 {
    let (result, overflow) = a.subtractingReportingOverflow(b)
    if !overflow { return result }
    return b < 0 ? Int64.max : Int64.min
}

/// `a + b`, pinned to the Int64 range.
@inline(__always)
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (result, overflow) = a.addingReportingOverflow(b)
    if !overflow { return result }
    return b < 0 ? Int64.min : Int64.max
}

/// Seconds as milliseconds, pinned to the Int64 range.
@inline(__always)
func saturatingMilliseconds(seconds: Int64) -> Int64 {
    let (result, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    if !overflow { return result }
    return seconds < 0 ? Int64.min : Int64.max
}
