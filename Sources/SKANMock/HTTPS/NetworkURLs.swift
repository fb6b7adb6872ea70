#if SKAN_MOCK_TLS
import SKANPhoneSetup
#endif

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

    /// This machine's non-loopback addresses, IPv4 first.
    static func machineAddresses() -> [String] {
        #if SKAN_MOCK_TLS
        return PhoneSetup.machineAddresses()
        #else
        return []
        #endif
    }
}
