import Foundation
import SKANDomain
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a user sees when `skan-mock` refuses to start: one line on standard error naming the
/// option, variable or file and why, nothing on standard output, and the exit status (64 for a
/// configuration that cannot work, 2 for a file or a port that failed). Issue 30 items 8, 9, 11,
/// 18, 19 and 21; issue 33 step 3.
@Suite("skan-mock start-up refusals")
struct StartupRefusalTests {
    /// Placeholders in a case's arguments and environment, filled in by the test: `{FIFO}`, a
    /// named pipe no one writes to; `{BIG}`, a 200 MB (sparse) file; `{NOTPEM}`, a text file;
    /// `{PORT}`, a port that was free a moment ago; `{DIR}`, a state folder not yet made; `{LONG}`,
    /// a 9,001-byte path.
    final class Files {
        let folder = NSTemporaryDirectory() + "skan-mock-refusals-\(UUID().uuidString)"
        var fifo: String { folder + "/fifo" }
        var big: String { folder + "/big.json" }
        var notPEM: String { folder + "/ca.txt" }
        let port: Int

        init() throws {
            port = try Self.freePort()
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try #require(mkfifo(fifo, 0o600) == 0)
            try #require(FileManager.default.createFile(atPath: big, contents: Data("{".utf8)))
            try #require(truncate(big, 200 << 20) == 0)
            try #require(FileManager.default.createFile(atPath: notPEM, contents: Data("not a certificate\n".utf8)))
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: "{FIFO}", with: fifo).replacingOccurrences(of: "{BIG}", with: big)
                .replacingOccurrences(of: "{NOTPEM}", with: notPEM).replacingOccurrences(of: "{PORT}", with: "\(port)")
                .replacingOccurrences(of: "{DIR}", with: folder + "/state")
                .replacingOccurrences(of: "{LONG}", with: "/" + String(repeating: "a", count: 9_000))
        }

        /// A port the kernel picked for a socket that is closed again.
        static func freePort() throws -> Int {
            let (fd, port) = try listening()
            close(fd)
            return port
        }

        /// A socket listening on 127.0.0.1 and a port the kernel picked: close it when done.
        static func listening() throws -> (Int32, Int) {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            try #require(fd >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            if !bound { close(fd) }
            try #require(bound)
            return (fd, Int(UInt16(bigEndian: address.sin_port)))
        }
    }

    @Test(arguments: StartupRefusal.all)
    func refusedInOneLine(_ refusal: StartupRefusal) throws {
        try expect(refusal)
    }

    /// The listeners' stage: a port taken by another program, named with its option.
    @Test func aPortInUseIsNamedWithItsOption() throws {
        let (fd, port) = try Files.listening()
        defer { close(fd) }
        try expect(
            StartupRefusal(
                arguments: ["--port", "\(port)"], status: 2,
                line:
                    "--port \(port): cannot listen on 127.0.0.1:\(port): Address already in use (another program holds it, perhaps a skan-mock started earlier: stop it, or give --port another port, or --port 0 for a free one)"
            ))
    }

    #if SKAN_MOCK_TLS
        /// A certificate or key that is a FIFO is refused at once; it hung the start before.
        @Test func aCertificateThatIsAFIFOIsRefused() throws {
            try expect(
                StartupRefusal(
                    arguments: ["--port", "0", "--https-port", "0", "--tls-cert", "{FIFO}", "--tls-key", "{FIFO}"],
                    environment: ["SKAN_MOCK_STATE_DIR": "{DIR}"], status: 2,
                    line: "cannot serve HTTPS: {FIFO}: a FIFO (named pipe), not a regular file"))
        }
    #endif

    private func expect(_ refusal: StartupRefusal) throws {
        let files = try Files()
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = refusal.arguments.map(files.fill)
        process.environment = refusal.environment.mapValues(files.fill)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // A server that starts instead of refusing is killed and named, never waited for.
        #expect(process.exits(within: 15), "skan-mock started instead of refusing")
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let lines = err.split(separator: "\n")
        #expect(lines.count == 1, "\(err)")
        #expect(lines.first.map(String.init) == "skan-mock: " + files.fill(refusal.line))
        #expect(process.terminationStatus == refusal.status)
        #expect(out.isEmpty)
    }

    /// docker/compose.yaml sets the upstream's mode and timeout whether or not it sets the
    /// upstream: without one, they are not an error (the command line's options are).
    @Test func anEnvironmentTemplateWithoutAnUpstreamStarts() throws {
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0"]
        process.environment = ["SKAN_MOCK_UPSTREAM_MODE": "shadow", "SKAN_MOCK_UPSTREAM_TIMEOUT": "5"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        defer {
            #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        }
        #expect(ListeningLine.first(of: output).hasPrefix("skan-mock listening on http://127.0.0.1:"))
    }

    /// Issue 30.21: `health` reads SKAN_MOCK_PORT as `serve` does; a bad one is named, not
    /// taken for 8080.
    @Test func healthNamesABadPortVariable() throws {
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["health"]
        process.environment = ["SKAN_MOCK_PORT": "eighty"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(err == "skan-mock health: SKAN_MOCK_PORT eighty: not an integer; --port must be in 1...65535\n")
        #expect(process.terminationStatus == 64)
    }

    /// Issue 30.21: a negative number is a number (it was "Missing value" before).
    @Test func aNegativeClockOffsetIsTaken() throws {
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--clock-offset", "-3600"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        defer {
            #expect(process.terminateAndWait(), "SIGTERM stopped the server")
        }
        let port = try #require(ListeningLine.port(of: output))
        let clock = try JSONParser.parse(try CurlClient().get("http://127.0.0.1:\(port)/__admin/clock").body)
        #expect(clock["offset_s"] == -3600)
    }

    /// Issue 30.11: the commands that read files refuse a FIFO at once (it hung them before), in
    /// one line naming it, with exit status 2.
    @Test(arguments: [
        ["validate", "{FIFO}"], ["report", "{FIFO}"], ["compare", "{FIFO}"],
        ["record", "{FIFO}", "--out", "{FIFO}.json"],
        ["simulate", "--url", "http://127.0.0.1:9", "--scenario", "{FIFO}"]
    ])
    func commandsRefuseAFIFO(_ arguments: [String]) throws {
        let files = try Files()
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments.map(files.fill)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = err.split(separator: "\n")
        #expect(lines.count == 1, "\(err)")
        #expect(err.contains(files.fifo) && err.contains("a FIFO (named pipe), not a regular file"), "\(err)")
        #expect(process.terminationStatus == 2)
    }
}

/// A command line (and environment) that must not start, and the line it stops with.
struct StartupRefusal: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var environment: [String: String] = [:]
    var status: Int32 = 64
    var line: String

    var testDescription: String { line }

    static let all: [StartupRefusal] = [
        // 30.21: negative numbers say what is wrong; a variable's error names the variable.
        StartupRefusal(arguments: ["--journal-size", "-5"], line: "--journal-size -5: must be at least 1"),
        // A notice of a start that is refused is not said: the refusal is the one line.
        StartupRefusal(
            arguments: ["--admin-token", "", "--port", "0", "--device-capacity", "0"],
            line: "--device-capacity 0: must be at least 1"),
        StartupRefusal(
            arguments: ["--max-connections", "-1"], line: "--max-connections -1: must be at least 1"),
        StartupRefusal(
            arguments: ["--port", "0"], environment: ["SKAN_MOCK_JOURNAL_BYTES": "12"],
            line: "SKAN_MOCK_JOURNAL_BYTES 12: give a size of at least 64K, e.g. 64M or 1G"),
        StartupRefusal(
            arguments: [], environment: ["SKAN_MOCK_PORT": "eighty"],
            line: "SKAN_MOCK_PORT eighty: not an integer; --port must be in 0...65535 (0 picks a free one)"),
        StartupRefusal(
            arguments: ["--port", "0"], environment: ["SKAN_MOCK_DEVICE_CAPACITY": "0"],
            line: "SKAN_MOCK_DEVICE_CAPACITY 0: must be at least 1"),
        StartupRefusal(arguments: ["--port", "70000"], line: "--port 70000: must be in 0...65535 (0 picks a free one)"),
        // Issue 48: the clock's range is checked once, by the server, naming where the value came from.
        StartupRefusal(
            arguments: ["--port", "0", "--clock-offset", "3155760001"],
            line: "--clock-offset 3155760001: is more than 100 years (3155760000 s) from the real time"),
        StartupRefusal(
            arguments: ["--port", "0"], environment: ["SKAN_MOCK_CLOCK_OFFSET": "-3155760001"],
            line: "SKAN_MOCK_CLOCK_OFFSET -3155760001: is more than 100 years (3155760000 s) from the real time"),
        // 30.8: a timeout libcurl would read as none.
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://example.com", "--upstream-timeout", "0.0004"],
            line:
                "--upstream-timeout 0.0004: must be at least 0.001 (1 ms, the least libcurl can keep) and at most 60 seconds"
        ),
        // 30.18: upstream URLs and options checked at start.
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://example.com:99999"],
            line: "--upstream http://example.com:99999: port 99999 is outside 1...65535"),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://[::1"],
            line: "--upstream http://[::1: an IPv6 address opened with [ is not closed with ]"),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://example.com:http"],
            line: "--upstream http://example.com:http: the port \"http\" is not a number"),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://exa mple.com"],
            line: "--upstream http://exa mple.com: a space has no place in a host name"),
        StartupRefusal(
            arguments: ["--port", "0"],
            environment: ["SKAN_MOCK_UPSTREAM": "http://example.com", "SKAN_MOCK_UPSTREAM_TIMEOUT": "0"],
            line:
                "SKAN_MOCK_UPSTREAM_TIMEOUT 0: must be at least 0.001 (1 ms, the least libcurl can keep) and at most 60 seconds"
        ),
        StartupRefusal(
            arguments: ["--port", "0"], environment: ["SKAN_MOCK_UPSTREAM": "http://example.com:99999"],
            line: "SKAN_MOCK_UPSTREAM http://example.com:99999: port 99999 is outside 1...65535"),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream-mode", "proxy"],
            line:
                "--upstream-mode proxy needs --upstream URL (or SKAN_MOCK_UPSTREAM): without an upstream it does nothing"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream-timeout", "2"],
            environment: ["SKAN_MOCK_UPSTREAM_MODE": "shadow"],
            line:
                "--upstream-timeout 2 needs --upstream URL (or SKAN_MOCK_UPSTREAM): without an upstream it does nothing"
        ),
        // TLS options without an HTTPS listener used to be ignored without a word.
        StartupRefusal(
            arguments: ["--port", "0", "--tls-cert", "cert.pem", "--tls-key", "key.pem"],
            line:
                "--tls-cert needs --https-port PORT (or SKAN_MOCK_HTTPS_PORT; 8443 is usual): without an HTTPS listener it does nothing"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--tls-name", "qa.local"],
            line:
                "--tls-name needs --https-port PORT (or SKAN_MOCK_HTTPS_PORT; 8443 is usual): without an HTTPS listener it does nothing"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "http://example.com", "--upstream-ca", "{NOTPEM}"],
            line:
                "--upstream-ca {NOTPEM}: the upstream http://example.com is plain HTTP, which has no certificate to check; use an https:// upstream or drop --upstream-ca"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--upstream", "https://example.com", "--upstream-ca", "{NOTPEM}"], status: 2,
            line:
                "--upstream-ca {NOTPEM}: not a PEM certificate (no -----BEGIN CERTIFICATE----- block); give the CA's certificate in PEM"
        ),
        // 30.9: an upstream that is this server itself.
        StartupRefusal(
            arguments: ["--port", "{PORT}", "--upstream", "http://localhost:{PORT}"],
            line:
                "--upstream http://localhost:{PORT} is this server itself (it listens on 127.0.0.1:{PORT}): every request would be sent on to itself without end; give the real service's URL"
        ),
        StartupRefusal(
            arguments: ["--port", "{PORT}", "--host", "0.0.0.0", "--upstream", "http://[::1]:{PORT}", "--admin-open"],
            line:
                "--upstream http://[::1]:{PORT} is this server itself (it listens on 0.0.0.0:{PORT}): every request would be sent on to itself without end; give the real service's URL"
        ),
        // 30.11: regular files only, within a limit the error names.
        StartupRefusal(
            arguments: ["--port", "0", "--replay", "{FIFO}"], status: 2,
            line: "--replay: cannot read {FIFO}: a FIFO (named pipe), not a regular file; give a file"),
        StartupRefusal(
            arguments: ["--port", "0", "--replay", "/dev/zero"], status: 2,
            line: "--replay: cannot read /dev/zero: a character device, not a regular file; give a file"),
        StartupRefusal(
            arguments: ["--port", "0", "--replay", "{BIG}"], status: 2,
            line: "--replay: cannot read {BIG}: larger than the limit of 64 MiB for this file (200 MiB)"),
        StartupRefusal(
            arguments: ["--port", "0", "--model", "{FIFO}"], status: 2,
            line: "cannot read model {FIFO}: a FIFO (named pipe), not a regular file; give a file"),
        // 30.19: aliases no request can reach, and their own parameters, in one line each.
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/favicon.ico=skan4"],
            line:
                "--route /favicon.ico=skan4: /favicon.ico is the console's own page, which keeps answering as itself; pick another path"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/cv=skan4?a=K&a=L"],
            line: "--route /cv=skan4?a=K&a=L: a is given twice (K and L); give each added parameter once"),
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/cv=skan4?a=%zz"],
            line:
                "--route /cv=skan4?a=%zz: %zz is not a percent-escape (% and two hex digits); write a literal % as %25"),
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/cv=skan9"],
            line: "--route /cv=skan9: unknown endpoint skan9; use skan3, skan4, launch, evt, launch2 or evt2"),
        // 47.11: paths no client sends: dot segments, and longer than a request line leaves room for.
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/a/../b=skan4"],
            line:
                "--route /a/../b=skan4: the path holds the segment \"..\", which clients remove before they send (RFC 3986 5.2.4: /a/../b is sent as /b, /a/./b as /a/b); write the path they send"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--route", "/a/./b=skan4"],
            line:
                "--route /a/./b=skan4: the path holds the segment \".\", which clients remove before they send (RFC 3986 5.2.4: /a/../b is sent as /b, /a/./b as /a/b); write the path they send"
        ),
        StartupRefusal(
            arguments: ["--port", "0", "--route", "{LONG}=skan4"],
            line:
                "--route /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...: the path is 9001 bytes, over the 2048 an alias may have (a request to it, with its query and a tenant's /t/NAME, must fit the server's 8 KiB request line); pick a shorter path"
        ),
        StartupRefusal(
            arguments: ["--port", "0"], environment: ["SKAN_MOCK_ROUTES": "/a%41=skan4"],
            line: "SKAN_MOCK_ROUTES: /a%41=skan4: %41 is \"A\", which clients send as is; write A instead")
    ]
}
