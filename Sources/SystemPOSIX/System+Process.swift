#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The process: its environment, signals, sleeping and exiting, written once: glibc and Darwin
// spell these alike. What differs (glibc's malloc arenas) is in each platform's file.

extension System {
    /// The variable's value, or nil when unset.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Sets `signal` to be ignored (so that a dispatch source can take it, or a dead peer cannot kill us).
    public static func ignore(_ signal: ProcessSignal) {
        ignoreSignal(signal.number)
    }

    /// Ignores SIGXFSZ: a write past a file-size limit (`ulimit -f`) must fail with EFBIG, which
    /// the journal log handles, instead of ending the process.
    public static func ignoreFileSizeLimit() {
        ignoreSignal(SIGXFSZ)
    }

    /// Ignores SIGPIPE process-wide: a reader that vanishes must cost an EPIPE, not the process.
    public static func ignoreBrokenPipe() {
        ignoreSignal(SIGPIPE)
    }

    public static func sleep(microseconds: UInt32) {
        _ = usleep(microseconds)
    }

    public static func exit(_ code: Int32) -> Never {
        exitProcess(code)
    }

    /// Ends the process at once once a stop has finished its work: the C streams are flushed, and
    /// no atexit handler or static destructor runs, since those can wait forever on a lock that
    /// another thread (a dispatch worker, an event loop) still holds when a signal stops us.
    public static func exitNow(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }
}

// Outside `System`, where `signal` and `exit` are the C library's, not System's own.

private func ignoreSignal(_ number: Int32) {
    _ = signal(number, SIG_IGN)
}

private func exitProcess(_ code: Int32) -> Never {
    exit(code)
}

extension System {
    /// This process's id.
    public static func processID() -> Int32 {
        getpid()
    }

    /// Whether a process with this id exists (it may belong to another user: `EPERM` says it does).
    public static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the file at `path`; false when there was none or it could not be removed.
    @discardableResult
    public static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0
    }
}
