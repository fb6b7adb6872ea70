import Dispatch
import SystemPOSIX

/// Notices when the model file changes, so an edit in QA takes effect without a restart.
///
/// It polls `stat` once a second rather than using inotify: an editor's save-by-rename, a volume
/// mounted into a container and a ConfigMap's symlink swap all show up as a changed inode, size
/// or modification time, and polling sees them all the same way.
///
/// `@unchecked Sendable`: the only state is the timer source, which libdispatch makes safe to
/// resume and cancel from any thread; `start` and `stop` are each called once.
final class ModelFileWatcher: @unchecked Sendable {
    private let path: String
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "skan-mock.model-watcher"))

    private typealias Signature = FileSignature

    init(path: String) { self.path = path }

    /// `onChange` says whether the change was dealt with; false (the file could not be read)
    /// has it called again on the next tick, changed or not.
    func start(onChange: @escaping @Sendable () -> Bool) {
        let last = Mutex<Signature?>(signature())
        let path = path
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler {
            let current = Self.signature(of: path)
            let changed = last.withLock { last -> Bool in
                defer { last = current }
                return current != nil && current != last
            }
            if changed && !onChange() {
                last.withLock { $0 = nil }
            }
        }
        timer.resume()
    }

    func stop() { timer.cancel() }

    private func signature() -> Signature? { Self.signature(of: path) }

    private static func signature(of path: String) -> Signature? {
        System.fileSignature(path)
    }
}
