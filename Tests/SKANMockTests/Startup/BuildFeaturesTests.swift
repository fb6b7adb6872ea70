import Testing

@testable import SKANMock

/// Issue 50.6: a build without HTTPS or `--upstream` says so at start-up, with how to get them.
@Suite struct BuildFeaturesTests {
    @Test func aFullBuildSaysNothing() {
        #expect(BuildFeatures.notice(https: true, upstream: true, linux: true) == nil)
        #expect(BuildFeatures.notice(https: true, upstream: true, linux: false) == nil)
    }

    @Test func linuxNamesThePackagesAndTheRebuild() throws {
        let both = try #require(BuildFeatures.notice(https: false, upstream: false, linux: true))
        #expect(both.hasPrefix("skan-mock: this build has no HTTPS (--https-port) and no --upstream: "))
        #expect(both.contains("apt-get install libssl-dev libqrencode-dev libcurl4-openssl-dev, then swift build"))
        #expect(both.contains("--manifest-cache none --disable-build-manifest-caching"))
        let curl = try #require(BuildFeatures.notice(https: true, upstream: false, linux: true))
        #expect(curl.hasPrefix("skan-mock: this build has no --upstream: "))
        #expect(curl.contains("apt-get install libcurl4-openssl-dev,"))
        #expect(!curl.contains("libssl-dev"))
    }

    @Test func aMacPointsToHomebrewsHTTPS() throws {
        let mac = try #require(BuildFeatures.notice(https: false, upstream: true, linux: false))
        #expect(mac.hasPrefix("skan-mock: this build has no HTTPS (--https-port): "))
        #expect(mac.contains("SKAN_MOCK_TLS=1") && !mac.contains("apt-get"))
    }

    /// The server says it once among its start-up notices, exactly when something is compiled out.
    @Test func theServerSaysItAmongItsNotices() throws {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        let server = try SKANMockServer(options: options)
        let said = server.notices.filter { $0.hasPrefix("skan-mock: this build has no") }
        #expect(said.count == (BuildFeatures.https && BuildFeatures.upstream ? 0 : 1))
    }
}
