/// The response bodies, written byte by byte in the key order Singular uses (SPEC 1), because
/// clients and tests compare them as text.
public enum SKANResponse {
    /// `{"status":"ok"}`: nothing to update.
    public static func ok() -> [UInt8] { Array(#"{"status":"ok"}"#.utf8) }

    /// `{"status":"error","reason":"..."}`, with `"problems":[{"path":..,"reason":..}]` for a
    /// rejected model: the one error body of the service and of the admin API.
    public static func error(_ reason: String, problems: [(path: String, reason: String)] = []) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + reason.utf8.count)
        w.raw(#"{"status":"error","reason":"#)
        w.write(reason)
        if !problems.isEmpty {
            w.raw(#","problems":["#)
            for (index, problem) in problems.enumerated() {
                w.raw(index == 0 ? #"{"path":"# : #",{"path":"#)
                w.write(problem.path)
                w.raw(#","reason":"#)
                w.write(problem.reason)
                w.raw("}")
            }
            w.raw("]")
        }
        w.raw("}")
        return w.bytes
    }

    /// SKAN 3: `{"conversion_value":N,"status":"ok"}`.
    public static func skan3(_ value: Int64) -> [UInt8] {
        var w = JSONWriter(capacity: 40)
        w.raw(#"{"conversion_value":"#)
        w.write(value)
        w.raw(#","status":"ok"}"#)
        return w.bytes
    }

    /// SKAN 4: `{"status":"ok","conversion_value":F,"skan_updated_coarse_value":C,"skan_updated_lock_window_value":L}`,
    /// the coarse key left out when there is no coarse value.
    public static func skan4(fine: Int64, coarse: Int64?, lock: Bool) -> [UInt8] {
        var w = JSONWriter(capacity: 120)
        w.raw(#"{"status":"ok","conversion_value":"#)
        w.write(fine)
        if let coarse {
            w.raw(#","skan_updated_coarse_value":"#)
            w.write(coarse)
        }
        w.raw(#","skan_updated_lock_window_value":"#)
        w.write(lock)
        w.raw("}")
        return w.bytes
    }

    /// S2S with an active model: `{"status":"ok","conversion_value":N}`.
    public static func s2s(_ value: Int64) -> [UInt8] {
        var w = JSONWriter(capacity: 40)
        w.raw(#"{"status":"ok","conversion_value":"#)
        w.write(value)
        w.raw("}")
        return w.bytes
    }
}
