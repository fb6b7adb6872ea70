#if SKAN_MOCK_TLS
    import Foundation
    import SKANTLS
    import Testing

    /// ES256 with the local CA's key (AdAttributionKit postbacks' JWS): r || s, checked by our own
    /// verifier and by the `openssl` command the way docs/postbacks.md tells a reader to.
    @Suite("ES256 signatures")
    struct ES256Tests {
        @Test func theCASignsAndTheSignatureVerifies() throws {
            let folder = temporaryFolder("es256")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            let input = Array("eyJraWQiOiJ4In0.eyJhIjoxfQ".utf8)
            let signature = try ca.signES256(input)
            #expect(signature.count == 64)
            #expect(ES256.verify(signature, of: input, by: ca.certificate))
            #expect(!ES256.verify(signature, of: input + [0x2E], by: ca.certificate))
            #expect(ca.keyID.hasPrefix("skan-mock-ca-") && ca.keyID.count == 13 + 16)
        }

        @Test(.enabled(if: OpenSSLCommand.isOpenSSL3, OpenSSLCommand.requirement))
        func theOpenSSLCommandAgrees() throws {
            let folder = temporaryFolder("es256-openssl")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let ca = try LocalCA.loadOrCreate(in: folder).ca
            let input = Array("header.payload".utf8)
            let signature = try ca.signES256(input)
            func hex(_ bytes: ArraySlice<UInt8>) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
            try Data(input).write(to: URL(fileURLWithPath: folder + "/input"))
            try
                "asn1=SEQUENCE:sig\n[sig]\nr=INTEGER:0x\(hex(signature[0..<32]))\ns=INTEGER:0x\(hex(signature[32...]))\n"
                .write(toFile: folder + "/sig.cnf", atomically: true, encoding: .utf8)
            #expect(
                try OpenSSLCommand.run([
                    "asn1parse", "-genconf", folder + "/sig.cnf", "-out", folder + "/sig.der", "-noout"
                ]).status == 0)
            #expect(
                try OpenSSLCommand.run([
                    "x509", "-in", ca.certificatePath, "-pubkey", "-noout", "-out", folder + "/pub.pem"
                ]).status == 0)
            let verified = try OpenSSLCommand.run([
                "dgst", "-sha256", "-verify", folder + "/pub.pem", "-signature", folder + "/sig.der", folder + "/input"
            ])
            #expect(verified.status == 0 && verified.output.contains("Verified OK"), "\(verified.output)")
        }
    }
#endif
