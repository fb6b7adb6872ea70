import SystemPOSIX

/// The socket suites hold hundreds of sockets at once, both ends in this one process, while a Mac's
/// shell starts it with 256 descriptors: the support raises the soft limit once, as the server does
/// at start (`DescriptorBudget`), before any server or raw connection is made.
enum TestDescriptorLimit {
    private static let raised: OpenFileLimit = System.raiseOpenFileLimit(to: 4096)

    static func ensure() { _ = raised }
}
