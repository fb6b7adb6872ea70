// swift-tools-version:6.0
import PackageDescription

// HTTPS links the system's OpenSSL 3 and libqrencode (SKANTLS, SKANPhoneSetup). Linux has them from
// apt (Tests/test.sh installs them); a Mac with nothing but Xcode has neither, so by default only
// Linux builds link them and a Mac builds the plain-HTTP server. SKAN_MOCK_TLS=1 turns them on for
// a Mac too (Homebrew's openssl@3 and qrencode, found with pkg-config); SKAN_MOCK_TLS=0 turns them off
// everywhere. Code that uses them is compiled under `#if SKAN_MOCK_TLS`, defined on the same platforms.
let tlsPlatforms: [Platform]? = {
    switch Context.environment["SKAN_MOCK_TLS"] {
    case "0": return nil
    case "1": return [.linux, .macOS]
    default: return [.linux]
    }
}()

/// Dependencies on the TLS targets, on the platforms that have them.
func tls(_ names: String...) -> [Target.Dependency] {
    guard let platforms = tlsPlatforms else { return [] }
    return names.map { .target(name: $0, condition: .when(platforms: platforms)) }
}

/// `#if SKAN_MOCK_TLS` in the targets that use the TLS targets.
let tlsDefine: [SwiftSetting] = tlsPlatforms.map { [.define("SKAN_MOCK_TLS", .when(platforms: $0))] } ?? []

// Three layers, arrows pointing down only:
//   SKANMockCLI (executable `skan-mock`) -> SKANMock (application: wiring, admin routes), SKANSimulator
//   SKANMock -> HTTPCore (HTTP/1.1 on POSIX sockets + Dispatch, knows nothing of SKAN)
//   SKANMock -> SKANDomain (parameters, validation, models, journal: pure logic)
//   SKANSimulator (a device running Singular's client code) -> SKANDomain, HTTPCore (its HTTP client)
//   SKANPhoneSetup (CA profile, phone page, QR codes) -> SKANTLS (TLS engine, local CA) -> COpenSSL
let package = Package(
    name: "skan-mock",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .executable(name: "skan-mock", targets: ["SKANMockCLI"]),
        // The whole server in process, for a user's own Swift tests: start on port 0, stop, read the journal.
        .library(name: "SKANMockServer", targets: ["SKANMock"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SKANDomain", targets: ["SKANDomain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "HTTPCore"),
        .target(name: "SKANDomain"),
        .target(name: "SKANMock", dependencies: ["HTTPCore", "SKANDomain"]),
        .target(name: "SKANSimulator", dependencies: ["HTTPCore", "SKANDomain"]),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .target(name: "SKANTLS", dependencies: tls("COpenSSL"), swiftSettings: tlsDefine),
        .target(name: "SKANPhoneSetup", dependencies: tls("SKANTLS", "CQRencode"), swiftSettings: tlsDefine),
        .executableTarget(
            name: "SKANMockCLI",
            dependencies: [
                "SKANMock",
                "SKANSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + tls("SKANTLS"),
            swiftSettings: tlsDefine
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
        .testTarget(name: "SKANTLSTests", dependencies: tls("SKANTLS", "COpenSSL"), swiftSettings: tlsDefine),
        .testTarget(name: "SKANPhoneSetupTests", dependencies: tls("SKANPhoneSetup", "SKANTLS"), swiftSettings: tlsDefine),
        .testTarget(name: "SKANSimulatorTests", dependencies: ["SKANSimulator", "SKANDomain"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["HTTPCore", "SKANDomain", "SKANMock", "SKANSimulator", "CCurl"],
            swiftSettings: tlsDefine
        ),
    ],
    swiftLanguageModes: [.v6]
)
