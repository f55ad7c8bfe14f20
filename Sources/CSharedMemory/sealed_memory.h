// memfd_create and file seals, which Swift's Glibc module leaves out: glibc declares them
// only under _GNU_SOURCE, and defining that here would give structs such as fd_set other
// field names than Glibc's module has, which clang refuses. So this header takes the call
// number from <sys/syscall.h>, the flags from the kernel's <linux/memfd.h>, and spells the
// seal constants of the kernel's <linux/fcntl.h> (a stable ABI since Linux 3.17) itself.
// The daemon hands its segments' slabs to clients as sealed memfds
// (Sources/LocalizationSockets/SealedMemoryFile.swift). Nothing is linked.
#ifndef L10ND_SEALED_MEMORY_H
#define L10ND_SEALED_MEMORY_H

#include <fcntl.h>
#include <linux/memfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#define L10ND_F_ADD_SEALS 1033 /* F_LINUX_SPECIFIC_BASE + 9 */
#define L10ND_F_GET_SEALS 1034 /* F_LINUX_SPECIFIC_BASE + 10 */
#define L10ND_F_SEAL_SEAL 0x0001
#define L10ND_F_SEAL_SHRINK 0x0002
#define L10ND_F_SEAL_GROW 0x0004
#define L10ND_F_SEAL_WRITE 0x0008

/// The seals that make a memory file immutable for good: no write, no resize, no new seals
/// (and seals are never removed). A reader trusts a file only with all four.
/// (A constant, not a macro: Swift imports no macro built from other macros.)
static const int l10nd_immutable_seals = L10ND_F_SEAL_WRITE | L10ND_F_SEAL_SHRINK | L10ND_F_SEAL_GROW | L10ND_F_SEAL_SEAL;

/// An anonymous memory file, close-on-exec, that accepts seals; -1 and errno on failure.
static inline int l10nd_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

/// Adds `seals` to `descriptor` (fcntl F_ADD_SEALS); -1 and errno on failure.
static inline int l10nd_add_seals(int descriptor, int seals) {
    return fcntl(descriptor, L10ND_F_ADD_SEALS, seals);
}

/// The seals set on `descriptor` (fcntl F_GET_SEALS); -1 and errno (EINVAL: the file is not
/// one that takes seals, such as a pipe or a file on disk).
static inline int l10nd_get_seals(int descriptor) {
    return fcntl(descriptor, L10ND_F_GET_SEALS);
}

#endif
