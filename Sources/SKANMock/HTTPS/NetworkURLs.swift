import SystemPOSIX

extension SKANMockServer {
    /// Listening on every interface (`--host 0.0.0.0`): the URLs a phone on the same network can
    /// use, one line per address of this machine, since `http://0.0.0.0:PORT` is no address to type.
    public func networkURLs() -> [String] {
        guard options.host == "0.0.0.0" || options.host == "::" else { return [] }
        return System.networkAddresses().map { address in
            var line = "skan-mock on this network: " + Self.url(scheme: "http", host: address, port: port)
            if let httpsPort { line += " " + Self.url(scheme: "https", host: address, port: httpsPort) }
            return line
        }
    }
}
