import CFuzzerDriver
import FuzzHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    SKANParametersHarness.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// SwiftPM links executables with `--defsym main=FuzzSKANParameters_main`; hand the process to libFuzzer.
@_cdecl("FuzzSKANParameters_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        guard let data else { return 0 }
        return fuzz(data, size)
    }
}
