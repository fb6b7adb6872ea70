import SKANDomain

/// Options the configuration stage has checked: the only kind the later stages take, so none of
/// them can run on options nobody checked. Read like the options themselves (`checked.port`).
@dynamicMemberLookup
struct CheckedOptions: Sendable {
    /// The options as given, for what takes them whole (a tenant's bounds).
    let values: ServerOptions

    fileprivate init(_ values: ServerOptions) { self.values = values }

    subscript<Value>(dynamicMember keyPath: KeyPath<ServerOptions, Value>) -> Value { values[keyPath: keyPath] }
}

/// The first stage of start-up: options that cannot work, alone or together, refused before any
/// file is read or port bound, each in one line naming the option and why. Pure, so every refusal
/// is tested without a file or a socket.
enum StartupConfiguration {
    typealias StartupError = SKANMockServer.StartupError

    /// The options, checked for the stages after this one. `localAddresses`: this machine's
    /// interface addresses, for an upstream named by one of them.
    static func check(_ options: ServerOptions, localAddresses: [String] = []) throws(StartupError) -> CheckedOptions {
        try refuseWhatCannotWork(options, localAddresses: localAddresses)
        return CheckedOptions(options)
    }

    private static func refuseWhatCannotWork(_ options: ServerOptions, localAddresses: [String]) throws(StartupError) {
        let offset = options.clockOffsetSeconds
        guard offset.magnitude <= ServerOptions.maxClockOffsetSeconds.magnitude else {
            let limit = "more than 100 years (\(ServerOptions.maxClockOffsetSeconds) s) from the real time"
            throw StartupError(
                .configuration,
                options.sources.clockOffset.map { "\($0) \(offset): is \(limit)" }
                    ?? "clock offset \(offset) s is \(limit)")
        }
        if let conflict = RouteAlias.conflict(in: options.routes, source: options.sources.routes) {
            throw StartupError(.configuration, conflict)
        }
        if options.resume && (options.logPath == nil || options.logPath == "-") {
            throw StartupError(
                .configuration, "--resume reads the journal back from its --log file: give --log FILE")
        }
        if let https = options.https, https.port != 0, https.port == options.port {
            throw StartupError(.configuration, "--https-port \(https.port) is --port's too: give each its own port")
        }
        guard let upstream = options.upstream else { return }
        if options.replayPath != nil {
            throw StartupError(
                .configuration,
                "--replay and --upstream do not go together: replay answers from a recording of the upstream, without it"
            )
        }
        if let ca = upstream.caFile, !upstream.isHTTPS {
            throw StartupError(
                .configuration,
                "--upstream-ca \(ca): the upstream \(upstream.baseURL) is plain HTTP, which has no certificate to check; use an https:// upstream or drop --upstream-ca"
            )
        }
        let ports = [options.port] + (options.https.map { [$0.port] } ?? [])
        try notItself(
            upstream, listenHost: options.host, ports: ports.filter { $0 != 0 }, localAddresses: localAddresses)
    }

    /// Refuses an upstream that is one of this server's own listeners (`ports` as configured, and
    /// again once bound, for `--port 0`): every request would be sent to itself, without end. A
    /// configuration error either way: the command line is wrong, whenever it is found out.
    static func notItself(
        _ upstream: UpstreamOptions, listenHost: String, ports: [Int], localAddresses: [String]
    ) throws(StartupError) {
        guard
            OwnListenerCheck.reaches(
                host: upstream.host, port: upstream.port, listenHost: listenHost, ports: ports,
                localAddresses: localAddresses)
        else { return }
        throw StartupError(
            .configuration,
            "--upstream \(upstream.baseURL) is this server itself (it listens on \(listenHost.contains(":") ? "[\(listenHost)]" : listenHost):\(upstream.port)): every request would be sent on to itself without end; give the real service's URL"
        )
    }

    /// The `--upstream-ca` file's bytes checked as PEM: a file of another kind (DER, a key, a
    /// typo'd path to something else) would fail every HTTPS exchange, each with a vaguer reason.
    static func checkCertificateAuthority(path: String, bytes: [UInt8]) throws(StartupError) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----"), text.contains("-----END CERTIFICATE-----") else {
            throw StartupError(
                .upstream,
                "--upstream-ca \(path): not a PEM certificate (no -----BEGIN CERTIFICATE----- block); give the CA's certificate in PEM"
            )
        }
    }
}
