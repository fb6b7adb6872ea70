extension JournalRecord {
    /// A request judged outside the server (a HAR capture's, by `skan-mock check`), written and
    /// read back exactly as the journal writes an entry, so the report, the postbacks and the
    /// upstream comparison sum it up with the code that sums up a journal, and agree with it.
    public static func judged(
        id: Int64, request: SKANRequest, outcome: SKANOutcome, status: Int, body: [UInt8], durationMicros: Int64,
        extra: [JSONMember]
    ) -> JournalRecord? {
        JournalEntry.make(
            id: id, timeMilliseconds: outcome.timeMilliseconds, request: request, endpoint: outcome.journalEndpoint,
            outcome: outcome, status: status, body: body, durationMicros: durationMicros, extra: extra
        ).record
    }
}
