/// SKAN 3's rules (`/api/v1/conversion_value`, no windows): the model's next value (increment mode,
/// by default up to 2, then the exhausted answer) or its rules table, never below the value the
/// device sent. Pure: the service runs it under its lock on the device's state.
struct SKAN3Rules {
    let model: ConversionModel

    /// Notes what the device sent (its value, first call and event) and chooses the answer: the
    /// body, and the value in it (nil when the body holds none: an error, the exhausted answer).
    func answer(
        _ p: SKAN3Parameters, event: String?, device: inout SKAN3DeviceState, findings: inout [ValidationFinding],
        hits: inout EntryHits, now: Int64
    ) -> (body: [UInt8], value: Int64?) {
        if let v = p.conversionValue {
            if let highest = device.highestValueSent, v < highest {
                findings.append(
                    ValidationFinding(
                        param: SKAN3Parameters.conversionValueName.name, code: .skan3ValueDecreased,
                        message:
                            "conversion_value \(v) is lower than \(highest), which this device sent before; SKAN 3 values never go down"
                    ))
            }
            if v > (device.highestValueSent ?? -1) { device.highestSentMilliseconds = now }
            device.highestValueSent = max(device.highestValueSent ?? v, v)
        }
        if let first = p.firstCall { device.firstCallSeconds = first }
        if let event { device.eventBytes += DeviceState.count(event, in: &device.events) }

        switch p.valueProblem {
        case .missing:
            return (
                SKANResponse.error(
                    "conversion_value is missing; send the current conversion value (initialise it to 0 before the first call)"
                ), nil
            )
        case .notAnInteger(let text):
            return (
                SKANResponse.error(
                    "conversion_value \(quoted(text)) is not an integer; send the current conversion value (initialise it to 0 before the first call)"
                ), nil
            )
        case nil:
            break
        }
        let current = p.conversionValue ?? 0
        switch model.skan3 {
        case .increment(let max, let whenExhausted):
            guard current < max else { return (whenExhausted == .empty ? [] : SKANResponse.ok(), nil) }
            let value = Self.clamped(current + 1)
            return (SKANResponse.skan3(value), value)
        case .rules(let table):
            let days = p.firstCall.map { floorDivide(saturatingSubtract(floorDivide(now, 1000), $0), 86_400) }
            var context = EvaluationContext(
                counts: device.events, daysSinceFirstCall: days, rates: model.currency,
                totalIAP: (p.totalRevenue, SKAN3Parameters.totalRevenueName.name), totalAdmon: (nil, ""),
                windowIAP: (nil, ""), windowAdmon: (nil, ""))
            let chosen = table.evaluate(&context)?.fine ?? current
            hits = context.hits
            hits.table = 0
            findings.append(contentsOf: context.findings)
            let value = Self.clamped(Swift.max(current, chosen))
            return (SKANResponse.skan3(value), value)
        }
    }

    /// SKAN 3 values are 0...63 in answers.
    static func clamped(_ value: Int64) -> Int64 { Swift.min(63, Swift.max(0, value)) }
}
