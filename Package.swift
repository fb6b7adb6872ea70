// swift-tools-version:6.0
import PackageDescription

// Layers, arrows pointing down only:
//   SKANMockCLI (executable `skan-mock`) -> SKANMock (application: wiring, admin routes), SKANSimulator
//   SKANMock -> HTTPCore (HTTP/1.1 on POSIX sockets + Dispatch, knows nothing of SKAN)
//   SKANMock -> SKANDomain (parameters, validation, models, journal: pure logic, no libc)
//   SKANSimulator (a device running Singular's client code) -> SKANDomain, HTTPCore (its HTTP client)
//   SKANMockCLI, SKANMock, HTTPCore -> SystemPOSIX (the only code that touches libc: one file
//   for Glibc, one for Darwin, same functions, plus the C shim CSystemLinux
//   for accept4; Tests/HTTPCoreTests/PortabilityTests checks it)
//   SKANMockClient stands alone (Foundation only), for app test targets on iOS and macOS.
let package = Package(
    name: "skan-mock",
    // macOS 15: Synchronization.Mutex (the server). iOS 15: SKANMockClient's async URLSession, the
    // only target meant for iOS; Linux (Glibc) needs no entry.
    platforms: [.macOS(.v15), .iOS(.v15)],
    products: [
        .executable(name: "skan-mock", targets: ["SKANMockCLI"]),
        // The whole server in process, for a user's own Swift tests: start on port 0, stop, read the journal.
        .library(name: "SKANMockServer", targets: ["SKANMock"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SKANDomain", targets: ["SKANDomain"]),
        // For app test targets (XCTest, Swift Testing): Foundation only, no dependency on the server.
        .library(name: "SKANMockClient", targets: ["SKANMockClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "SystemPOSIX", dependencies: ["CSystemLinux"]),
        .target(name: "CSystemLinux"),  // accept4, which Swift's Glibc module does not declare
        .target(name: "HTTPCore", dependencies: ["SystemPOSIX"]),
        .target(name: "SKANDomain"),
        .target(name: "SKANMock", dependencies: ["HTTPCore", "SKANDomain", "SystemPOSIX"]),
        .target(name: "SKANSimulator", dependencies: ["HTTPCore", "SKANDomain"]),
        .target(name: "SKANMockClient"),
        .executableTarget(
            name: "SKANMockCLI",
            dependencies: [
                "SKANMock",
                "SKANSimulator",
                "SystemPOSIX",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libcurl drives the integration tests only; nothing in Sources links it.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "SKANDomainTests", dependencies: ["SKANDomain"]),
        .testTarget(name: "SKANMockTests", dependencies: ["SKANMock"]),
        .testTarget(name: "SKANSimulatorTests", dependencies: ["SKANSimulator", "SKANDomain"]),
        .testTarget(name: "SKANMockClientTests", dependencies: ["SKANMockClient", "SKANMock"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["HTTPCore", "SKANDomain", "SKANMock", "SKANSimulator", "CCurl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
