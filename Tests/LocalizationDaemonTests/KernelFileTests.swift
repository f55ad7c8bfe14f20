import Foundation
import TestSupport
import Testing

@testable import LocalizationDaemon

/// `KernelFile`: files the kernel writes as they are read, read through one fixed buffer,
/// so that reading them when memory is short allocates nothing large.
@Suite struct KernelFileTests {
    /// Every line, whatever falls across a read: the last without a newline too.
    @Test(arguments: [1, 3, 7, KernelFile.capacity])
    func linesAcrossReadsComeWhole(chunk: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = ["VmSize:\t  1234 kB", "", "a longer line with spaces", "last"]
        let path = try directory.write(lines.joined(separator: "\n"), to: "status")
        var read: [String] = []
        #expect(KernelFile.forEachLine(of: path, chunk: chunk) { read.append(String(decoding: $0, as: UTF8.self)) })
        #expect(read == lines)
        #expect(KernelFile.number(in: path, after: "VmSize:") == 1234)
        #expect(KernelFile.number(in: path, after: "VmData:") == nil)
    }

    /// A line longer than the buffer, or no file, is a failed read, not a short one.
    @Test func aLineLongerThanTheBufferOrNoFileFailsTheRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("first\n" + String(repeating: "x", count: KernelFile.capacity + 1), to: "long")
        var read: [String] = []
        #expect(!KernelFile.forEachLine(of: path) { read.append(String(decoding: $0, as: UTF8.self)) })
        #expect(read == ["first"])
        #expect(!KernelFile.forEachLine(of: directory.path + "/missing") { _ in })
    }

    /// The mount table and the memory figures read this way are what the kernel says.
    @Test func theMountTableAndTheProcessStatusReadAsTheKernelWritesThem() throws {
        let text = try String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
        let expected = Set(text.split(separator: "\n").map { MountTable.decoded($0.split(separator: " ")[4].utf8) })
        let entries = try #require(MountTable.entries())
        #expect(Set(entries.map(\.path)) == expected)
        #expect(entries.contains { $0.path == "/" })
        #expect((KernelFile.number(in: "/proc/self/status", after: "VmData:") ?? 0) > 0)
    }
}
