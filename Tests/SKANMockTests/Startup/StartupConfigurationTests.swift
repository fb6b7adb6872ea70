import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// Start-up's stages, each failure typed with its stage, tested without a socket (issue 33 step 3).
@Suite("Start-up stages")
struct StartupConfigurationTests {
    private typealias StartupError = SKANMockServer.StartupError

    private func failure(_ configure: (inout ServerOptions) throws -> Void) rethrows -> StartupError? {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        try configure(&options)
        do {
            _ = try SKANMockServer(options: options, localAddresses: ["192.168.1.20"])
            return nil
        } catch {
            return error
        }
    }

    @Test func eachFailureNamesItsStageInOneLine() throws {
        let replayAndUpstream = try failure {
            $0.replayPath = "/nonexistent/replay.json"
            $0.upstream = try UpstreamOptions(baseURL: "https://example.com")
        }
        #expect(replayAndUpstream?.stage == .configuration)
        #expect(replayAndUpstream?.exitStatus == 64)
        #expect(failure { $0.resume = true }?.stage == .configuration)
        #expect(failure { $0.clockOffsetSeconds = .max }?.stage == .configuration)
        let samePort = failure {
            $0.port = 8080
            $0.https = HTTPSOptions(port: 8080, stateDirectory: "/nonexistent")
        }
        #expect(samePort == StartupError(.configuration, "--https-port 8080 is --port's too: give each its own port"))
        let model = failure { $0.modelPath = "/nonexistent/model.json" }
        #expect(model?.stage == .model)
        #expect(model?.exitStatus == 2)
        #expect(model?.description == "cannot read model /nonexistent/model.json: No such file or directory")
        #expect(failure { $0.logPath = "/nonexistent/dir/log.jsonl" }?.stage == .journal)
        #expect(failure { $0.replayPath = "/dev/null/x" }?.stage == .replay)
        #expect(failure { $0.routes = [RouteAlias(path: "/api/v1/evt", endpoint: .skan4)] }?.stage == .configuration)
        let tls = failure {
            $0.https = HTTPSOptions(
                port: 0, certificateFile: "/nonexistent/cert.pem", keyFile: "/nonexistent/key.pem",
                stateDirectory: "/nonexistent")
        }
        #expect(tls?.stage == .tls)
        #expect(tls?.description.hasPrefix("cannot serve HTTPS: ") == true)
        let badModel = failure { $0.modelPath = "/etc/hostname" }
        #expect(badModel?.description.hasPrefix("--model /etc/hostname: $: ") == true)
        #expect(StartupError(.tls, "a\nb").description == "a; b")
    }

    /// The checks across options are made once, here, and name where the value came from: the
    /// command line sets `sources`; a server configured in code is told in its own words.
    @Test func aRefusalNamesTheOptionOrVariableTheValueCameFrom() {
        let conflict = [RouteAlias(path: "/v2/x", endpoint: .event), RouteAlias(path: "/v2/x", endpoint: .skan3)]
        #expect(
            failure {
                $0.routes = conflict
                $0.sources.routes = "SKAN_MOCK_ROUTES"
            }?.description == "SKAN_MOCK_ROUTES: /v2/x=evt and /v2/x=skan3 both claim /v2/x; keep one")
        #expect(
            failure { $0.routes = conflict }?.description
                == "--route /v2/x=evt and --route /v2/x=skan3 both claim /v2/x; keep one")
        let century = "more than 100 years (3155760000 s) from the real time"
        #expect(
            failure {
                $0.clockOffsetSeconds = -3_155_760_001
                $0.sources.clockOffset = "SKAN_MOCK_CLOCK_OFFSET"
            }?.description == "SKAN_MOCK_CLOCK_OFFSET -3155760001: is " + century)
        #expect(
            failure { $0.clockOffsetSeconds = 3_155_760_001 }?.description
                == "clock offset 3155760001 s is " + century)
    }

    /// Files are read before any is written: a start stopped by a bad replay file or certificate
    /// leaves no log file behind.
    @Test func aRefusedStartWritesNoLog() throws {
        let log = "/tmp/skan-mock-startup-\(UInt64.random(in: 1...UInt64.max)).jsonl"
        let error = failure {
            $0.logPath = log
            $0.replayPath = "/nonexistent/replay.json"
        }
        #expect(error?.stage == .replay)
        #expect(!System.fileExists(log))
    }

    @Test func anUpstreamCAIsCheckedAtStart() throws {
        let plain = try failure {
            $0.upstream = try UpstreamOptions(baseURL: "http://example.com", caFile: "/etc/ca.pem")
        }
        #expect(plain?.stage == .configuration)
        #expect(
            plain?.description.hasPrefix("--upstream-ca /etc/ca.pem: the upstream http://example.com is plain HTTP")
                == true)
        let missing = try failure {
            $0.upstream = try UpstreamOptions(baseURL: "https://example.com", caFile: "/nonexistent/ca.pem")
        }
        #expect(missing?.stage == .upstream)
        #expect(missing?.description.hasPrefix("--upstream-ca: cannot read /nonexistent/ca.pem") == true)
        #expect(throws: StartupError.self) {
            try StartupConfiguration.checkCertificateAuthority(path: "ca.der", bytes: [0x30, 0x82, 0x01])
        }
        try StartupConfiguration.checkCertificateAuthority(
            path: "ca.pem", bytes: Array("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8))
    }

    /// Issue 30.9: an upstream that leads back to this server, refused before a port is bound.
    @Test func anUpstreamThatIsThisServerIsRefused() throws {
        for (listen, url) in [
            ("127.0.0.1", "http://127.0.0.1:8080"), ("127.0.0.1", "http://localhost:8080"),
            ("127.0.0.1", "http://[::1]:8080"), ("127.0.0.1", "http://0.0.0.0:8080"), ("::1", "http://localhost:8080"),
            ("0.0.0.0", "http://192.168.1.20:8080"), ("0.0.0.0", "http://LOCALHOST.:8080"),
            ("192.168.1.20", "http://192.168.1.20:8080")
        ] {
            let error = try failure {
                $0.host = listen
                $0.port = 8080
                $0.upstream = try UpstreamOptions(baseURL: url)
            }
            #expect(error?.stage == .configuration, "\(listen) \(url)")
            #expect(error?.description.contains("is this server itself") == true)
        }
        #expect(
            try failure {
                $0.port = 8080
                $0.https = HTTPSOptions(port: 8443, stateDirectory: "/nonexistent")
                $0.upstream = try UpstreamOptions(baseURL: "https://localhost:8443")
            }?.stage == .configuration)
    }

    @Test func otherHostsAndPortsAreNotThisServer() {
        let local = ["192.168.1.20"]
        #expect(
            !OwnListenerCheck.reaches(
                host: "127.0.0.1", port: 8081, listenHost: "127.0.0.1", ports: [8080], localAddresses: local))
        #expect(
            !OwnListenerCheck.reaches(
                host: "example.com", port: 8080, listenHost: "0.0.0.0", ports: [8080], localAddresses: local))
        #expect(
            !OwnListenerCheck.reaches(
                host: "192.168.1.20", port: 8080, listenHost: "127.0.0.1", ports: [8080], localAddresses: local))
        #expect(
            !OwnListenerCheck.reaches(
                host: "127.0.0.1", port: 8080, listenHost: "192.168.1.20", ports: [8080], localAddresses: local))
    }

    /// Issue 30.8, 30.18: URLs and timeouts libcurl would misread, refused as the options are read.
    @Test func upstreamURLsAreCheckedAsLibcurlWouldReadThem() throws {
        func reason(_ url: String, timeout: Double = 5) -> String? {
            do {
                _ = try UpstreamOptions(baseURL: url, timeoutSeconds: timeout)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason("http://h:99999") == "--upstream http://h:99999: port 99999 is outside 1...65535")
        #expect(reason("http://h:0") == "--upstream http://h:0: port 0 is outside 1...65535")
        #expect(reason("http://h:8o") == "--upstream http://h:8o: the port \"8o\" is not a number")
        #expect(reason("http://h:") == "--upstream http://h:: the port \"\" is not a number")
        #expect(reason("http://[::1") == "--upstream http://[::1: an IPv6 address opened with [ is not closed with ]")
        #expect(
            reason("http://::1:80")
                == "--upstream http://::1:80: an IPv6 address goes in brackets, e.g. http://[::1]:8080")
        #expect(reason("http://[zz]:80") == "--upstream http://[zz]:80: [zz] is not an IPv6 address")
        #expect(reason("http://a b") == "--upstream http://a b: a space has no place in a host name")
        #expect(reason("http://a\tb")?.contains("U+9 has no place") == true)
        #expect(
            reason("http://h", timeout: 0.0004)?.hasPrefix("--upstream-timeout 0.0004: must be at least 0.001") == true)
        #expect(reason("http://h", timeout: .nan) != nil)
        #expect(reason("http://h", timeout: 0.001) == nil)
        let v6 = try UpstreamOptions(baseURL: "http://[::1]:9000/")
        #expect(v6.host == "::1" && v6.port == 9000 && v6.baseURL == "http://[::1]:9000")
        let named = try UpstreamOptions(baseURL: "https://sdk-api-v1.singular.net")
        #expect(named.host == "sdk-api-v1.singular.net" && named.port == 443 && named.isHTTPS)
    }
}
