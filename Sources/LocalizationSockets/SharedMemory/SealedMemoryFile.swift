import CSharedMemory
import Glibc

/// Bytes in an anonymous memory file (`memfd`) that nobody can change any more: written
/// once, then sealed against writes, shrinking, growing and further seals.
///
/// Another process that receives ``descriptor`` (``DescriptorPassing``) maps the same pages
/// read-only with ``SealedMemoryMapping``, which checks the seals first: the memory is shared,
/// not copied, and no writer can change it under a reader. The file lives until every
/// descriptor of it and every mapping is gone, so the writer may drop its value once sent.
///
/// ``descriptor`` is read-only (`O_RDONLY`), and the file's mode is `0444`: a reader it is
/// sent to cannot even try to write (`write` fails with `EBADF`, a writable mapping with
/// `EACCES`), nor reopen it for writing through `/proc/self/fd` (`EACCES`, except to root). The
/// seals are what guarantee the bytes; this keeps a reader's mistakes from reaching them.
///
/// ```swift
/// let file = try SealedMemoryFile(name: "l10nd-slab", contents: segments)
/// _ = try DescriptorPassing.send(announcement, attaching: file.descriptor, over: client)
/// ```
package struct SealedMemoryFile: ~Copyable {
    /// The memory file, sealed and opened read-only; send it to readers, who receive their own
    /// descriptor (read-only as well).
    package let descriptor: FileDescriptor
    /// Its size in bytes, which the seals fix; readers are told it and check it.
    package let size: Int

    /// Creates a memory file of `size` bytes, lets `fill` write them through a temporary
    /// writable mapping, and seals it.
    ///
    /// `name` shows in `/proc/PID/fd` and `/proc/PID/maps` as `/memfd:NAME`, for people.
    package init(name: String, size: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) throws(SocketError) {
        precondition(size >= 0, "a memory file cannot have \(size) bytes")
        let descriptor = try FileDescriptor(systemCall: "memfd_create(\(name))") { l10nd_memfd_create(name) }
        try SystemCall.run("ftruncate") { ftruncate(descriptor.rawValue, off_t(size)) }
        if size > 0 {
            let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, 0)
            guard let address, address != MAP_FAILED else { throw SystemCall.error("mmap", errno: errno) }
            fill(UnsafeMutableRawBufferPointer(start: address, count: size))
            // F_SEAL_WRITE fails with EBUSY while a writable shared mapping exists.
            munmap(address, size)
        }
        // Adding seals needs a writable descriptor: so the read-only one is opened only now.
        try SystemCall.run("fcntl(F_ADD_SEALS)") { l10nd_add_seals(descriptor.rawValue, l10nd_immutable_seals) }
        try SystemCall.run("fchmod") { fchmod(descriptor.rawValue, 0o444) }
        self.descriptor = try Self.readOnly(descriptor)
        self.size = size
    }

    /// A read-only descriptor of the file `writable` opens, which it closes: a new open file
    /// (not a `dup`, whose access mode would be the same), reached through `/proc/self/fd`.
    private static func readOnly(_ writable: consuming FileDescriptor) throws(SocketError) -> FileDescriptor {
        let path = "/proc/self/fd/\(writable.rawValue)"
        return try FileDescriptor(systemCall: "open(\(path), O_RDONLY)") { open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// Creates a sealed memory file holding a copy of `contents`.
    package init(name: String, contents: [UInt8]) throws(SocketError) {
        try self.init(name: name, size: contents.count) { target in target.copyBytes(from: contents) }
    }
}
