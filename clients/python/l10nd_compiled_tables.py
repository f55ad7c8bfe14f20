#!/usr/bin/env python3
"""A reader of l10nd's compiled tables, version 2.0 (docs/FORMAT-2.md), standard library only.

Written from docs/FORMAT-2.md alone, to show the page is enough; the test suite
(CompiledTablesPythonTests) checks its answers against the Swift reader's.

    python3 l10nd_compiled_tables.py TABLES_FILE [QUERIES_FILE]   # queries on stdin without one

Each query line is {"key": ..., "lang": ..., "table": ...} (table optional); each output line
is {"found": false} or {"found": true, "value": ..., "lang": ..., "plural": null or
{"format", "rules", "variables": {name: {"type", "arg", "forms": {category: form}}}}}.
A damaged buffer gives {"error": ...} for the file and exit status 1.
"""

import json
import struct
import sys
import unicodedata

# The CRC and the key hash are version 3.0's too.
from l10nd_segments import crc32c, key_hash

MAGIC = b"L10NDTBL"
HEADER_LENGTH = 128
ABSENT = 0xFFFFFFFF
NO_RECORD = 0xFFFFFFFF
NO_ARGUMENT = -2147483648
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


class Damaged(Exception):
    """The buffer is not whole, undamaged compiled tables of version 2."""


class CompiledTables:
    def __init__(self, data, verify_checksums=True):
        if len(data) < HEADER_LENGTH:
            raise Damaged("shorter than the header")
        if data[0:8] != MAGIC:
            raise Damaged("bad magic")
        major, minor, header_length, self.generation, total = struct.unpack_from("<HHIQQ", data, 8)
        if major != 2:
            raise Damaged("version %d.%d" % (major, minor))
        if total > len(data):
            raise Damaged("truncated")
        self.data = data = data[:total]
        if not HEADER_LENGTH <= header_length <= total:
            raise Damaged("header length")
        header_crc, body_crc, self.language_count, self.table_count = struct.unpack_from("<IIII", data, 32)
        if crc32c(data[0:32] + b"\0\0\0\0" + data[36:header_length]) != header_crc:
            raise Damaged("header checksum")
        if verify_checksums and crc32c(data[header_length:]) != body_crc:
            raise Damaged("body checksum")
        sections = []
        for field in range(48, 128, 16):
            offset, length = struct.unpack_from("<QQ", data, field)
            if offset < header_length or offset > total or length > total - offset:
                raise Damaged("section at header offset %d" % field)
            sections.append((offset, length))
        (self.strings, self.strings_length), languages, tables, cells, records = sections
        if languages[1] != self.language_count * 8 or tables[1] != self.table_count * 32:
            raise Damaged("section lengths")
        if cells[1] != self.language_count * self.table_count * 8 or records[1] % 24:
            raise Damaged("section lengths")
        self.cells = cells[0]
        self.records, self.record_count = records[0], records[1] // 24
        self.languages = {self.string(languages[0] + 8 * i): i for i in range(self.language_count)}
        self.tables = {}
        for number in range(self.table_count):
            entry = tables[0] + 32 * number
            key_count, slot_count, slots, keys = struct.unpack_from("<IIQQ", data, entry + 8)
            if slot_count == 0 or slot_count & (slot_count - 1) or key_count > slot_count:
                raise Damaged("slot count")
            self.check_range(slots, slot_count * 16)
            self.check_range(keys, key_count * 8)
            self.tables[self.string(entry)] = (number, key_count, slot_count, slots, keys)

    def check_range(self, offset, length):
        if offset < HEADER_LENGTH or offset > len(self.data) or length > len(self.data) - offset:
            raise Damaged("offset %d" % offset)
        return offset

    def string_bytes(self, at):
        offset, length = struct.unpack_from("<II", self.data, at)
        if offset > self.strings_length or length > self.strings_length - offset:
            raise Damaged("string reference at %d" % at)
        return self.data[self.strings + offset:self.strings + offset + length]

    def string(self, at):
        return self.string_bytes(at).decode("utf-8", "replace")

    def optional_string(self, at):
        if struct.unpack_from("<II", self.data, at) == (ABSENT, ABSENT):
            return None
        return self.string(at)

    def lookup(self, key, language, table=None):
        """The answer for key, as a dict, or None when language does not answer it."""
        if language not in self.languages or (table or "Localizable") not in self.tables:
            return None
        number, key_count, slot_count, slots, _keys = self.tables[table or "Localizable"]
        encoded = key.encode("utf-8")
        key_number = self.key_number(encoded, key_count, slot_count, slots)
        if key_number is None and not encoded.isascii():
            # The index holds each key's canonical composition (NFC).
            composed = unicodedata.normalize("NFC", key).encode("utf-8")
            if composed != encoded:
                key_number = self.key_number(composed, key_count, slot_count, slots)
        if key_number is None:
            return None
        return self.answer(self.languages[language], number, key_count, key_number)

    def key_number(self, key, key_count, slot_count, slots):
        h = key_hash(key)
        slot = h & (slot_count - 1)
        for _ in range(slot_count):
            (word,) = struct.unpack_from("<Q", self.data, slots + 16 * slot)
            key_number = word >> 32
            if key_number == 0:
                return None
            if word & 0xFFFFFFFF == h >> 32:
                if key_number > key_count:
                    raise Damaged("key number")
                if self.string_bytes(slots + 16 * slot + 8) == key:
                    return key_number - 1
            slot = (slot + 1) & (slot_count - 1)
        return None

    def answer(self, language, table, key_count, key_number):
        (answers,) = struct.unpack_from("<Q", self.data, self.cells + 8 * (language * self.table_count + table))
        if answers == 0:
            return None
        self.check_range(answers, 4 * key_count)
        (record,) = struct.unpack_from("<I", self.data, answers + 4 * key_number)
        if record == NO_RECORD:
            return None
        if record >= self.record_count:
            raise Damaged("record number")
        at = self.records + 24 * record
        (plural,) = struct.unpack_from("<Q", self.data, at + 16)
        return {
            "value": self.string(at),
            "lang": self.string(at + 8),
            "plural": self.plural(plural) if plural else None,
        }

    def plural(self, offset):
        self.check_range(offset, 24)
        (count,) = struct.unpack_from("<I", self.data, offset)
        self.check_range(offset, 24 + 72 * count)
        variables = {}
        for index in range(count):
            at = offset + 24 + 72 * index
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
        return {"format": self.string(offset + 8), "rules": self.string(offset + 16), "variables": variables}


def main():
    with open(sys.argv[1], "rb") as file:
        data = file.read()
    try:
        tables = CompiledTables(data)
    except (Damaged, struct.error) as error:
        print(json.dumps({"error": str(error)}))
        return 1
    print(json.dumps({"generation": tables.generation}))
    queries = open(sys.argv[2], encoding="utf-8") if len(sys.argv) > 2 else sys.stdin
    for line in queries:
        if not line.strip():
            continue
        query = json.loads(line)
        try:
            answer = tables.lookup(query["key"], query["lang"], query.get("table"))
        except (Damaged, struct.error) as error:
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        result = {"found": False} if answer is None else dict(found=True, **answer)
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
