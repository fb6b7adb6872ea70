#if SKAN_MOCK_TLS
    import COpenSSL

    /// Bytes in and out of OpenSSL's memory BIOs, which is how PEM and DER travel without files.
    enum MemoryBIO {
        /// Runs `body` with a read-only BIO over `bytes` (which it does not copy: it lives only as long
        /// as the buffer pointer does, inside this call).
        static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(TLSSetupError) -> T)
            throws(TLSSetupError) -> T
        {
            let storage = bytes.isEmpty ? [0] : bytes  // never a nil base address, which BIO_new_mem_buf refuses
            let result: Result<T, TLSSetupError> = storage.withUnsafeBytes { raw in
                guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(bytes.count)) else {
                    return .failure(TLSSetupError("out of memory"))
                }
                defer { BIO_free(bio) }
                do throws(TLSSetupError) { return .success(try body(bio)) } catch { return .failure(error) }
            }
            return try result.get()
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
            return data.withMemoryRebound(to: UInt8.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }
#endif
