#if SKAN_MOCK_TLS
    import Foundation
    import SKANDomain
    import SKANMock
    import Testing

    /// HTTPS end to end through libcurl, with the CA the server serves as the only trust anchor
    /// (verification on, host name checked): every endpoint, the journal's `tls`, refused clients,
    /// plain HTTP and garbage on the HTTPS port, stalled handshakes, the CA kept across restarts, the
    /// user's own files, and the phone set-up routes.
    @Suite("HTTPS over real sockets")
    struct HTTPSTests {
        final class Folder {
            let path = NSTemporaryDirectory() + "skan-https-\(UUID().uuidString)"
            deinit { try? FileManager.default.removeItem(atPath: path) }
            func file(_ name: String) -> String { path + "/" + name }
        }

        private func server(
            _ folder: Folder, headerTimeout: Double = 10, configure: (inout ServerOptions) -> Void = { _ in }
        )
            throws -> TestSKANMock
        {
            try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(port: 0, stateDirectory: folder.path)
                options.limits.headerTimeoutSeconds = headerTimeout
                configure(&options)
            })
        }

        /// A client that trusts only the CA the server hands out at /__admin/ca.pem.
        private func client(for mock: TestSKANMock, _ folder: Folder) throws -> CurlClient {
            let pem = try mock.client.get(mock.url("/__admin/ca.pem"))
            #expect(pem.status == 200 && pem.text.hasPrefix("-----BEGIN CERTIFICATE-----"))
            let path = folder.file("served-ca.pem")
            try Data(pem.body).write(to: URL(fileURLWithPath: path))
            let client = CurlClient()
            client.tls = CurlClient.TLSSettings(caFile: path)
            return client
        }

        private func https(_ mock: TestSKANMock, _ path: String) throws -> String {
            "https://127.0.0.1:\(try #require(mock.server.httpsPort))\(path)"
        }

        @Test func everyEndpointAnswersOverHTTPSAndTheJournalSaysSo() throws {
            let folder = Folder()
            let mock = try server(folder)
            let client = try client(for: mock, folder)
            let first = String(TestSKANMock.start - 60)
            let identity = "a=K&i=com.example.app&p=iOS&idfv=TLS-1&n=__SESSION__"
            let answers = try [
                client.get(https(mock, "/api/v1/conversion_value?\(identity)&conversion_value=0")),
                client.get(
                    https(
                        mock, "/api/v2/conversion_value?\(identity)&skan_first_call_to_skadnetwork_timestamp=\(first)")),
                client.get(https(mock, "/api/v1/launch?\(identity)")),
                client.get(https(mock, "/api/v1/evt?\(identity)")),
                client.get(https(mock, "/api/v2/launch?a=K&i=x&p=iOS&sdid=S-TLS")),
                client.get(https(mock, "/api/v2/evt?a=K&i=x&p=iOS&sdid=S-TLS&n=e"))
            ]
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 200])
            #expect(answers[1].text.contains("\"conversion_value\":1"))
            #expect(answers.dropFirst().allSatisfy { $0.connectsOpened == 0 })  // one keep-alive connection
            #expect(try client.get(https(mock, "/__admin/health")).status == 200)
            #expect(try client.get(https(mock, "/__admin/ui")).status == 200)
            _ = try mock.get("/api/v1/conversion_value", [("idfv", "PLAIN-1"), ("conversion_value", "0")])
            let entries = try mock.journal()
            #expect(entries.count == 7)
            #expect(entries.prefix(6).allSatisfy { $0["tls"] == "TLSv1.3" })
            #expect(entries.last?["tls"] == .null)
        }

        /// A connection that ends after its answer ends the TLS session cleanly (close_notify before
        /// the FIN), so a client reads "closed", not OpenSSL's "unexpected eof while reading".
        @Test(.enabled(if: CACommandTests.hasOpenSSL3, "needs OpenSSL 3's openssl command first on PATH, not LibreSSL"))
        func aClosingConnectionSendsCloseNotify() throws {
            let folder = Folder()
            let mock = try server(folder)
            let port = try #require(mock.server.httpsPort)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", folder.file("ca.pem"), "-ign_eof"
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(
                Data("GET /__admin/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text.contains("HTTP/1.1 200 OK"))
            #expect(!text.contains("unexpected eof"), "\(text.suffix(300))")
            #expect(text.hasSuffix("closed\n"))
        }

        /// A refused handshake (TLS 1.1 here) is answered with its alert, so the client says
        /// "protocol version" rather than "unexpected eof" (issue 22).
        @Test(.enabled(if: CACommandTests.hasOpenSSL3, "needs OpenSSL 3's openssl command first on PATH, not LibreSSL"))
        func aRefusedHandshakeGetsItsAlert() throws {
            let folder = Folder()
            let mock = try server(folder)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "openssl", "s_client", "-connect", "127.0.0.1:\(try #require(mock.server.httpsPort))",
                "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"
            ]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.closeFile()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text.contains("alert protocol version"), "\(text.suffix(400))")
        }

        @Test func tls12WithAnAEADSuiteIsServedAndOldOrCBCOnlyClientsAreRefused() throws {
            let folder = Folder()
            let mock = try server(folder)
            let client = try client(for: mock, folder)
            let url = try https(mock, "/__admin/health")
            client.tls?.maxVersion = 6  // TLS 1.2 at most
            client.tls?.ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256"
            #expect(try client.get(url).status == 200)
            client.tls?.ciphers = "ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA384:AES128-SHA"
            #expect(throws: CurlClient.Failure.self) { try client.get(url) }
            client.tls?.ciphers = nil
            client.tls?.minVersion = 4
            client.tls?.maxVersion = 5  // TLS 1.1 at most
            #expect(throws: CurlClient.Failure.self) { try client.get(url) }
            // The server is fine after each.
            #expect(try mock.client.get(mock.url("/__admin/health")).status == 200)
        }

        @Test func plainHTTPAndGarbageOnTheHTTPSPortAreClosedAtOnce() throws {
            let folder = Folder()
            let mock = try server(folder)
            let port = try #require(mock.server.httpsPort)
            let plain = try RawConnection(port: port, receiveTimeout: 2)
            let started = Date()
            plain.send("GET /api/v1/conversion_value?conversion_value=0&idfv=P HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = plain.readToEnd()
            #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(answer.text.contains("this port speaks HTTPS"))
            #expect(answer.closed && Date().timeIntervalSince(started) < 1)
            let garbage = try RawConnection(port: port, receiveTimeout: 2)
            garbage.send([0x16, 0x03, 0x01, 0x00, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
            #expect(garbage.readToEnd().closed)
            #expect(try mock.journal().isEmpty)  // nothing was served
        }

        /// A handshake trickled byte by byte meets the same deadline from accept:
        /// `HTTPConnectionTests`, on a hand-moved clock.
        @Test func stalledHandshakesAreClosedWithinTheHeaderTimeoutWhileOthersAreServed() throws {
            let folder = Folder()
            let mock = try server(folder, headerTimeout: 1)
            let client = try client(for: mock, folder)
            let port = try #require(mock.server.httpsPort)
            let started = Date()
            let stalled = try RawConnection(port: port, receiveTimeout: 5)
            stalled.send([0x16, 0x03, 0x01])  // the first bytes of a ClientHello, then nothing
            let barelyBegun = try RawConnection(port: port, receiveTimeout: 5)
            barelyBegun.send([0x16])
            for _ in 0..<3 {
                #expect(try client.get(https(mock, "/__admin/health")).status == 200)
            }
            #expect(stalled.readToEnd().closed && barelyBegun.readToEnd().closed)
            #expect(Date().timeIntervalSince(started) < 4)
        }

        @Test func theCAIsKeptAcrossRestartsWithPrivateFiles() throws {
            let folder = Folder()
            let first = try server(folder)
            let ca = try first.client.get(first.url("/__admin/ca.pem")).text
            first.server.stop(gracePeriod: 0)
            let second = try server(folder)
            #expect(try second.client.get(second.url("/__admin/ca.pem")).text == ca)
            let manager = FileManager.default
            let folderMode = try manager.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
            let keyMode = try manager.attributesOfItem(atPath: folder.file("ca-key.pem"))[.posixPermissions] as? Int
            #expect(folderMode == 0o700 && keyMode == 0o600)
        }

        @Test func theUsersOwnCertificateIsUsedAsGiven() throws {
            let folder = Folder()
            try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
                "-subj", "/CN=my test server", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", folder.file("key.pem"), "-out", folder.file("cert.pem")
            ]
            openssl.standardError = Pipe()
            try openssl.run()
            openssl.waitUntilExit()
            #expect(openssl.terminationStatus == 0)
            let mock = try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(
                    port: 0, certificateFile: folder.file("cert.pem"), keyFile: folder.file("key.pem"),
                    stateDirectory: folder.file("unused-state"))
            })
            let served = try mock.client.get(mock.url("/__admin/ca.pem")).text
            let certificateFile = try String(contentsOfFile: folder.file("cert.pem"), encoding: .utf8)
            #expect(served == certificateFile)
            let client = CurlClient()
            client.tls = CurlClient.TLSSettings(caFile: folder.file("cert.pem"))
            #expect(try client.get(https(mock, "/__admin/health")).status == 200)
            #expect(!FileManager.default.fileExists(atPath: folder.file("unused-state")))  // no local CA made
        }

        @Test func phoneSetupRoutesNeedNoTokenAndSayWhenHTTPSIsOff() throws {
            let folder = Folder()
            let mock = try server(folder, configure: { $0.adminToken = "T" })
            let profile = try mock.client.get(mock.url("/__admin/ca.mobileconfig"))
            #expect(profile.status == 200)
            #expect(profile.header("Content-Type") == "application/x-apple-aspen-config")
            #expect(
                profile.text.contains("<string>com.apple.security.root</string>")
                    && profile.text.contains("<string>Configuration</string>"))
            let page = try mock.client.get(mock.url("/__admin/phone"))
            #expect(page.status == 200 && page.text.contains("<svg") && page.text.contains("/__admin/ca.mobileconfig"))
            #expect(page.text.contains("--host 0.0.0.0"))  // listening on 127.0.0.1: the page says how to reach it
            #expect(try mock.client.get(mock.url("/__admin/health")).status == 401)

            let plain = try TestSKANMock()
            let off = try plain.client.get(plain.url("/__admin/phone"))
            #expect(off.status == 404 && off.text.contains("--https-port"))
        }

        /// docs/iphone-https.md's table, run: Python with `SSL_CERT_FILE` and Node with
        /// `NODE_EXTRA_CA_CERTS` trust the local CA; Python without it refuses the certificate.
        @Test func backEndsTrustTheLocalCAAsTheDocsSay() throws {
            let folder = Folder()
            let mock = try server(folder)
            let url = "https://localhost:\(try #require(mock.server.httpsPort))/__admin/health"
            let ca = folder.file("ca.pem")
            #expect(FileManager.default.fileExists(atPath: ca))
            func run(_ tool: String, _ arguments: [String], _ environment: [String: String]) throws -> (Int32, String) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [tool] + arguments
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(process.exits(within: 20), "\(tool) did not end")
                return (process.terminationStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let python = ["-c", "import urllib.request; print(urllib.request.urlopen('\(url)').status)"]
            let trusted = try run("python3", python, ["SSL_CERT_FILE": ca])
            #expect(trusted.0 == 0 && trusted.1 == "200", "\(trusted.1)")
            let untrusted = try run("python3", python, ["SSL_CERT_FILE": "/nonexistent.pem"])
            #expect(untrusted.0 != 0 && untrusted.1.contains("CERTIFICATE_VERIFY_FAILED"), "\(untrusted.1)")
            if NodeScript.available {
                let node = try run(
                    "node",
                    [
                        "-e",
                        "fetch('\(url)').then(r => console.log(r.status), e => { console.log(e.cause); process.exit(1) })"
                    ],
                    ["NODE_EXTRA_CA_CERTS": ca])
                #expect(node.0 == 0 && node.1 == "200", "\(node.1)")
            }
        }
    }
#endif
