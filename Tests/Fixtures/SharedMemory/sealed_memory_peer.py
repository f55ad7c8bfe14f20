#!/usr/bin/env python3
"""The other process in l10nd's sealed-memory tests (Tests/LocalizationSocketsTests/SealedMemoryProcessTests.swift).

    sealed_memory_peer.py receive SOCKET_PATH
        Connects, receives bytes with one descriptor (SCM_RIGHTS), and prints one line per
        check a client in mapped mode relies on: the seals, the descriptor's access mode, the
        size, the content read through a read-only mapping, and that writing, resizing, mapping
        writable and adding seals are all refused. Exit 0 once every line is printed.

    sealed_memory_peer.py send-unsealed SOCKET_PATH
        Connects and sends b"unsealed" with a memory file sealed against resizing but not
        against writes, keeping a writable mapping open, as an impostor daemon would; then
        waits for the other side to close the connection.
"""
import errno
import fcntl
import mmap
import os
import socket
import sys


def refused(action):
    """'EPERM' (or the error's name) when `action` fails, 'allowed' when it succeeds."""
    try:
        action()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    return "allowed"


def receive(connection):
    data, descriptors, flags, _ = socket.recv_fds(connection, 4096, 4)
    print(f"bytes={data.decode()} descriptors={len(descriptors)} truncated={bool(flags & socket.MSG_CTRUNC)}")
    descriptor = descriptors[0]
    seals = fcntl.fcntl(descriptor, fcntl.F_GET_SEALS)
    wanted = fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL
    print(f"sealed={seals & wanted == wanted}")
    access = fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE
    print("access=" + {os.O_RDONLY: "read-only", os.O_WRONLY: "write-only", os.O_RDWR: "read-write"}[access])
    size = os.fstat(descriptor).st_size
    with mmap.mmap(descriptor, size, mmap.MAP_SHARED, mmap.PROT_READ) as view:
        print(f"size={size} content={view[:].decode()}")
    print("write=" + refused(lambda: os.pwrite(descriptor, b"x", 0)))
    print("shrink=" + refused(lambda: os.ftruncate(descriptor, 0)))
    print("grow=" + refused(lambda: os.ftruncate(descriptor, size + 4096)))
    print("map-writable=" + refused(lambda: mmap.mmap(descriptor, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)))
    print("add-seal=" + refused(lambda: fcntl.fcntl(descriptor, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE)))


def send_unsealed(connection):
    descriptor = os.memfd_create("impostor", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.write(descriptor, b"mutable table")
    writable = mmap.mmap(descriptor, 0, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    fcntl.fcntl(descriptor, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW)
    socket.send_fds(connection, [b"unsealed"], [descriptor])
    connection.recv(1)  # until the other side closes
    writable[0:1] = b"M"  # what an impostor could do to a reader that had trusted it


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(20)
        connection.connect(path)
        {"receive": receive, "send-unsealed": send_unsealed}[mode](connection)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
