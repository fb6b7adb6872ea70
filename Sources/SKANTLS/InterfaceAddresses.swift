#if SKAN_MOCK_TLS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The addresses of this machine's network interfaces that are up (getifaddrs): what a phone on the
/// same network can reach, so the server certificate names them and the phone page shows one.
public enum InterfaceAddresses {
    public struct Address: Hashable, Sendable {
        public let interface: String
        public let address: String
        public let isIPv6: Bool
        public let isLoopback: Bool
    }

    /// Every IPv4 address and every IPv6 address except link-local ones (fe80::/10 needs a zone,
    /// which neither a certificate nor a URL typed on a phone can carry), loopback included.
    public static func current() -> [Address] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [Address] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: UInt32(entry.pointee.ifa_flags))
            guard flags & Int32(IFF_UP) != 0, let socketAddress = entry.pointee.ifa_addr else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            let loopback = flags & Int32(IFF_LOOPBACK) != 0
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                let v4 = UnsafeRawPointer(socketAddress).load(as: sockaddr_in.self).sin_addr
                addresses.append(Address(interface: name, address: text(of: v4), isIPv6: false, isLoopback: loopback))
            case AF_INET6:
                var v6 = UnsafeRawPointer(socketAddress).load(as: sockaddr_in6.self).sin6_addr
                let bytes = withUnsafeBytes(of: &v6) { Array($0) }
                if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { continue }  // link-local
                addresses.append(Address(interface: name, address: text(of: v6), isIPv6: true, isLoopback: loopback))
            default:
                continue
            }
        }
        var seen = Set<String>()
        return addresses.filter { seen.insert($0.address).inserted }
    }

    static func text(of address: in_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func text(of address: in6_addr) -> String {
        var address = address
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
