import ArgumentParser
import SystemPOSIX

/// The `SKAN_MOCK_*` variables, read the same way for every option.
struct Environment {
    subscript(name: String) -> String? {
        guard let text = System.environment(name), !text.isEmpty else { return nil }
        return text
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
