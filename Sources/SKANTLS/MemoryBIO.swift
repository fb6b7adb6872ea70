#if SKAN_MOCK_TLS
import COpenSSL

/// Bytes in and out of OpenSSL's memory BIOs, which is how PEM and DER travel without files.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `bytes`.
    static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(TLSSetupError) -> T) throws(TLSSetupError) -> T {
        let bio: OpaquePointer? = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw TLSSetupError("out of memory") }
        defer { BIO_free(bio) }
        // BIO_new_mem_buf does not copy: `bytes` must outlive the BIO, which it does (same scope).
        return try withExtendedLifetime(bytes) { () throws(TLSSetupError) -> T in try body(bio) }
    }

    /// Runs `write` on an empty memory BIO and returns what it wrote.
    static func writing(_ write: (OpaquePointer) -> Bool) throws(TLSSetupError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw TLSSetupError("out of memory") }
        defer { BIO_free(bio) }
        OpenSSLErrors.clear()
        guard write(bio) else { throw TLSSetupError(OpenSSLErrors.drain(or: "cannot encode")) }
        var data: UnsafeMutablePointer<CChar>?
        let count = skan_bio_get_mem_data(bio, &data)
        guard count > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }
}
#endif
