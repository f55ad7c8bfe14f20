import Foundation
import LocalizationCore
import TestSupport
import Testing

@testable import Localization

/// A mapped client over many saves (chaos round 3: private memory grew 29–30 KB per save,
/// with no plateau): each save of another table adds a slab in the daemon, the daemon gathers
/// them past 16, and the client maps what the newest generation names and nothing more, so its
/// slabs and its mappings stay bounded.
@Suite struct MappedSlabBoundTests {
    /// The lines of `/proc/self/maps` naming `daemon`'s slabs: the client's mappings of them.
    static func mappings(of daemon: DaemonProcess) -> Int {
        let maps = MappedModeTests.memoryMap()
        return maps.split(separator: "\n").filter {
            $0.contains("/memfd:l10nd-slab-\(daemon.process.processIdentifier)-")
        }.count
    }

    @Test func twoHundredSavesLeaveTheClientsSlabsAndMemoryBounded() throws {
        let resources = try TemporaryDirectory()
        let tables = 24
        var paths: [String] = []
        for table in 0..<tables {
            let keys = (0..<50).map { "\"k\($0)\" = \"T\(table) v0 \($0)\";" }.joined(separator: "\n")
            paths.append(try resources.write(keys, to: "ja.lproj/T\(table).strings"))
        }
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = MappedModeTests.localizer(daemon, .mapped)
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                localizer.value("k1", languages: .one("ja"), table: "T0") == "T0 v0 1"
                    && MappedModeTests.mappedGeneration(localizer) == 1
            }, "never mapped")
        for save in 1...200 {
            let table = save % tables
            let keys = (0..<50).map { "\"k\($0)\" = \"T\(table) v\(save) \($0)\";" }.joined(separator: "\n")
            try keys.write(toFile: paths[table], atomically: true, encoding: .utf8)
            let expected = "T\(table) v\(save) 1"
            // Each save seen in place (a `localized` on this thread), from the newest generation.
            let seen = ClientDaemonTests.wait(seconds: 10) {
                localizer.value("k1", languages: .one("ja"), table: "T\(table)") == expected
                    && localizer.daemon?.mapped.current.map { $0.set.segment(language: "ja", table: "T\(table)") }
                        != nil
                    && localizer.lookupWithSource("k1", languages: ["ja"], table: "T\(table)").result.value == expected
            }
            #expect(seen, "save \(save) was never seen")
            if !seen { break }
            let slabs = localizer.daemon?.mapped.current?.set.slabs.count ?? 0
            #expect(slabs <= SegmentSet.maxSlabs, "save \(save): the mapped generation spans \(slabs) slabs")
        }
        // Every table's last value, from the mapped segments.
        for table in 0..<tables {
            let last = (1...200).last { $0 % tables == table }!
            #expect(localizer.value("k7", languages: .one("ja"), table: "T\(table)") == "T\(table) v\(last) 7")
        }
        // Mapped: the newest generation's slabs, and at most those a thread or the last known
        // generation still holds — far fewer than one per save. (The process's private memory
        // is not asserted: this test process runs other suites at once, whose allocations it
        // cannot tell from the client's.)
        #expect(
            ClientDaemonTests.wait(seconds: 5) { Self.mappings(of: daemon) <= 2 * SegmentSet.maxSlabs + 2 },
            "\(Self.mappings(of: daemon)) slabs mapped after 200 saves")
    }
}
