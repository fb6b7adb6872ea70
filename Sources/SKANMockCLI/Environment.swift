import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The `SKAN_MOCK_*` variables, read the same way for every option.
struct Environment {
    subscript(name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    func integer(_ name: String) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(name) must be an integer, not '\(text)'") }
        return value
    }

    func flag(_ name: String) -> Bool {
        guard let text = self[name]?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(text)
    }
}

/// Lines for people and scripts, written with one `write(2)` each, so they are out at once (a
/// script waits for the first one) and never interleaved.
enum Standard {
    static func output(_ line: String) { write(line + "\n", to: STDOUT_FILENO) }

    static func error(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 && errno != EINTR { return }
                offset += max(0, written)
            }
        }
    }
}
