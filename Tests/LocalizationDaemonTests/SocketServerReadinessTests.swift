import Foundation
import LocalizationDaemon
import LocalizationWire
import Testing

/// The server's one input thread (its `ReadinessLoop`): reading a connection pauses while
/// too many of its requests wait and resumes when they are answered, and a paused
/// connection holds up no other.
@Suite struct SocketServerReadinessTests {
    @Test func aBurstPastThePendingLimitPausesReadingResumesAndKeepsOrder() throws {
        let running = try RunningServer(
            limits: ServerLimits(maxPendingRequests: 4), handler: TestHandler(reloadDelay: 0.05))
        defer { running.shutDown() }
        let client = try running.client()
        let other = try running.client()
        // Every 40th request is a slow `reload`: the 3 lookups behind it fill the limit and
        // reading stops until it is answered, 8 times over.
        var burst = ""
        for id in 1...320 {
            burst += id % 40 == 1 ? #"{"op":"reload","id":\#(id)}"# : #"{"op":"lookup","key":"k\#(id)","id":\#(id)}"#
            burst += "\n"
        }
        #expect(client.send(burst))
        other.send(#"{"op":"lookup","key":"other","id":1}"# + "\n")
        #expect(
            try other.readLine() == #"{"id":1,"ok":true,"value":"«other»","found":true,"lang":"en","generation":1}"#)
        for id in 1...320 {
            guard case .reply(let replyID, let reply) = try client.readServerMessage() else {
                Issue.record("event instead of reply")
                return
            }
            #expect(replyID == .number(Int64(id)))
            if id % 40 == 1 {
                #expect(reply == .fields(["generation": 2]))
            } else {
                #expect(
                    reply == .lookup(WireLookupResult(value: "«k\(id)»", found: true, language: "en", generation: 1)))
            }
        }
    }
}
