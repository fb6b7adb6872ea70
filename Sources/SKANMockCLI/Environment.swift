import SKANMock
import SystemPOSIX

/// The `SKAN_MOCK_*` variables, read the same way for every option; a value that cannot be used
/// is refused naming the option or the variable it came from.
struct Environment {
    typealias StartupError = SKANMockServer.StartupError

    subscript(name: String) -> String? {
        guard let text = System.environment(name), !text.isEmpty else { return nil }
        return text
    }

    /// The command line's value, else the variable's, each with the name it came from.
    func text(_ value: String?, _ option: String, _ variable: String) -> (String, String)? {
        if let value { return (value, option) }
        return self[variable].map { ($0, variable) }
    }

    /// An integer from the command line, else from the variable, refused outside `range` with
    /// `rule` (e.g. "must be at least 1") after the name it came from.
    func integer(_ value: Int?, _ option: String, _ variable: String, in range: ClosedRange<Int>, _ rule: String)
        throws(StartupError) -> Int?
    {
        let number: Int
        let source: String
        if let value {
            (number, source) = (value, option)
        } else if let text = self[variable] {
            guard let parsed = Int(text) else {
                throw StartupError(.configuration, "\(variable) \(text): not an integer; \(option) \(rule)")
            }
            (number, source) = (parsed, variable)
        } else {
            return nil
        }
        guard range.contains(number) else { throw StartupError(.configuration, "\(source) \(number): \(rule)") }
        return number
    }

    /// A comma list (`SKAN_MOCK_ALLOWED_HOSTS`, `SKAN_MOCK_TLS_NAMES`), blanks around names dropped.
    func list(_ name: String) -> [String] {
        (self[name] ?? "").split(separator: ",").map { String($0.trimmingASCIIWhitespace()) }.filter { !$0.isEmpty }
    }

    func flag(_ name: String) -> Bool {
        guard let text = self[name]?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(text)
    }
}
