// swift-tools-version:6.0
import PackageDescription

// Layers, arrows pointing down only:
//   SKANMockCLI (executable `skan-mock`) -> SKANMock (application: wiring, admin routes)
//   SKANMock -> HTTPCore (HTTP/1.1 on POSIX sockets + Dispatch, knows nothing of SKAN)
//   SKANMock -> SKANDomain (parameters, validation, models, journal: pure logic, no libc)
//   SKANMockCLI, SKANMock, HTTPCore -> SystemPOSIX (the only code that touches libc: one file
//   for Glibc, one for Darwin, same functions, plus the C shim CSystemLinux
//   for accept4; Tests/HTTPCoreTests/PortabilityTests checks it)
let package = Package(
    name: "skan-mock",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex; Linux (Glibc) needs no entry
    products: [
        .executable(name: "skan-mock", targets: ["SKANMockCLI"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SKANDomain", targets: ["SKANDomain"]),
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
        .executableTarget(
            name: "SKANMockCLI",
            dependencies: [
                "SKANMock",
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
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["HTTPCore", "SKANDomain", "SKANMock", "CCurl"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
