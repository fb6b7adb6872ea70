import SystemPOSIX

/// Notices when the model file changes, so an edit in QA takes effect without a restart.
///
/// It polls `stat` once a second rather than using inotify: an editor's save-by-rename, a volume
/// mounted into a container and a ConfigMap's symlink swap all show up as a changed inode, size
/// or modification time, and polling sees them all the same way. The tick is the server's timer
/// (`ServerTimer`), so a test moves it by hand.
final class ModelFileWatcher: Sendable {
    /// How often the file is looked at.
    static let periodMilliseconds = 1_000

    private let path: String
    private let timer: ServerTimer
    private let stopped = Mutex(false)

    private typealias Signature = FileSignature

    init(path: String, timer: ServerTimer = .dispatch) {
        self.path = path
        self.timer = timer
    }

    /// `onChange` says whether the change was dealt with; false (the file could not be read)
    /// has it called again on the next tick, changed or not. Call once.
    func start(onChange: @escaping @Sendable () -> Bool) {
        scheduleTick(last: Mutex<Signature?>(System.fileSignature(path)), onChange: onChange)
    }

    /// No tick after this one does anything; the one set already lapses.
    func stop() { stopped.withLock { $0 = true } }

    /// One tick at a time: the next is set when this one is done, so ticks never overlap.
    private func scheduleTick(last: Mutex<Signature?>, onChange: @escaping @Sendable () -> Bool) {
        timer.after(Self.periodMilliseconds) { [self] in
            guard !stopped.withLock({ $0 }) else { return }
            let current = System.fileSignature(path)
            let changed = last.withLock { last -> Bool in
                defer { last = current }
                return current != nil && current != last
            }
            if changed && !onChange() {
                last.withLock { $0 = nil }
            }
            scheduleTick(last: last, onChange: onChange)
        }
    }
}
