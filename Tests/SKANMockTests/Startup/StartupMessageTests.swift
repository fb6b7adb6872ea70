import HTTPCore
import Testing

@testable import SKANMock

/// Start-up lines that name the right thing (issue 50.9).
@Suite struct StartupMessageTests {
    /// A host that does not resolve is `--host`'s fault, whichever listener found it.
    @Test func aHostThatDoesNotResolveNamesHost() {
        let line = SKANMockServer.listenFailure(
            .cannotResolve(host: "nosuchhost.invalid", reason: "Name or service not known"), option: "--https-port",
            port: 8443)
        #expect(line.hasPrefix("--host nosuchhost.invalid: cannot resolve host 'nosuchhost.invalid'"))
        #expect(!line.contains("--https-port"))
        let inUse = SKANMockServer.listenFailure(
            .portInUse(host: "127.0.0.1", port: 8080, reason: "Address already in use"), option: "--port", port: 8080)
        #expect(inUse.hasPrefix("--port 8080: cannot listen on 127.0.0.1:8080"))
    }

    /// `--resume` of a journal with tenants counts their devices too.
    @Test func theResumedDevicesCountTheTenants() {
        #expect(SKANMockServer.devicesText(1, tenants: []) == "1 device")
        #expect(
            SKANMockServer.devicesText(0, tenants: [2, 1])
                == "3 devices: 0 in the default tenant, 3 in 2 named tenants")
    }
}
