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

    /// Lets another thread that is ready run first (a wait of microseconds, for work under way).
    public static func yieldProcessor() {
        _ = sched_yield()
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

extension System {
    /// Blocks `signals` in the calling thread and in every thread it starts from now on (a new
    /// thread inherits its creator's mask). Called first in `main`, before any thread exists, a
    /// signal then waits, pending, until a handler takes it (a dispatch source reads pending
    /// signals), instead of ending the process or being lost in between.
    public static func block(_ signals: [ProcessSignal]) {
        var set = signalSet(signals)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Unblocks `signals` in the calling thread: one pending now is delivered at once.
    public static func unblock(_ signals: [ProcessSignal]) {
        var set = signalSet(signals)
        _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Which of `signals` are pending, blocked, for this process or thread (`sigpending`).
    public static func pending(_ signals: [ProcessSignal]) -> [ProcessSignal] {
        var set = sigset_t()
        guard sigpending(&set) == 0 else { return [] }
        return signals.filter { sigismember(&set, $0.number) == 1 }
    }

    private static func signalSet(_ signals: [ProcessSignal]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.number) }
        return set
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
