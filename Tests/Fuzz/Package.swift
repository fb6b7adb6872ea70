// swift-tools-version:6.0
import PackageDescription

// Fuzzing and differential-testing harnesses for skan-mock. A separate package on purpose: the root
// package's `swift build` / `swift test` never see it. Build and run through ./run.sh (fuzzers, built
// with -sanitize=fuzzer,address) and ../Differential/run.sh (parse-corpus, a plain build).
let package = Package(
    name: "skan-mock-fuzz",
    platforms: [.macOS(.v15)],  // as the root package
    dependencies: [
        .package(name: "skan-mock", path: "../..")
    ],
    targets: [
        // The checks each fuzzer runs on one input; shared so parse-corpus can replay crashes unsanitized.
        .target(
            name: "FuzzHarness",
            dependencies: [
                .product(name: "HTTPCore", package: "skan-mock"),
                .product(name: "SKANDomain", package: "skan-mock")
            ]
        ),
        // libFuzzer entry points (LLVMFuzzerTestOneInput); libFuzzer supplies main.
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "FuzzHTTPParser", dependencies: ["FuzzHarness", "CFuzzerDriver"]),
        .executableTarget(name: "FuzzSKANParameters", dependencies: ["FuzzHarness", "CFuzzerDriver"]),
        // `parse-corpus FILE...`: one line per file, the parser's status (200 accepted, else the error's).
        // `parse-corpus --replay http|skan FILE...`: runs a fuzzer's checks on files, without libFuzzer.
        .executableTarget(
            name: "parse-corpus",
            dependencies: [
                "FuzzHarness",
                .product(name: "HTTPCore", package: "skan-mock"),
                .product(name: "SKANDomain", package: "skan-mock")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
