// swift-tools-version:6.0
import Foundation
import PackageDescription

// HTTPS links the system's OpenSSL 3 and libqrencode (SKANTLS, SKANPhoneSetup). Linux builds link
// them when their headers are installed (Debian: libssl-dev, libqrencode-dev; Tests/test.sh and the
// Dockerfile install them), so `swift run skan-mock` on a fresh machine still builds the plain-HTTP
// server. A Mac with nothing but Xcode has neither: it builds plain HTTP. SKAN_MOCK_TLS=1 turns them
// on for a Mac too (Homebrew's openssl@3 and qrencode, found with pkg-config) and on Linux regardless
// of the check; SKAN_MOCK_TLS=0 turns them off everywhere. SKAN_MOCK_TLS=static is 1 without
// pkg-config and with the module maps in Sources/COpenSSL/static and Sources/CQRencode/static, which
// name no library: the build itself gives the headers (-Xcc/-Xswiftc -I) and the static libraries
// (-Xlinker PATH.a), so no shared OpenSSL or libqrencode found first on a search path is linked (the
// macOS release archive, Scripts/release.sh). Code that uses them is compiled under
// `#if SKAN_MOCK_TLS`, defined on the same platforms.
let tlsStatic = Context.environment["SKAN_MOCK_TLS"] == "static"
let tlsPlatforms: [Platform]? = {
    switch Context.environment["SKAN_MOCK_TLS"] {
    case "0": return nil
    case "1", "static": return [.linux, .macOS]
    default:
        let headers = ["/usr/include/openssl/ssl.h", "/usr/include/qrencode.h"]
        return headers.allSatisfy { FileManager.default.fileExists(atPath: $0) } ? [.linux] : nil
    }
}()

// `--upstream` (compare with production) sends requests on with libcurl, which every Mac has and
// Linux has once its headers are installed (Debian: libcurl4-openssl-dev, which Tests/test.sh and
// the Dockerfile install); without them the server builds and `--upstream` says what to install.
// SKAN_MOCK_UPSTREAM_CLIENT=0 leaves it out everywhere. Code that uses it is under
// `#if SKAN_MOCK_UPSTREAM`.
let upstreamPlatforms: [Platform]? = {
    if Context.environment["SKAN_MOCK_UPSTREAM_CLIENT"] == "0" { return nil }
    let headers = [
        "/usr/include/curl/curl.h", "/usr/include/x86_64-linux-gnu/curl/curl.h",
        "/usr/include/aarch64-linux-gnu/curl/curl.h"
    ]
    return headers.contains { FileManager.default.fileExists(atPath: $0) } ? [.linux, .macOS] : [.macOS]
}()

/// The upstream client, on the platforms that have libcurl.
func upstream() -> [Target.Dependency] {
    guard let platforms = upstreamPlatforms else { return [] }
    return [.target(name: "UpstreamHTTP", condition: .when(platforms: platforms))]
}

let upstreamDefine: [SwiftSetting] =
    upstreamPlatforms.map { [.define("SKAN_MOCK_UPSTREAM", .when(platforms: $0))] } ?? []

/// Dependencies on the TLS targets, on the platforms that have them.
func tls(_ names: String...) -> [Target.Dependency] {
    guard let platforms = tlsPlatforms else { return [] }
    return names.map { .target(name: $0, condition: .when(platforms: platforms)) }
}

/// `#if SKAN_MOCK_TLS` in the targets that use the TLS targets.
let tlsDefine: [SwiftSetting] = tlsPlatforms.map { [.define("SKAN_MOCK_TLS", .when(platforms: $0))] } ?? []

// Layers, arrows pointing down only:
//   SKANMockCLI (executable `skan-mock`) -> SKANMock (application: wiring, admin routes), SKANSimulator
//   SKANMockCLI, SKANMock -> SKANReport (journal reports, postbacks: pure) -> SKANDomain
//   SKANMockCLI, SKANMock -> SKANFiles (model and journal files, standard streams) -> SKANDomain, SystemPOSIX
//   SKANMock -> HTTPCore (HTTP/1.1 on POSIX sockets + Dispatch, knows nothing of SKAN)
//   SKANMock -> SKANDomain (parameters, validation, models, journal: pure logic, no libc; it takes
//   only SystemPOSIX's Mutex and Atomic)
//   SKANSimulator (a device running Singular's client code) -> SKANDomain, HTTPCore (its HTTP client)
//   SKANMockCLI, SKANMock, HTTPCore -> SystemPOSIX (the only code that touches libc: one file
//   for Glibc, one for Darwin, same functions, plus the C shim CSystemLinux
//   for accept4 and CSystemAtomics for the atomic builtins; Tests/HTTPCoreTests/PortabilityTests
//   checks it)
//   SKANMockClient stands alone (Foundation only), for app test targets on iOS and macOS.
//   SKANPhoneSetup (CA profile, phone page, QR codes) -> SKANTLS (TLS engine, local CA) -> COpenSSL
let package = Package(
    name: "skan-mock",
    // macOS 14: the oldest macOS that Xcode 16.0 runs on (the server's locks and atomics are its own,
    // in SystemPOSIX, not Synchronization's, which needs macOS 15 and iOS 18). iOS 15: SKANMockClient's
    // async URLSession; Linux (Glibc) needs no entry.
    platforms: [.macOS(.v14), .iOS(.v15)],
    products: [
        .executable(name: "skan-mock", targets: ["SKANMockCLI"]),
        // The whole server in process, for a user's own Swift tests: start on port 0, stop, read the journal.
        .library(name: "SKANMockServer", targets: ["SKANMock"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SKANDomain", targets: ["SKANDomain"]),
        // For app test targets (XCTest, Swift Testing): Foundation only, no dependency on the server.
        .library(name: "SKANMockClient", targets: ["SKANMockClient"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "SystemPOSIX", dependencies: ["CSystemLinux", "CSystemAtomics"]),
        .target(name: "CSystemAtomics"),  // the compiler's atomic builtins, for SystemPOSIX.Atomic
        .target(name: "CSystemLinux"),  // accept4, which Swift's Glibc module does not declare
        // The word-at-a-time byte code (SWAR scans, byte equality and hashing, the ASCII check)
        // in a room of its own, shared by the HTTP server and the domain; no dependency.
        .target(name: "ByteWords"),
        .target(name: "HTTPCore", dependencies: ["ByteWords", "SystemPOSIX"]),
        // SystemPOSIX for its Mutex and Atomic only: the domain makes no system call.
        .target(name: "SKANDomain", dependencies: ["ByteWords", "SystemPOSIX"]),
        // Journal reports (per device, against the upstream, JUnit) and postbacks: pure, so
        // `skan-mock report` and `compare` need neither the server nor a socket.
        .target(name: "SKANReport", dependencies: ["SKANDomain"]),
        // The application's files and standard streams: model and journal files read, whole or as
        // a stream, through SystemPOSIX.
        .target(name: "SKANFiles", dependencies: ["SKANDomain", "SystemPOSIX"]),
        .target(
            name: "SKANMock",
            dependencies: ["HTTPCore", "SKANDomain", "SKANReport", "SKANFiles", "SystemPOSIX"]
                + tls("SKANTLS", "SKANPhoneSetup") + upstream(),
            // The console's files reach the binary through Scripts/embed.sh (ConsoleAssets.swift).
            exclude: ["Console/assets"],
            swiftSettings: tlsDefine + upstreamDefine
        ),
        // libcurl's multi interface as the client of `--upstream` (knows nothing of SKAN).
        .target(name: "UpstreamHTTP", dependencies: ["CCurl", "SystemPOSIX"]),
        .target(name: "SKANSimulator", dependencies: ["HTTPCore", "SKANDomain"]),
        .target(name: "SKANMockClient"),
        .systemLibrary(
            name: "COpenSSL",
            path: tlsStatic ? "Sources/COpenSSL/static" : nil,
            pkgConfig: tlsStatic ? nil : "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            path: tlsStatic ? "Sources/CQRencode/static" : nil,
            pkgConfig: tlsStatic ? nil : "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .target(name: "SKANTLS", dependencies: ["SystemPOSIX"] + tls("COpenSSL"), swiftSettings: tlsDefine),
        .target(
            name: "SKANPhoneSetup", dependencies: ["SystemPOSIX"] + tls("SKANTLS", "CQRencode"),
            swiftSettings: tlsDefine),
        .executableTarget(
            name: "SKANMockCLI",
            // Every module the command imports, named: none reaches it only through another's.
            dependencies: [
                "SKANMock",
                "SKANReport",
                "SKANFiles",
                "SKANSimulator",
                "SKANDomain",
                "HTTPCore",
                "SystemPOSIX",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ] + tls("SKANTLS"),
            swiftSettings: tlsDefine
        ),
        // libcurl drives the integration tests and the upstream client (UpstreamHTTP).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .testTarget(name: "SystemPOSIXTests", dependencies: ["SystemPOSIX"]),
        .testTarget(name: "ByteWordsTests", dependencies: ["ByteWords"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore", "SystemPOSIX"]),
        .testTarget(name: "SKANDomainTests", dependencies: ["SKANDomain", "SystemPOSIX"]),
        .testTarget(name: "SKANReportTests", dependencies: ["SKANReport", "SKANDomain"]),
        .testTarget(name: "SKANFilesTests", dependencies: ["SKANFiles", "SKANDomain", "SystemPOSIX"]),
        .testTarget(name: "SKANMockTests", dependencies: ["SKANMock", "SKANReport", "SKANFiles", "SystemPOSIX"]),
        .testTarget(name: "SKANTLSTests", dependencies: tls("SKANTLS", "COpenSSL"), swiftSettings: tlsDefine),
        .testTarget(
            name: "SKANPhoneSetupTests", dependencies: tls("SKANPhoneSetup", "SKANTLS"), swiftSettings: tlsDefine),
        .testTarget(name: "SKANSimulatorTests", dependencies: ["SKANSimulator", "SKANDomain"]),
        .testTarget(name: "SKANMockClientTests", dependencies: ["SKANMockClient", "SKANMock", "SKANReport"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "HTTPCore", "SKANDomain", "SKANMock", "SKANReport", "SKANFiles", "SKANSimulator", "SystemPOSIX", "CCurl"
            ],
            swiftSettings: tlsDefine + upstreamDefine
        )
    ],
    swiftLanguageModes: [.v6]
)
