#if SKAN_MOCK_TLS
    import COpenSSL
    import Foundation
    import SKANTLS
    import Testing

    /// The TLS engine without sockets: a test client and the server's TLSSession exchange bytes in memory.
    @Suite("TLS session")
    struct TLSSessionTests {
        /// One CA and server identity for the whole suite (key generation is the slow part).
        static let fixture: (ca: LocalCA, identity: TLSIdentity, context: TLSContext) = {
            let directory = NSTemporaryDirectory() + "skan-tls-session-\(UUID().uuidString)"
            let ca = try! LocalCA.loadOrCreate(in: directory).ca
            let identity = try! ca.issueServerIdentity(names: ServerNames.all())
            return (ca, identity, try! TLSContext(identity: identity))
        }()

        @Test func handshakeAndDataBothWaysWithTLS13() throws {
            let server = try TLSSession(context: Self.fixture.context)
            let client = TestTLSClient(trusting: Self.fixture.ca.certificate.pem)
            var failure: String?
            #expect(runHandshake(client, server, serverFailure: &failure), "server: \(failure ?? "-")")
            #expect(server.negotiatedVersion == "TLSv1.3")
            #expect(client.verifyResult == Int(X509_V_OK))
            #expect(server.serverName == "localhost")

            #expect(client.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"))
            server.feed(client.takeCiphertext())
            var buffer = [UInt8](repeating: 0, count: 4096)
            let result = buffer.withUnsafeMutableBytes { server.readPlaintext(into: $0) }
            guard case .data(let count) = result else {
                Issue.record("read \(result)")
                return
            }
            #expect(String(decoding: buffer[0..<count], as: UTF8.self) == "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(buffer.withUnsafeMutableBytes { server.readPlaintext(into: $0) } == .wantMore)

            try server.writePlaintext(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
            #expect(server.hasCiphertext)
            client.feed(server.takeCiphertext())
            #expect(client.read() == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

            client.shutdown()
            server.feed(client.takeCiphertext())
            #expect(buffer.withUnsafeMutableBytes { server.readPlaintext(into: $0) } == .closed)
        }

        @Test func tls12WithAnAEADSuiteIsAccepted() throws {
            let server = try TLSSession(context: Self.fixture.context)
            let client = TestTLSClient(maxVersion: TLS1_2_VERSION, trusting: Self.fixture.ca.certificate.pem)
            var failure: String?
            #expect(runHandshake(client, server, serverFailure: &failure), "server: \(failure ?? "-")")
            #expect(server.negotiatedVersion == "TLSv1.2")
            #expect(server.negotiatedCipher == "ECDHE-ECDSA-AES128-GCM-SHA256")
        }

        @Test func tls11ClientIsRefused() throws {
            let server = try TLSSession(context: Self.fixture.context)
            let client = TestTLSClient(minVersion: TLS1_1_VERSION, maxVersion: TLS1_1_VERSION, ciphers: "ALL")
            var failure: String?
            #expect(!runHandshake(client, server, serverFailure: &failure))
            #expect(failure?.contains("protocol") == true, "server: \(failure ?? "-")")
            #expect(server.negotiatedVersion == nil)
            #expect(throws: TLSSession.WriteFailure.self) { try server.writePlaintext([1]) }
        }

        @Test func cbcOnlyTLS12ClientIsRefused() throws {
            let server = try TLSSession(context: Self.fixture.context)
            let client = TestTLSClient(
                maxVersion: TLS1_2_VERSION,
                ciphers: "ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:AES128-SHA")
            var failure: String?
            #expect(!runHandshake(client, server, serverFailure: &failure))
            #expect(failure?.contains("no shared cipher") == true, "server: \(failure ?? "-")")
        }

        @Test func plainHTTPFailsTheHandshake() throws {
            #expect(!TLSSession.looksLikeTLS(firstByte: UInt8(ascii: "G")))
            let server = try TLSSession(context: Self.fixture.context)
            server.feed(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            var buffer = [UInt8](repeating: 0, count: 1024)
            guard case .failed = buffer.withUnsafeMutableBytes({ server.readPlaintext(into: $0) }) else {
                Issue.record("plain HTTP did not fail")
                return
            }
        }

        @Test func handshakeWorksFedOneByteAtATime() throws {
            let server = try TLSSession(context: Self.fixture.context)
            let client = TestTLSClient(trusting: Self.fixture.ca.certificate.pem)
            var buffer = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<10 where !(server.handshakeComplete && client.handshake() == true) {
                _ = client.handshake()
                for byte in client.takeCiphertext() {
                    server.feed([byte])
                    #expect(buffer.withUnsafeMutableBytes { server.readPlaintext(into: $0) } == .wantMore)
                }
                client.feed(server.takeCiphertext())
            }
            #expect(server.handshakeComplete)
            #expect(client.handshake() == true)
        }

        @Test func contextRefusesAKeyOfAnotherCertificate() throws {
            let other = try Self.fixture.ca.issueServerIdentity(names: [.dns("other")])
            let mismatched = TLSIdentity(
                chain: Self.fixture.identity.chain, key: other.key, trustAnchor: Self.fixture.ca.certificate)
            #expect(throws: TLSSetupError.self) { try TLSContext(identity: mismatched) }
        }

        @Test func cipherListIsExactlyTheAEADSuites() {
            #expect(
                TLSContext.tls12CipherList
                    == "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
            )
        }
    }
#endif
