#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The machine's network addresses and name: glibc and Darwin spell these calls alike, so they are
// written once here (the platform files hold only what differs).
extension System {
    // MARK: - Network interfaces and names

    /// Every IPv4 and IPv6 address of this machine's network interfaces (`getifaddrs`), in the
    /// system's order, up or not.
    public static func interfaceAddresses() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [InterfaceAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let socketAddress = entry.pointee.ifa_addr else { continue }
            let flags = Int32(bitPattern: UInt32(entry.pointee.ifa_flags))
            let name = String(cString: entry.pointee.ifa_name)
            let isUp = flags & Int32(IFF_UP) != 0
            let isLoopback = flags & Int32(IFF_LOOPBACK) != 0
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                var v4 = UnsafeRawPointer(socketAddress).load(as: sockaddr_in.self).sin_addr
                let bytes = withUnsafeBytes(of: &v4) { Array($0) }
                let isLinkLocal = bytes[0] == 169 && bytes[1] == 254
                addresses.append(
                    InterfaceAddress(
                        interface: name, address: ipText(v4), isIPv6: false, isLinkLocal: isLinkLocal,
                        isLoopback: isLoopback, isUp: isUp
                    ))
            case AF_INET6:
                var v6 = UnsafeRawPointer(socketAddress).load(as: sockaddr_in6.self).sin6_addr
                let bytes = withUnsafeBytes(of: &v6) { Array($0) }
                let isLinkLocal = bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80
                addresses.append(
                    InterfaceAddress(
                        interface: name, address: ipText(v6), isIPv6: true, isLinkLocal: isLinkLocal,
                        isLoopback: isLoopback, isUp: isUp
                    ))
            default:
                continue
            }
        }
        return addresses
    }

    /// `text` as an IP address (`inet_pton`): its canonical text (`::1` for `0:0::1`) and whether it
    /// is IPv6; nil when it is neither an IPv4 nor an IPv6 address.
    public static func parseIPAddress(_ text: String) -> (text: String, isIPv6: Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (ipText(v4), false) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return (ipText(v6), true) }
        return nil
    }

    private static func ipText(_ address: in_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func ipText(_ address: in6_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This machine's name (`gethostname`), or nil when it fails or is empty.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
