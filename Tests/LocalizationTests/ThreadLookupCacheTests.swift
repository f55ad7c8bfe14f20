import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// The per-thread cache behind `localized` in mapped mode: the place a thread read last
/// answers only for the same localizer, epoch, languages and table, and an event reaches
/// every thread's next call.
@Suite struct ThreadLookupCacheTests {
    @Test func aResetForgetsThePlace() {
        var cache = ThreadLookupCache()
        cache.reset(owner: 7, epoch: 3, route: .keys)
        #expect(cache.lastFirst == nil && cache.mappedDaemon == nil)
        #expect(!cache.lastTableIs(.one("ja"), nil, owner: 7, epoch: 3), "no table read yet")
    }

    /// `l10nd` serving `ja` and `en` `Localizable` tables and a `ja` `Settings` table, and a
    /// localizer asking it in mapped mode.
    struct MappedDaemon {
        static let files = [
            "ja.lproj/Localizable.strings": #""k" = "old"; "多言語化" = "多言語化";"#,
            "ja.lproj/Settings.strings": #""title" = "設定";"#,
            "en.lproj/Localizable.strings": #""k" = "English"; "多言語化" = "Multilingualization";"#,
        ]
        let resources: TemporaryDirectory
        let daemon: DaemonProcess
        let localizer = Localizer(environment: [:], log: { _ in })
        var japanese: String { resources.path + "/ja.lproj/Localizable.strings" }

        init() throws {
            resources = try TemporaryDirectory()
            for (path, text) in Self.files { try resources.write(text, to: path) }
            daemon = try DaemonProcess(resources: [resources.path])
            localizer.useDaemon(socketPath: daemon.socketPath, mode: .mapped)
        }
    }

    @Test func oneThreadSwitchingTablesGetsEachTablesValues() throws {
        let setup = try MappedDaemon()
        let localizer = setup.localizer
        for _ in 0..<3 {
            #expect(localizer.value("多言語化", languages: .one("ja"), table: nil) == "多言語化")
            #expect(localizer.value("多言語化", languages: .one("en"), table: nil) == "Multilingualization")
            #expect(localizer.value("k", languages: .many(["fr", "en"]), table: nil) == "English")
            #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old")
            #expect(localizer.value("title", languages: .one("ja"), table: "Settings") == "設定")
            #expect(localizer.value("k", languages: .one("ja"), table: "Settings") == "k", "not in Settings")
            #expect(localizer.value("title", languages: .one("ja"), table: nil) == "title", "not in Localizable")
            #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old", "a hit after a miss")
        }
    }

    @Test func oneThreadAlternatingLocalizersGetsEachOnesValues() throws {
        let setup = try MappedDaemon()
        let daemon = setup.localizer
        let files = try TemporaryDirectory()
        try files.write(#""k" = "from the files";"#, to: "ja.lproj/Localizable.strings")
        let embedded = Localizer(environment: [:], log: { _ in })
        embedded.useResources(at: [files.path])
        for _ in 0..<3 {
            #expect(daemon.value("k", languages: .one("ja"), table: nil) == "old")
            #expect(embedded.value("k", languages: .one("ja"), table: nil) == "from the files")
        }
    }

    @Test func anEditReachesEveryThreadsNextCallAfterTheCallback() throws {
        let setup = try MappedDaemon()
        let localizer = setup.localizer
        let threads = 4
        let started = Atomic(0)
        let fired = Atomic(false)
        let observation = localizer.onChange { _ in fired.store(true, ordering: .sequentiallyConsistent) }
        defer { observation.cancel() }
        let wrong = Mutex<[String]>([])
        let japanese = setup.japanese
        let edit = Thread {
            while started.load(ordering: .sequentiallyConsistent) < threads { usleep(1_000) }
            try? "\"k\" = \"new\";\n".write(toFile: japanese, atomically: true, encoding: .utf8)
        }
        edit.start()
        // Threads of their own: a pool narrower than `threads` would run some readers only
        // after the others gave up waiting for the edit.
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                defer { finished.leave() }
                // Every thread reads the table before the edit, so each has it as its last table.
                let before = localizer.value("k", languages: .one("ja"), table: nil)
                if before != "old" { wrong.withLock { $0.append("before the edit: \(before)") } }
                started.add(1, ordering: .sequentiallyConsistent)
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    let afterCallback = fired.load(ordering: .sequentiallyConsistent)
                    let value = localizer.value("k", languages: .one("ja"), table: nil)
                    if afterCallback {
                        if value != "new" { wrong.withLock { $0.append("after the callback: \(value)") } }
                        return
                    }
                    if value != "old" && value != "new" { wrong.withLock { $0.append("during the edit: \(value)") } }
                }
                wrong.withLock { $0.append("no callback within 10 s") }
            }.start()
        }
        finished.wait()
        #expect(wrong.withLock { $0 } == [])
    }
}
