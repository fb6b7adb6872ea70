extension ConversionService {
    /// Answers one journaled request again at its own time, so its device's state is as it was
    /// after it, adopting the answer the journal says the client received (the model's, a proxied
    /// upstream's or a replayed one alike: a model changed since would give another). Returns that
    /// time, or nil for a request that left no state: not a SKAN endpoint, not a 200, or an answer
    /// a fault replaced (a delay alone answered as the model did). Shared by `--resume` and the
    /// report's rebuild of the devices.
    @discardableResult
    public func answerAgain(_ record: JournalRecord) -> Int64? {
        guard let endpoint = record.endpoint?.singular,
            record.response.status == 200,
            record.fault?.replacedAnswer != true, let time = record.time
        else { return nil }
        // As the proxy did the first time: an answer the model cannot read is adopted as one the
        // client could not use, not left out of the device's history.
        let adopted = AppliedAnswer.received(status: 200, body: record.response.body)
        var request = record.request
        if request.path.isEmpty { request.path = endpoint.path }
        _ = handle(endpoint, request, commit: true, adopting: adopted, at: time)
        return time
    }
}
