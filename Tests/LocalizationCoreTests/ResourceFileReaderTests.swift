import Foundation
import Glibc
import LocalizationCore
import TestSupport
import Testing

/// Real files in a temp directory: what `ResourceFileReader` reads, and what it refuses
/// with a reason a translator can act on.
@Suite struct ResourceFileReaderTests {
    @Test func readsAFileWhole() throws {
        let directory = try TemporaryDirectory()
        let text = String(repeating: "\"キー\" = \"値\";\n", count: 10_000)
        let path = try directory.write(text, to: "ja.lproj/Localizable.strings")
        #expect(ResourceFileReader.read(path) == .bytes(Array(text.utf8)))
        let empty = try directory.write("", to: "ja.lproj/Empty.strings")
        #expect(ResourceFileReader.read(empty) == .bytes([]))
    }

    @Test func aMissingFileIsGoneButADanglingLinkIsAProblem() throws {
        let directory = try TemporaryDirectory()
        #expect(ResourceFileReader.read(directory.path + "/none.strings") == .gone)
        let link = directory.path + "/dangling.strings"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/nowhere")
        #expect(ResourceFileReader.read(link) == .failed(reason: "No such file or directory"))
    }

    @Test func directoriesAndFIFOsAreRefusedWithoutWaiting() throws {
        let directory = try TemporaryDirectory()
        let folder = try directory.makeDirectory("ja.lproj/Localizable.strings")
        #expect(ResourceFileReader.read(folder) == .failed(reason: "it is a directory, not a file"))
        // A FIFO nobody writes to would block a plain open() forever.
        let fifo = directory.path + "/Menu.strings"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(ResourceFileReader.read(fifo) == .failed(reason: "it is not a regular file"))
    }

    @Test func aFileOverTheLimitIsRefusedAndNamesTheLimit() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(String(repeating: "x", count: 3 << 20), to: "de.lproj/Big.strings")
        guard case .failed(let reason) = ResourceFileReader.read(path, maximumBytes: 1 << 20) else {
            Issue.record("a 3 MiB file was read under a 1 MiB limit")
            return
        }
        #expect(reason == "it is 3 MiB, larger than the 1 MiB limit for one resource file")
        #expect(ResourceFileReader.read(path, maximumBytes: 3 << 20) == .bytes(Array(repeating: 0x78, count: 3 << 20)))
        let file = try #require(ResourceFile(path: path))
        let error = try #require(throws: ResourceParseError.self) {
            try ResourceScanner.load(file, maximumBytes: 1 << 20)
        }
        #expect(error.description == "\(path):1:1: cannot be read: \(reason)")
    }
}
