import SKANDomain

/// Device state rebuilt from a journal file for `skan-mock report`: each request answered again at
/// its own time, adopting the answer the journal says the client received (the model's, a proxied
/// upstream's or a replayed one alike), so the state is what the devices acted on whichever model
/// is loaded now. Requests a client got no usable answer to (an error, a fault's garbage) leave no
/// state, as they left none on the device.
enum JournalDeviceState {
    /// The service holding the devices, and the time of the last request (the report's "now").
    static func rebuild(_ entries: [JSONValue], model: ConversionModel) -> (service: ConversionService, now: Int64) {
        let service = ConversionService(model: model, clock: ManualClock(milliseconds: 0), deviceCapacity: 1_000_000)
        var now: Int64 = 0
        for json in entries {
            if let time = json["time"]?.stringValue.flatMap(RFC3339.parse) { now = max(now, time) }
            _ = JournalResume.answerAgain(json, into: service)
        }
        return (service, now)
    }
}
