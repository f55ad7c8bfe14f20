import CSharedMemory
import Glibc

/// A read-only view of a sealed memory file (``SealedMemoryFile``), most often one received
/// from another process; unmapped exactly once, when the last reference goes away.
///
/// Before it maps anything it checks that the file carries all four seals (write, shrink,
/// grow, seal) and has the size the sender announced: a descriptor that anyone could still
/// write, or cut short (a read past its end would be `SIGBUS`), is refused. A reader keeps the
/// mapping alive for as long as it reads, so a new generation can replace it while lookups
/// still use the old one.
///
/// ```swift
/// let mapping = try SealedMemoryMapping(verifying: received, size: announcedSize)
/// let magic = mapping.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
/// ```
package final class SealedMemoryMapping: @unchecked Sendable {
    // Sendable because the bytes can never change: the mapping is read-only and the file is
    // sealed against every writer, so any thread may read them at once.

    /// The number of bytes mapped.
    package let size: Int
    private let address: UnsafeRawPointer?

    /// Checks that `descriptor` is a memory file sealed for good and exactly `size` bytes long,
    /// then maps it read-only; the descriptor may be closed afterwards.
    ///
    /// Throws ``SocketError/Code/unsealedMemory`` for a descriptor that fails a check.
    package init(verifying descriptor: borrowing FileDescriptor, size: Int) throws(SocketError) {
        let seals = l10nd_get_seals(descriptor.rawValue)
        guard seals != -1 else {
            let code = errno
            throw SocketError(
                code: .unsealedMemory, errno: code,
                message: "the received descriptor is not a sealable memory file: \(String(cString: strerror(code)))")
        }
        guard seals & l10nd_immutable_seals == l10nd_immutable_seals else {
            throw SocketError(
                code: .unsealedMemory,
                message:
                    "the received memory file lacks seals (has \(Self.names(of: seals)); needs write, shrink, grow, seal)"
            )
        }
        // Read the size only now: the shrink and grow seals keep it from changing after this.
        var status = stat()
        try SystemCall.run("fstat") { fstat(descriptor.rawValue, &status) }
        guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) == size else {
            throw SocketError(
                code: .unsealedMemory,
                message: "the received memory file holds \(status.st_size) bytes, not the \(size) announced")
        }
        if size > 0 {
            let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor.rawValue, 0)
            guard let mapped, mapped != MAP_FAILED else { throw SystemCall.error("mmap", errno: errno) }
            address = UnsafeRawPointer(mapped)
        } else {
            address = nil
        }
        self.size = size
    }

    deinit {
        if let address { munmap(UnsafeMutableRawPointer(mutating: address), size) }
    }

    /// Calls `body` with the mapped bytes, which stay mapped until it returns; the pointer
    /// must not escape it.
    package func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(self) { () throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(start: address, count: size))
        }
    }

    /// The seals in `seals`, named for an error message.
    private static func names(of seals: Int32) -> String {
        let named: [(Int32, String)] = [
            (L10ND_F_SEAL_WRITE, "write"), (L10ND_F_SEAL_SHRINK, "shrink"), (L10ND_F_SEAL_GROW, "grow"),
            (L10ND_F_SEAL_SEAL, "seal"),
        ]
        let present = named.filter { seals & $0.0 != 0 }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: ", ")
    }
}
