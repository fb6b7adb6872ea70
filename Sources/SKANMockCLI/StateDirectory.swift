import ArgumentParser

/// Where skan-mock keeps its local CA: `--state-dir`, else `SKAN_MOCK_STATE_DIR`, else `~/.skan-mock`.
/// One rule for `skan-mock ca` and the server, so both find the same CA.
enum StateDirectory {
    static func resolve(option: String?, environment: Environment = Environment()) throws -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment["SKAN_MOCK_STATE_DIR"] { return variable }
        guard let home = environment["HOME"] else {
            throw ValidationError("HOME is not set: give the state folder with --state-dir or SKAN_MOCK_STATE_DIR")
        }
        return home + "/.skan-mock"
    }
}
