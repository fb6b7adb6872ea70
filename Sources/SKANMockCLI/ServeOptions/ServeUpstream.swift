import ArgumentParser
import SKANMock

/// `--upstream` and how it is used: the real service compared with the model, or answering.
struct ServeUpstream: ServeOptionGroup {
    @Option(
        help: ArgumentHelp(
            "Send every Singular request on to this service too (e.g. https://sdk-api-v1.singular.net) and compare its answers with the model's. [env: SKAN_MOCK_UPSTREAM]",
            valueName: "url"))
    var upstream: String?

    @Option(
        help: ArgumentHelp(
            "shadow: the client gets the model's answer, the upstream's is journaled beside it; proxy: the client gets the upstream's, the model's is journaled beside it. [env: SKAN_MOCK_UPSTREAM_MODE, default: shadow]",
            valueName: "mode"))
    var upstreamMode: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the upstream has to answer, from 0.001 to 60. [env: SKAN_MOCK_UPSTREAM_TIMEOUT, default: 5]",
            valueName: "seconds"))
    var upstreamTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Trust only this CA certificate (PEM) for an HTTPS upstream: it replaces the system's trusted CAs, so a run through a corporate CA proves that CA. [env: SKAN_MOCK_UPSTREAM_CA]",
            valueName: "file"))
    var upstreamCa: String?

    typealias StartupError = SKANMockServer.StartupError

    /// Nothing without a URL; its options on the command line without it are refused: they would
    /// quietly do nothing.
    func apply(to options: inout ServerOptions, _ environment: Environment) throws(StartupError) {
        let mode = environment.text(upstreamMode, "--upstream-mode", "SKAN_MOCK_UPSTREAM_MODE")
        let timeout = environment.text(
            upstreamTimeout.map { $0 == $0.rounded() && abs($0) < 1e9 ? "\(Int($0))" : "\($0)" }, "--upstream-timeout",
            "SKAN_MOCK_UPSTREAM_TIMEOUT")
        let ca = environment.text(
            upstreamCa.flatMap { $0.isEmpty ? nil : $0 }, "--upstream-ca", "SKAN_MOCK_UPSTREAM_CA")
        guard let (url, urlSource) = environment.text(upstream, "--upstream", "SKAN_MOCK_UPSTREAM") else {
            // Only the command line's: an environment template (docker/compose.yaml) sets the
            // variables whether or not it sets SKAN_MOCK_UPSTREAM.
            if let (value, source) = [mode, timeout, ca].compactMap({ $0 }).first(where: { $0.1.hasPrefix("--") }) {
                throw StartupError(
                    .configuration,
                    "\(source) \(value) needs --upstream URL (or SKAN_MOCK_UPSTREAM): without an upstream it does nothing"
                )
            }
            return
        }
        var chosenMode = UpstreamOptions.Mode.shadow
        if let (name, source) = mode {
            guard let known = UpstreamOptions.Mode(rawValue: name) else {
                throw StartupError(.configuration, "\(source) \(name): use shadow or proxy")
            }
            chosenMode = known
        }
        var seconds = 5.0
        if let (text, source) = timeout {
            guard let value = Double(text) else {
                throw StartupError(.configuration, "\(source) \(text): give a number of seconds, e.g. 5 or 0.5")
            }
            seconds = value
        }
        do {
            options.upstream = try UpstreamOptions(
                baseURL: url, mode: chosenMode, timeoutSeconds: seconds, caFile: ca?.0)
        } catch {
            // Named as the user gave it: the option, or the variable.
            let source = error.option == .url ? urlSource : timeout?.1 ?? error.option.rawValue
            let value = error.option == .timeout ? timeout?.0 ?? error.value : error.value
            throw StartupError(.configuration, "\(source) \(value): \(error.reason)")
        }
    }

    mutating func validate() throws { try check() }
}
