#if SKAN_MOCK_TLS
    import COpenSSL
    import Foundation
    @testable import SKANTLS
    import Testing

    /// `--tls-cert FILE --tls-key FILE`: the user's files used as given; broken ones named in the error.
    @Suite("User certificate files")
    struct UserCertificateTests {
        /// An RSA 2048 certificate and key made by the openssl command (not by SKANTLS), and a second key.
        static func makeFiles(in folder: String) throws -> (cert: String, key: String, otherKey: String) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let cert = folder + "/cert.pem"
            let key = folder + "/key.pem"
            let other = folder + "/other-key.pem"
            let made = try OpenSSLCommand.run([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                "-days", "30", "-subj", "/CN=user.example.test", "-addext", "subjectAltName=DNS:user.example.test"
            ])
            #expect(made.status == 0, "\(made.output)")
            _ = try OpenSSLCommand.run([
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", other
            ])
            return (cert, key, other)
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func usersFilesAreUsedAsGiven() throws {
            let folder = temporaryFolder("user")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let files = try Self.makeFiles(in: folder)
            let identity = try TLSIdentity.load(certificateFile: files.cert, keyFile: files.key)
            #expect(identity.chain.count == 1)
            #expect(identity.trustAnchor.commonName == "user.example.test")
            let certificateFile = try String(contentsOfFile: files.cert, encoding: .utf8)
            #expect(identity.chainPEM == certificateFile)
            // An RSA certificate gets the ECDHE-RSA suites of the list.
            let server = try TLSSession(context: try TLSContext(identity: identity))
            let client = TestTLSClient(maxVersion: TLS1_2_VERSION, serverName: "user.example.test")
            var failure: String?
            #expect(runHandshake(client, server, serverFailure: &failure), "server: \(failure ?? "-")")
            #expect(server.negotiatedCipher == "ECDHE-RSA-AES128-GCM-SHA256")
        }

        @Test func trustAnchorIsTheLastCertificateOfTheFile() throws {
            let folder = temporaryFolder("user-chain")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder + "/state").ca
            let identity = try ca.issueServerIdentity(names: [.dns("chain.example.test")])
            let cert = folder + "/chain.pem"
            let key = folder + "/key.pem"
            try (identity.chainPEM + ca.certificate.pem).write(toFile: cert, atomically: true, encoding: .utf8)
            try Data(identity.key.pem).write(to: URL(fileURLWithPath: key))
            let loaded = try TLSIdentity.load(certificateFile: cert, keyFile: key)
            #expect(loaded.chain.count == 2)
            #expect(loaded.trustAnchor == ca.certificate)
        }

        @Test func missingFileIsNamed() throws {
            let missing = temporaryFolder("none") + "/cert.pem"
            #expect { try TLSIdentity.load(certificateFile: missing, keyFile: missing) } throws: { error in
                let error = error as? TLSSetupError
                return error?.file == missing && error?.description.contains("No such file") == true
            }
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func fileThatIsNotPEMIsNamed() throws {
            let folder = temporaryFolder("not-pem")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let files = try Self.makeFiles(in: folder)
            let garbage = folder + "/garbage.pem"
            try "hello\n".write(toFile: garbage, atomically: true, encoding: .utf8)
            #expect { try TLSIdentity.load(certificateFile: garbage, keyFile: files.key) } throws: {
                ($0 as? TLSSetupError)?.file == garbage
            }
            #expect { try TLSIdentity.load(certificateFile: files.cert, keyFile: garbage) } throws: {
                ($0 as? TLSSetupError)?.file == garbage
            }
            let empty = folder + "/empty.pem"
            try "".write(toFile: empty, atomically: true, encoding: .utf8)
            #expect { try TLSIdentity.load(certificateFile: empty, keyFile: files.key) } throws: { error in
                let error = error as? TLSSetupError
                return error?.file == empty && error?.reason.contains("no PEM certificate") == true
            }
            // A certificate where the key should be is not a key either.
            #expect { try TLSIdentity.load(certificateFile: files.cert, keyFile: files.cert) } throws: {
                ($0 as? TLSSetupError)?.file == files.cert
            }
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func mismatchedKeyIsNamed() throws {
            let folder = temporaryFolder("mismatch")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let files = try Self.makeFiles(in: folder)
            #expect { try TLSIdentity.load(certificateFile: files.cert, keyFile: files.otherKey) } throws: { error in
                let error = error as? TLSSetupError
                return error?.file == files.otherKey && error?.reason.contains("does not match") == true
            }
        }
    }
#endif
