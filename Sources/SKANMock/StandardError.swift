#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Operational messages (reloads, write failures): one `write(2)` per line, so lines from
/// different threads never interleave.
enum StandardError {
    static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 && errno != EINTR { return }
                offset += max(0, written)
            }
        }
    }
}
