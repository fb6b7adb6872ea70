/// What a live reader of the journal (the console's event stream) is told, in id order.
public enum JournalEvent: Sendable {
    /// An entry as it was committed.
    case entry(JournalEntry)
    /// The journal was emptied: what a reader showed is gone.
    case cleared
}

/// The start of a live reading: the kept entries after the reader's position, taken under the
/// same lock that registered it, so nothing is missed or sent twice between the two.
public struct JournalSubscription: Sendable {
    /// Pass to `Journal.unsubscribe`.
    public let id: Int
    /// Kept entries with an id greater than the `after` asked for, oldest first (empty when `after`
    /// was nil: only new entries).
    public let backlog: [JournalEntry]
    /// True when entries after `after` are no longer kept (dropped from a full journal, or cleared):
    /// the reader's view cannot be completed and should start again.
    public let gap: Bool
}
