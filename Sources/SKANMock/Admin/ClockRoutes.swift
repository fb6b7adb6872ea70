import HTTPCore
import SKANDomain

/// Time travel: `GET /__admin/clock` and `PUT /__admin/clock` (`{"offset_s": N}` sets the offset
/// from the real clock, `{"advance_s": N}` adds to it), within 100 years of the real time.
struct ClockRoutes: AdminRouteCollection {
    static let maxOffsetSeconds = ServerOptions.maxClockOffsetSeconds

    func register(on group: inout AdminRouteGroup) {
        group.on(.get, "/clock") { _, _, scope, writer in writer.send(Self.reading(scope.clock)) }
        group.on(.put, "/clock") { request, _, scope, writer in writer.send(Self.move(request, scope.clock)) }
    }

    private static func reading(_ clock: OffsetClock) -> HTTPResponse {
        let now = clock.nowMilliseconds()
        return AdminResponse.json([
            "offset_s": .int(clock.offsetSeconds),
            "now": .string(RFC3339.format(milliseconds: now)),
            "now_s": .int(now / 1000)
        ])
    }

    private static func move(_ request: HTTPRequest, _ clock: OffsetClock) -> HTTPResponse {
        let expected = "expected {\"offset_s\": seconds} or {\"advance_s\": seconds}"
        let body: JSONValue
        do {
            body = try JSONParser.parse(request.body)
        } catch {
            return .jsonError("the body is not JSON (\(error.description)); \(expected)", status: .badRequest)
        }
        guard let members = body.objectValue, members.count == 1, let member = members.first,
            let seconds = member.value.intValue, member.key == "offset_s" || member.key == "advance_s"
        else {
            return .jsonError(expected, status: .badRequest)
        }
        // Bounded so the clock's arithmetic (milliseconds in an Int64) cannot overflow; an advance
        // is one atomic step, so advances sent at once all count.
        let limit = -Self.maxOffsetSeconds...Self.maxOffsetSeconds
        let moved: Bool
        if member.key == "offset_s" {
            moved = limit.contains(seconds)
            if moved { clock.setOffset(seconds: seconds) }
        } else {
            moved = clock.advance(seconds: seconds, within: limit) != nil
        }
        guard moved else {
            return .jsonError(
                "the clock offset must stay within 100 years (\(Self.maxOffsetSeconds) s) of the real time",
                status: .badRequest)
        }
        return reading(clock)
    }
}
