#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The C library's words for errno values: the same calls on glibc and Darwin, written once.
extension System {
    // MARK: - Errors

    /// The C library's words for an errno value (`strerror`).
    public static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `errorText` of the calling thread's current errno, for C libraries that fail by setting it.
    public static func lastErrorText() -> String {
        errorText(errno)
    }
}
