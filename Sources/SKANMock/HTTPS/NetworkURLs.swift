import SystemPOSIX

extension SKANMockServer {
    /// Listening on every interface (`--host 0.0.0.0`): the URLs a phone on the same network can
    /// use, one line per address of this machine, since `http://0.0.0.0:PORT` is no address to type.
    public func networkURLs() -> [String] {
        Self.networkURLs(
            host: options.host, port: port, httpsPort: httpsPort, addresses: System.networkAddresses(includingIPv6:))
    }

    /// The lines for `host`; `addresses(true)` gives IPv6 addresses too. 0.0.0.0 is IPv4 only:
    /// announcing an IPv6 URL would send the phone where nothing listens; `::` serves both.
    static func networkURLs(host: String, port: Int, httpsPort: Int?, addresses: (Bool) -> [String]) -> [String] {
        guard host == "0.0.0.0" || host == "::" else { return [] }
        return addresses(host == "::").map { address in
            var line = "skan-mock on this network: " + url(scheme: "http", host: address, port: port)
            if let httpsPort { line += " " + url(scheme: "https", host: address, port: httpsPort) }
            return line
        }
    }
}
