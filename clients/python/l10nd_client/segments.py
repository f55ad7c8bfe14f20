"""A reader of l10nd's compiled segments (docs/FORMAT.md, version 3.0), standard library only.

Written from docs/FORMAT.md alone, to show the page is enough; the test suite
(SegmentsPythonTests) checks its answers against the Swift lookup's, and `Client`'s mapped
lookups (mapped.py) answer through it. l10nd_segments.py beside the package is its command line.
"""

import fcntl
import json
import mmap  # imported up front: a lazy import inside a map attempt fails when descriptors run out
import os
import struct
import unicodedata

MAGIC = b"L10NDSEG"
HEADER_LENGTH = 96
ABSENT = 0xFFFFFFFF
NO_ARGUMENT = -2147483648
STAND_IN = 1
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class Damaged(Exception):
    """The buffer is not a whole, undamaged segment of version 3."""


class MapRefused(Exception):
    """The daemon answered `map` with `ok: false` (`code`: `unknown_op` from a daemon older
    than 1.6, `unavailable` when its segments cannot be handed out): ask it per lookup."""

    def __init__(self, code, message):
        super().__init__("map refused: %s: %s" % (code, message))
        self.code = code


def crc32c(data):
    table = crc32c.table
    if table is None:
        table = []
        for byte in range(256):
            crc = byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
            table.append(crc)
        crc32c.table = table
    crc = 0xFFFFFFFF
    for byte in data:
        crc = (crc >> 8) ^ table[(crc ^ byte) & 0xFF]
    return crc ^ 0xFFFFFFFF


crc32c.table = None


def key_hash(data):
    m = 0x9E3779B97F4A7C15
    mask = 0xFFFFFFFFFFFFFFFF
    h = 0xCBF29CE484222325 ^ len(data)
    for start in range(0, len(data), 8):
        (word,) = struct.unpack("<Q", data[start:start + 8].ljust(8, b"\0"))
        h = ((h ^ word) * m) & mask
        h ^= h >> 29
    h = (h * m) & mask
    return h ^ (h >> 32)


class Segment:
    """One (language, table) segment, checked as FORMAT.md says a reader must."""

    def __init__(self, data, verify_checksums=True):
        if len(data) < HEADER_LENGTH:
            raise Damaged("shorter than the header")
        if data[0:8] != MAGIC:
            raise Damaged("bad magic")
        major, minor, header_length, total = struct.unpack_from("<HHIQ", data, 8)
        if major != 3:
            raise Damaged("version %d.%d" % (major, minor))
        if total > len(data):
            raise Damaged("truncated")
        self.data = data = data[:total]
        if not HEADER_LENGTH <= header_length <= total or header_length % 8:
            raise Damaged("header length")
        header_crc, body_crc, self.key_count, self.slot_count = struct.unpack_from("<IIII", data, 24)
        if crc32c(bytes(data[0:24]) + b"\0\0\0\0" + bytes(data[28:header_length])) != header_crc:
            raise Damaged("header checksum")
        if verify_checksums and crc32c(data[header_length:]) != body_crc:
            raise Damaged("body checksum")
        self.header_length = header_length
        count, keys = self.slot_count, self.key_count
        if count == 0 or count & (count - 1) or keys > count:
            raise Damaged("slot count")
        self.strings, self.strings_length, self.slots, self.entries = struct.unpack_from("<QQQQ", data, 40)
        self.check_range(self.strings, self.strings_length)
        self.check_range(self.slots, 16 * count)
        self.check_range(self.entries, 24 * keys)
        self.language = self.string(72)
        self.table = self.string(80)

    def check_range(self, offset, length):
        if offset < self.header_length or offset > len(self.data) or length > len(self.data) - offset:
            raise Damaged("offset %d" % offset)
        return offset

    def string_bytes(self, at):
        offset, length = struct.unpack_from("<II", self.data, at)
        if offset > self.strings_length or length > self.strings_length - offset:
            raise Damaged("string reference at %d" % at)
        return self.data[self.strings + offset:self.strings + offset + length]

    def string(self, at):
        # bytes(): the segment may be a memoryview of a mapped slab (map_segments).
        return bytes(self.string_bytes(at)).decode("utf-8", "replace")

    def optional_string(self, at):
        if struct.unpack_from("<II", self.data, at) == (ABSENT, ABSENT):
            return None
        return self.string(at)

    def find(self, key):
        """The entry number of key (a str), or None when the segment lacks it."""
        encoded = key.encode("utf-8")
        number = self.probe(encoded)
        if number is None and not encoded.isascii():
            # The index holds each key's canonical composition (NFC).
            composed = unicodedata.normalize("NFC", key).encode("utf-8")
            if composed != encoded:
                number = self.probe(composed)
        return number

    def probe(self, key):
        h = key_hash(key)
        mask = self.slot_count - 1
        slot = h & mask
        for _ in range(self.slot_count):
            at = self.slots + 16 * slot
            (word,) = struct.unpack_from("<Q", self.data, at)
            number = word >> 32
            if number == 0:
                return None
            if word & 0xFFFFFFFF == h >> 32:
                if number > self.key_count:
                    raise Damaged("entry number")
                if self.string_bytes(at + 8) == key:
                    return number - 1
            slot = (slot + 1) & mask
        return None

    def entry(self, number):
        """Entry number's key, value, plural block (or None) and stand-in mark."""
        at = self.entries + 24 * number
        plural, flags = struct.unpack_from("<II", self.data, at + 16)
        return {
            "key": self.string(at),
            "value": self.string(at + 8),
            "plural": self.plural(plural) if plural else None,
            "stand_in": bool(flags & STAND_IN),
        }

    def plural(self, offset):
        self.check_range(offset, 16)
        (count,) = struct.unpack_from("<I", self.data, offset)
        self.check_range(offset, 16 + 72 * count)
        variables = {}
        for index in range(count):
            at = offset + 16 + 72 * index
            (argument,) = struct.unpack_from("<i", self.data, at + 16)
            forms = {}
            for position, category in enumerate(CATEGORIES):
                form = self.optional_string(at + 24 + 8 * position)
                if form is not None:
                    forms[category] = form
            variables[self.string(at)] = {
                "type": self.optional_string(at + 8),
                "arg": None if argument == NO_ARGUMENT else argument,
                "forms": forms,
            }
        return {"format": self.string(offset + 8), "variables": variables}


def lookup(segments, key, chain, table=None):
    """The answer for key along chain (language identifiers, in order) among segments, a
    dict keyed by (language, table): the first language whose segment has the key answers (a
    stand-in too: Xcode compiles it as key = key). None when none does."""
    for language in chain:
        segment = segments.get((language, table or "Localizable"))
        number = segment.find(key) if segment else None
        if number is None:
            continue
        entry = segment.entry(number)
        return {"value": entry["value"], "lang": language, "plural": entry["plural"]}
    return None


F_GET_SEALS = 1034  # F_LINUX_SPECIFIC_BASE + 10
IMMUTABLE_SEALS = 0x1 | 0x2 | 0x4 | 0x8  # seal, shrink, grow, write
MAX_DESCRIPTORS = 253  # SCM_MAX_FD: the most one message carries


def map_segments(socket_path, timeout=10):
    """The daemon's current segments, mapped in place as PROTOCOL.md's `map` says, over a
    connection of its own: sends {"op":"map"}, receives the manifest and the slabs'
    descriptors (SCM_RIGHTS, with the reply's first byte) and maps them (map_manifest).
    Returns (manifest, segments). The client asks `map` on its own connection instead
    (connection.py gives the reply its descriptors); this is for tools and tests."""
    import array
    import socket as sockets

    with sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM) as connection:
        connection.settimeout(timeout)
        connection.connect(socket_path)
        connection.sendall(b'{"op":"map"}\n')
        reply, numbers = b"", []
        try:
            while not reply.endswith(b"\n"):
                data, ancillary, _, _ = connection.recvmsg(1 << 20, sockets.CMSG_SPACE(MAX_DESCRIPTORS * 4))
                if not data:
                    raise Damaged("the daemon closed the connection")
                reply += data
                for level, kind, payload in ancillary:
                    if level == sockets.SOL_SOCKET and kind == sockets.SCM_RIGHTS:
                        received = array.array("i")
                        received.frombytes(payload[: len(payload) - len(payload) % 4])
                        numbers += list(received)
            manifest = json.loads(reply)
        except BaseException:
            for number in numbers:
                os.close(number)
            raise
    return map_manifest(manifest, numbers)


def map_manifest(manifest, numbers):
    """The segments of a `map` reply (a dict) over its slabs' descriptors `numbers`, which
    are closed whatever the outcome: checks each slab's seals and size, maps it read-only and
    opens every segment where the manifest says, checking its language, table and checksum.
    Returns (manifest, segments), segments keyed by (language, table) as lookup() takes them;
    the mappings stay as long as the segments do. Raises MapRefused for `ok: false`, Damaged
    for a slab or segment that is not as announced."""
    try:
        if not manifest.get("ok"):
            error = manifest.get("error") or {}
            raise MapRefused(error.get("code", "unknown"), error.get("message", ""))
        sizes = manifest["slabs"]
        if len(numbers) != len(sizes):
            raise Damaged("%d slabs named, %d descriptors received" % (len(sizes), len(numbers)))
        slabs = []
        for number, size in zip(numbers, sizes):
            if fcntl.fcntl(number, F_GET_SEALS) & IMMUTABLE_SEALS != IMMUTABLE_SEALS:
                raise Damaged("a slab is not sealed for good")
            if os.fstat(number).st_size != size:
                raise Damaged("a slab is not the size announced")
            slabs.append(mmap.mmap(number, size, mmap.MAP_SHARED, mmap.PROT_READ) if size else b"")
    finally:
        for number in numbers:
            os.close(number)
    segments = {}
    for language, table, slab, offset, length, checksum in manifest["segments"]:
        # Sealed by the daemon, which wrote it: the body checksum pass is skipped (FORMAT.md).
        segment = Segment(memoryview(slabs[slab])[offset:offset + length], verify_checksums=False)
        stated = struct.unpack_from("<I", segment.data, 28)[0]
        if (segment.language, segment.table, stated) != (language, table, checksum):
            raise Damaged("the segment named %s/%s" % (language, table))
        segments[(language, table)] = segment
    return manifest, segments
