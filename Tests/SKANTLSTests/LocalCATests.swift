#if SKAN_MOCK_TLS
    import Foundation
    import SKANTLS
    import Testing

    /// The local CA and the server certificates it issues, judged by the openssl command and Apple's rules.
    @Suite("Local CA")
    struct LocalCATests {
        @Test func createsTheCAWithPrivateModesAndReusesItAfter() throws {
            let folder = temporaryFolder("ca") + "/nested/state"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (ca, created) = try LocalCA.loadOrCreate(in: folder)
            #expect(created)
            #expect(ca.certificatePath == folder + "/ca.pem")
            #expect(try mode(of: folder) == 0o700)
            #expect(try mode(of: ca.keyPath) == 0o600)

            let (again, createdAgain) = try LocalCA.loadOrCreate(in: folder)
            #expect(!createdAgain)
            #expect(again.certificate == ca.certificate)

            let (renewed, createdRenewed) = try LocalCA.loadOrCreate(in: folder, renew: true)
            #expect(createdRenewed)
            #expect(renewed.certificate != ca.certificate)
            #expect(try mode(of: renewed.keyPath) == 0o600)
            #expect(try LocalCA.loadOrCreate(in: folder).ca.certificate == renewed.certificate)
        }

        @Test func concurrentFirstStartsAgreeOnOneCA() async throws {
            let folder = temporaryFolder("race")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let certificates = try await withThrowingTaskGroup(of: Certificate.self) { group in
                for _ in 0..<6 { group.addTask { try LocalCA.loadOrCreate(in: folder).ca.certificate } }
                return try await group.reduce(into: [Certificate]()) { $0.append($1) }
            }
            #expect(Set(certificates).count == 1)
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            #expect(ca.certificate == certificates[0])
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func caMeetsApplesRulesForARoot() throws {
            let folder = temporaryFolder("ca-rules")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            let text = try OpenSSLCommand.run(["x509", "-noout", "-text", "-in", ca.certificatePath]).output
            #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
            #expect(text.contains("NIST CURVE: P-256"))
            #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:TRUE"))
            #expect(text.contains("X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign"))
            #expect(ca.certificate.commonName?.hasPrefix("skan-mock CA (") == true)
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func fingerprintIsWhatOpenSSLShows() throws {
            let folder = temporaryFolder("fingerprint")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            let output = try OpenSSLCommand.run(["x509", "-noout", "-fingerprint", "-sha256", "-in", ca.certificatePath]
            ).output
            #expect(
                output.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "sha256 Fingerprint=\(ca.certificate.sha256Fingerprint)")
            #expect(ca.certificate.sha256Fingerprint.count == 32 * 3 - 1)
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func serverCertificateVerifiesAsAnSSLServerAndNamesEveryAddress() throws {
            let folder = temporaryFolder("issue")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            let names = ServerNames.all(extra: [
                try #require(SubjectAltName("mock.example.test")), try #require(SubjectAltName("10.9.8.7"))
            ])
            let identity = try ca.issueServerIdentity(names: names)
            #expect(identity.trustAnchor == ca.certificate)
            let serverPath = folder + "/server.pem"
            try identity.chainPEM.write(toFile: serverPath, atomically: true, encoding: .utf8)

            let verify = try OpenSSLCommand.run([
                "verify", "-purpose", "sslserver", "-CAfile", ca.certificatePath, serverPath
            ])
            #expect(verify.status == 0)
            #expect(verify.output.contains("server.pem: OK"), "\(verify.output)")

            let san = try OpenSSLCommand.run(["x509", "-noout", "-ext", "subjectAltName", "-in", serverPath]).output
            for expected in [
                "DNS:localhost", "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1", "DNS:mock.example.test",
                "IP Address:10.9.8.7"
            ] {
                #expect(san.contains(expected), "\(expected) missing from \(san)")
            }
            let host = try #require(ServerNames.hostName()).lowercased()
            #expect(san.contains("DNS:\(host)"))
            if !host.contains(".") { #expect(san.contains("DNS:\(host).local")) }
            for address in InterfaceAddresses.current() where !address.isIPv6 {
                #expect(san.contains("IP Address:\(address.address)"))
            }

            let text = try OpenSSLCommand.run(["x509", "-noout", "-text", "-in", serverPath]).output
            #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
            #expect(text.contains("TLS Web Server Authentication"))
            #expect(text.contains("CA:FALSE"))
            let lifetime = try #require(identity.chain[0].notAfter) - Int(Date().timeIntervalSince1970)
            #expect(lifetime > 300 * 86_400 && lifetime <= 825 * 86_400)
        }

        /// A state folder opened to everyone, or a key copied readable, is made private again before
        /// use, and each change is said (issue 22).
        @Test func permissionsOpenToOthersAreTakenAwayAndSaid() throws {
            let folder = temporaryFolder("open")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            _ = try LocalCA.loadOrCreate(in: folder)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/ca-key.pem")
            let (_, created, notes) = try LocalCA.loadOrCreateNoting(in: folder)
            #expect(!created)
            #expect(
                notes == [
                    "\(folder) was open to other users (mode 777): set to 700",
                    "\(folder)/ca-key.pem was open to other users (mode 644): set to 600"
                ])
            #expect(try mode(of: folder) == 0o700)
            #expect(try mode(of: folder + "/ca-key.pem") == 0o600)
            #expect(try LocalCA.loadOrCreateNoting(in: folder).notes.isEmpty)
        }

        @Test func aCAWhoseKeyIsMissingNamesTheKeyFile() throws {
            let folder = temporaryFolder("missing-key")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            try FileManager.default.removeItem(atPath: ca.keyPath)
            #expect { try LocalCA.loadOrCreate(in: folder) } throws: { ($0 as? TLSSetupError)?.file == ca.keyPath }
        }

        @Test func subjectAltNamesParseAddressesAndNames() {
            #expect(SubjectAltName("192.168.1.20") == .ip("192.168.1.20"))
            #expect(SubjectAltName("0:0::1") == .ip("::1"))
            #expect(SubjectAltName("Mock.Example") == .dns("mock.example"))
            #expect(SubjectAltName("*.example.test") == .dns("*.example.test"))
            #expect(SubjectAltName("bad name") == nil)
            #expect(SubjectAltName("a,DNS:evil") == nil)
            #expect(SubjectAltName("") == nil)
            #expect(SubjectAltName.ip("::1").description == "IP:::1")
        }
    }
#endif
