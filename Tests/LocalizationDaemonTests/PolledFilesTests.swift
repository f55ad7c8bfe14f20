import Foundation
import Glibc
import TestSupport
import Testing

@testable import LocalizationDaemon

/// ``PolledFiles`` on real files: which files it keeps, the names an inode brings with it,
/// and what a poll finds. The daemon's side, with real inotify and a bind mount:
/// `EndToEndTests.UnreportedEditTests`.
@Suite struct PolledFilesTests {
    func rewrite(_ path: String, _ text: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test func aFileWithOneNameIsNotPolled() throws {
        let root = try TemporaryDirectory()
        let file = try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        var polled = PolledFiles()
        #expect(polled.note(file) == [])
        #expect(polled.isEmpty)
    }

    @Test func everyNameOfASharedInodeComesWithTheOneReported() throws {
        let root = try TemporaryDirectory()
        let english = try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let french = try root.makeDirectory("fr.lproj") + "/Localizable.strings"
        try #require(link(english, french) == 0)
        var polled = PolledFiles()
        _ = polled.note(english)
        #expect(polled.note(french) == [english])
        #expect(polled.note(english) == [french])
        #expect(polled.count == 2)

        // Unlinked: one name left, which is polled no more once it is looked at again.
        try #require(unlink(french) == 0)
        #expect(polled.note(french) == [])
        #expect(polled.note(english) == [])
        #expect(polled.isEmpty)
    }

    @Test func aSweepFindsALinkMadeOutsideAndPollsTheFileFromThen() throws {
        let root = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let file = try root.write("\"k\" = \"v\";\n", to: "zz.lproj/T.strings")
        var polled = PolledFiles()
        #expect(polled.note(file) == [])
        #expect(polled.sweep() == [])
        #expect(polled.isEmpty)

        // No event reports this link; the sweep finds it, reports the file, and polls it.
        let elsewhere = outside.path + "/T.strings"
        try #require(link(file, elsewhere) == 0)
        #expect(polled.sweep() == [file])
        #expect(polled.count == 1)
        #expect(polled.sweep() == [])
        try rewrite(elsewhere, "\"k\" = \"edited elsewhere\";\n")
        #expect(polled.poll { _ in false } == [file])

        // 2 → 1 → 2: back to one link, the poll reports it and it is swept again.
        try #require(unlink(elsewhere) == 0)
        #expect(polled.poll { _ in false } == [file])
        #expect(polled.isEmpty)
        try #require(link(file, elsewhere) == 0)
        #expect(polled.sweep() == [file])
        #expect(polled.count == 1)

        // A directory forgotten takes its files out of the sweep.
        try #require(unlink(elsewhere) == 0)
        _ = polled.poll { _ in false }
        polled.forget(atOrBelow: root.path + "/zz.lproj")
        #expect(polled.hasNothingToSweep)
    }

    @Test func aPollFindsAnEditMadeThroughANameNotPolled() throws {
        let root = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let english = try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let elsewhere = outside.path + "/Localizable.strings"
        try #require(link(english, elsewhere) == 0)
        var polled = PolledFiles()
        _ = polled.note(english)
        #expect(polled.poll { _ in false } == [])

        try rewrite(elsewhere, "\"k\" = \"edited elsewhere\";\n")
        // Held while a name of the inode is being written: its close is reported anyway.
        #expect(polled.poll { $0 == english } == [])
        #expect(polled.poll { _ in false } == [english])
        #expect(polled.poll { _ in false } == [])

        // Gone: reported once, and polled no more.
        try #require(unlink(english) == 0)
        #expect(polled.poll { _ in false } == [english])
        #expect(polled.isEmpty)
    }

    @Test func aFileMountedOnItsOwnIsPolledByItsMountPoint() throws {
        let root = try TemporaryDirectory()
        let file = try root.write("\"k\" = \"v\";\n", to: "xx.lproj/Localizable.strings")
        let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        var polled = PolledFiles()
        polled.updateMounts(["/", "/proc", real])
        #expect(polled.note(file) == [])
        #expect(polled.count == 1)
        polled.updateMounts(["/", "/proc"])
        _ = polled.note(file)
        #expect(polled.isEmpty)
    }
}
