import SystemPOSIX

extension SKANMockServer {
    /// Listening on every interface (`--host 0.0.0.0`): the URLs a phone on the same network can
    /// use, one line per address of this machine, since `http://0.0.0.0:PORT` is no address to type.
    public func networkURLs() -> [String] {
        guard options.host == "0.0.0.0" || options.host == "::" else { return [] }
        return Self.machineAddresses().map { address in
            var line = "skan-mock on this network: " + Self.url(scheme: "http", host: address, port: port)
            if let httpsPort { line += " " + Self.url(scheme: "https", host: address, port: httpsPort) }
            return line
        }
    }

    /// This machine's addresses other than loopback and IPv6 link-local, IPv4 first, each once.
    static func machineAddresses() -> [String] {
        let usable = System.interfaceAddresses().filter { $0.isUp && !$0.isLoopback && !$0.isLinkLocal }
        var seen = Set<String>()
        return (usable.filter { !$0.isIPv6 } + usable.filter(\.isIPv6)).map(\.address).filter { seen.insert($0).inserted }
    }
}
