#if SKAN_MOCK_TLS
    import COpenSSL

    /// Makes certificates with OpenSSL's X509 API, to Apple's rules for TLS (iOS 13 and later): SHA-256
    /// signatures, P-256 keys, a subjectAltName, extendedKeyUsage serverAuth, at most 825 days.
    enum CertificateIssuer {
        /// How long a local CA lasts: long, since a phone must be set up again for a new one.
        static let caValidityDays = 3650
        /// How long a server certificate lasts: it is issued afresh at each start, and 397 days passes
        /// the stricter rule browsers apply, not only Apple's 825.
        static let serverValidityDays = 397

        /// A self-signed CA: basicConstraints CA:TRUE (critical), keyUsage keyCertSign and cRLSign.
        static func makeAuthority(commonName: String) throws(TLSSetupError) -> (Certificate, PrivateKey) {
            let key = try PrivateKey.generateP256()
            let certificate = try key.withEVP { evp throws(TLSSetupError) in
                try build(
                    subject: commonName, publicKey: evp, validityDays: caValidityDays, issuer: nil, signer: evp,
                    extensions: [
                        (NID_basic_constraints, "critical,CA:TRUE"),
                        (NID_key_usage, "critical,keyCertSign,cRLSign"),
                        (NID_subject_key_identifier, "hash")
                    ])
            }
            return (certificate, key)
        }

        /// A server certificate for `names`, signed by the CA.
        static func issueServer(names: [SubjectAltName], authority: Certificate, authorityKey: PrivateKey)
            throws(TLSSetupError) -> (Certificate, PrivateKey)
        {
            guard !names.isEmpty else { throw TLSSetupError("a server certificate needs at least one name") }
            let key = try PrivateKey.generateP256()
            let certificate = try key.withEVP { evp throws(TLSSetupError) in
                try authority.withX509 { issuer throws(TLSSetupError) in
                    try authorityKey.withEVP { signer throws(TLSSetupError) in
                        try build(
                            subject: "skan-mock", publicKey: evp, validityDays: serverValidityDays, issuer: issuer,
                            signer: signer,
                            extensions: [
                                (NID_basic_constraints, "critical,CA:FALSE"),
                                (NID_key_usage, "critical,digitalSignature"),
                                (NID_ext_key_usage, "serverAuth"),
                                (NID_subject_alt_name, names.map(\.description).joined(separator: ",")),
                                (NID_subject_key_identifier, "hash"),
                                (NID_authority_key_identifier, "keyid:always")
                            ])
                    }
                }
            }
            return (certificate, key)
        }

        /// One X509 v3 certificate; `issuer` nil makes it self-signed.
        private static func build(
            subject commonName: String, publicKey: OpaquePointer, validityDays: Int, issuer: OpaquePointer?,
            signer: OpaquePointer, extensions: [(Int32, String)]
        ) throws(TLSSetupError) -> Certificate {
            OpenSSLErrors.clear()
            guard let x509 = X509_new() else { throw TLSSetupError("out of memory") }
            defer { X509_free(x509) }
            func check(_ ok: Bool, _ what: String) throws(TLSSetupError) {
                if !ok { throw TLSSetupError("cannot \(what): \(OpenSSLErrors.drain(or: "OpenSSL failed"))") }
            }
            try check(X509_set_version(x509, Int(X509_VERSION_3)) == 1, "set the version")
            try check(setRandomSerial(x509), "set the serial number")
            // An hour of clock skew.
            try check(X509_gmtime_adj(X509_getm_notBefore(x509), -3600) != nil, "set notBefore")
            try check(X509_gmtime_adj(X509_getm_notAfter(x509), validityDays * 86_400) != nil, "set notAfter")
            try check(X509_set_pubkey(x509, publicKey) == 1, "set the public key")
            let name = X509_get_subject_name(x509)
            let common = Array(commonName.utf8)
            try check(
                X509_NAME_add_entry_by_txt(name, "O", skan_mbstring_asc(), "skan-mock", -1, -1, 0) == 1,
                "set the organisation")
            try check(
                X509_NAME_add_entry_by_txt(name, "CN", skan_mbstring_asc(), common, Int32(common.count), -1, 0) == 1,
                "set the common name")
            let issuerName = issuer.map { X509_get_subject_name($0) } ?? name
            try check(X509_set_issuer_name(x509, issuerName) == 1, "set the issuer")
            for (nid, value) in extensions {
                try check(skan_x509_add_conf_extension(x509, issuer ?? x509, nid, value) == 1, "add extension \(value)")
            }
            try check(X509_sign(x509, signer, EVP_sha256()) > 0, "sign")
            return try Certificate(x509: x509)
        }

        /// 16 random bytes, top bit clear (serials are positive; RFC 5280 allows up to 20 bytes).
        private static func setRandomSerial(_ x509: OpaquePointer) -> Bool {
            var bytes = [UInt8](repeating: 0, count: 16)
            guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { return false }
            bytes[0] &= 0x7F
            bytes[0] |= 0x01 << 6  // never a leading zero byte
            guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
            defer { BN_free(number) }
            guard let serial = BN_to_ASN1_INTEGER(number, nil) else { return false }
            defer { ASN1_INTEGER_free(serial) }
            return X509_set_serialNumber(x509, serial) == 1
        }
    }
#endif
