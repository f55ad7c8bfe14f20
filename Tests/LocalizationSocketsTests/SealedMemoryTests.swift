import CSharedMemory
import Foundation
import Glibc
import LocalizationSockets
import TestSupport
import Testing

/// Sealed memory files in one process: what the seals forbid, and which descriptors a
/// reader refuses to map.
@Suite struct SealedMemoryTests {
    static let table = Array("compiled tables, generation 7".utf8)

    @Test func aSealedFileMapsReadOnlyWithItsBytes() throws {
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Self.table)
        #expect(file.size == Self.table.count)
        #expect(l10nd_get_seals(file.descriptor.rawValue) == l10nd_immutable_seals)
        let mapping = try SealedMemoryMapping(verifying: file.descriptor, size: file.size)
        #expect(mapping.withUnsafeBytes { Array($0) } == Self.table)
    }

    @Test func aMappingOutlivesTheFileItCameFrom() throws {
        let mapping = try Self.mappingOfADroppedFile()
        #expect(mapping.withUnsafeBytes { Array($0) } == Self.table)
    }

    @Test func theDescriptorHandedOutIsReadOnly() throws {
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Self.table)
        let descriptor = file.descriptor.rawValue
        #expect(fcntl(descriptor, F_GETFL) & O_ACCMODE == O_RDONLY)
        #expect(l10nd_get_seals(descriptor) == l10nd_immutable_seals)
        var status = stat()
        #expect(fstat(descriptor, &status) == 0 && status.st_mode & 0o777 == 0o444)
        // A reader cannot even try: these fail for want of write access, before any seal.
        #expect(Self.errno { pwrite(descriptor, "x", 1, 0) } == EBADF)
        #expect(Self.errno { ftruncate(descriptor, 0) } == EINVAL)
        let writable = mmap(nil, file.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        #expect(writable == MAP_FAILED && Glibc.errno == EACCES)
        let mapping = try SealedMemoryMapping(verifying: file.descriptor, size: file.size)
        #expect(mapping.withUnsafeBytes { Array($0) } == Self.table)
    }

    @Test func theSealsRefuseEveryChange() throws {
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Self.table)
        // The descriptor handed out is read-only (above); the seals must hold against a writable
        // one too, which only root can still open, through /proc (the file's mode is 0444).
        let reopened = open("/proc/self/fd/\(file.descriptor.rawValue)", O_RDWR | O_CLOEXEC)
        guard reopened >= 0 else {
            #expect(Glibc.errno == EACCES, "a writable descriptor failed otherwise than for want of permission")
            return
        }
        defer { close(reopened) }
        let descriptor = reopened
        #expect(Self.errno { pwrite(descriptor, "x", 1, 0) } == EPERM)
        #expect(Self.errno { ftruncate(descriptor, 0) } == EPERM)
        #expect(Self.errno { ftruncate(descriptor, 1 << 20) } == EPERM)
        #expect(Self.errno { l10nd_add_seals(descriptor, L10ND_F_SEAL_WRITE) } == EPERM)
        let writable = mmap(nil, file.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        #expect(writable == MAP_FAILED && Glibc.errno == EPERM)
    }

    @Test func anEmptyFileMapsToNoBytes() throws {
        let file = try SealedMemoryFile(name: "l10nd-test", size: 0) { _ in }
        let mapping = try SealedMemoryMapping(verifying: file.descriptor, size: 0)
        #expect(mapping.withUnsafeBytes { $0.count } == 0)
    }

    @Test func aMemoryFileStillWritableIsRefused() throws {
        // Sealed against resizing but not writing: what an impostor daemon could send.
        let descriptor = try Self.memoryFile(seals: L10ND_F_SEAL_SHRINK | L10ND_F_SEAL_GROW)
        let error = try #require(throws: SocketError.self) {
            _ = try SealedMemoryMapping(verifying: descriptor, size: Self.table.count)
        }
        #expect(error.code == .unsealedMemory)
        #expect(error.message.contains("has shrink, grow"))
    }

    @Test func aMemoryFileWithoutSealsIsRefused() throws {
        let descriptor = try Self.memoryFile(seals: 0)
        let error = try #require(throws: SocketError.self) {
            _ = try SealedMemoryMapping(verifying: descriptor, size: Self.table.count)
        }
        #expect(error.code == .unsealedMemory)
        #expect(error.message.contains("has none"))
    }

    @Test func aSizeOtherThanAnnouncedIsRefused() throws {
        let file = try SealedMemoryFile(name: "l10nd-test", contents: Self.table)
        for announced in [0, file.size - 1, file.size + 1, 1 << 30] {
            let error = try #require(throws: SocketError.self) {
                _ = try SealedMemoryMapping(verifying: file.descriptor, size: announced)
            }
            #expect(error.code == .unsealedMemory)
        }
    }

    @Test func aFileOnDiskIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "shm-sealed")
        let path = try directory.write("compiled tables", to: "tables.bin")
        let descriptor = try FileDescriptor(systemCall: "open") { open(path, O_RDONLY | O_CLOEXEC) }
        let error = try #require(throws: SocketError.self) {
            _ = try SealedMemoryMapping(verifying: descriptor, size: 15)
        }
        #expect(error.code == .unsealedMemory)
        #expect(error.errno == EINVAL)
    }

    @Test func aPipeIsRefused() throws {
        let pipe = try NonBlockingPipe()
        let error = try #require(throws: SocketError.self) {
            _ = try SealedMemoryMapping(verifying: pipe.reader, size: 1)
        }
        #expect(error.code == .unsealedMemory)
    }

    /// A mapping of a sealed file holding ``table`` whose only descriptor is closed by now.
    static func mappingOfADroppedFile() throws -> SealedMemoryMapping {
        let file = try SealedMemoryFile(name: "l10nd-test", contents: table)
        return try SealedMemoryMapping(verifying: file.descriptor, size: file.size)
    }

    /// A memory file holding ``table`` with only `seals` added.
    static func memoryFile(seals: Int32) throws -> FileDescriptor {
        let descriptor = try FileDescriptor(systemCall: "memfd_create") { l10nd_memfd_create("l10nd-test-unsealed") }
        try #require(table.withUnsafeBytes { write(descriptor.rawValue, $0.baseAddress, $0.count) } == table.count)
        if seals != 0 { try #require(l10nd_add_seals(descriptor.rawValue, seals) == 0) }
        return descriptor
    }

    /// The C error of `call`, which must fail; 0 when it succeeded.
    static func errno<Result: FixedWidthInteger>(_ call: () -> Result) -> Int32 {
        call() == -1 ? Glibc.errno : 0
    }
}
