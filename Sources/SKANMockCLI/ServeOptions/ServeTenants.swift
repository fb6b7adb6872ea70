import ArgumentParser
import SKANMock

/// How many named tenants and devices the server keeps before it drops the least recently used.
struct ServeTenants: ServeOptionGroup {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Named tenants (/t/NAME) kept at once; the least recently used one not in use is dropped, else a new one gets 503. [env: SKAN_MOCK_MAX_TENANTS, default: 64]",
            valueName: "n"))
    var maxTenants: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Devices whose state is kept; the least recently seen are dropped. [env: SKAN_MOCK_DEVICE_CAPACITY, default: 100000]",
            valueName: "n"))
    var deviceCapacity: Int?

    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        let positive = "must be at least 1"
        options.maxTenants =
            try environment.integer(maxTenants, "--max-tenants", "SKAN_MOCK_MAX_TENANTS", in: 1...Int.max, positive)
            ?? options.maxTenants
        options.deviceCapacity =
            try environment.integer(
                deviceCapacity, "--device-capacity", "SKAN_MOCK_DEVICE_CAPACITY", in: 1...Int.max, positive)
            ?? options.deviceCapacity
    }

    mutating func validate() throws { try check() }
}
