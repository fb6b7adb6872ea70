import Testing

@testable import SKANDomain

/// Device state is bounded by bytes, and ids and event names by length (issue 43.9): 1,200
/// device ids of 1 MB held 1.2 GiB when only the number of devices was bounded.
@Suite struct DeviceStateBoundsTests {
    @Test func aDeviceIdOver256BytesIsKeptCutWithAFinding() throws {
        let (service, _) = makeService()
        let long = String(repeating: "D", count: 5_000)
        let o = service.skan4(skan4Params(device: long))
        let finding = try #require(o.findings.first { $0.code == .deviceIDTooLong })
        #expect(finding.param == "idfv")
        #expect(
            finding.message
                == "idfv is 5000 bytes; a device id is 36 characters (an IDFV is a UUID), so this one is likely not what the app meant to send; the server keeps this device's state under its first 256 bytes"
        )
        let kept = String(repeating: "D", count: 256)
        #expect(o.device == kept)
        #expect(service.device(kept) != nil)
        #expect(service.device(long) == nil)
    }

    @Test func anIdIsCutAtTheStartOfACharacter() {
        // 255 ASCII bytes, then a two-byte character that would straddle the limit.
        let id = String(repeating: "a", count: 255) + "é" + "tail"
        let cut = CommonParameters.bounded(id)
        #expect(cut == String(repeating: "a", count: 255))
    }

    @Test func aLongEventNameIsCountedCutWithAFinding() throws {
        let (service, _) = makeService()
        let name = String(repeating: "e", count: 1_000)
        let o = service.skan4(skan4Params(event: name))
        #expect(o.findings.map(\.code).contains(.eventNameTooLong))
        #expect(o.event == String(repeating: "e", count: 256))
        let state = try #require(service.device("IDFV-1"))
        #expect(state.skan4.events[0] == [String(repeating: "e", count: 256): 1])
    }

    @Test func anOrdinaryRequestHasNeitherFinding() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params())
        #expect(!o.findings.contains { $0.code == .deviceIDTooLong || $0.code == .eventNameTooLong })
    }

    @Test func stateIsBoundedByBytesAsWellAsByCount() {
        let limit = 32 * 1024
        let service = ConversionService(model: .builtIn, clock: ManualClock(seconds: T0), deviceBytes: limit)
        for d in 0..<50 {
            let device = "\(d)-" + String(repeating: "d", count: 250)
            for e in 0..<10 {
                _ = service.skan4(skan4Params(device: device, event: "\(e)-" + String(repeating: "e", count: 250)))
            }
            #expect(service.deviceBytes <= limit)
        }
        // 50 devices of about 4.4 KB each: only the most recent fit.
        #expect(service.deviceCount < 10)
        #expect(service.device("49-" + String(repeating: "d", count: 250)) != nil)
        service.resetDevices()
        #expect(service.deviceBytes == 0)
    }

    @Test func aStoreOverItsBytesDropsTheLeastRecentlyUsedFirst() {
        var store = DeviceStateStore(capacity: 100, maxBytes: 3 * DeviceState.fixedBytes + 30)
        for key in ["a", "b", "c"] { store.set(key, DeviceState(nowMilliseconds: 0)) }
        _ = store.get("a")
        store.set("d", DeviceState(nowMilliseconds: 0))
        #expect(store.keysByRecency == ["d", "a", "c"])
        #expect(store.evicted == 1)
        // The freed slot is used again.
        store.set("e", DeviceState(nowMilliseconds: 0))
        #expect(store.keysByRecency == ["e", "d", "a"])
        #expect(store.bytes == 3 * (DeviceState.fixedBytes + 1))
    }
}
