"""Unit tests of the segment reader on the segments committed as fuzz seeds
(Fuzz/Seeds/segment, built from Examples/Resources by the Swift builder)."""

import os
import unittest

from l10nd_segments import Damaged, Segment, crc32c, key_hash, lookup

SEEDS = os.path.join(os.path.dirname(__file__), "..", "..", "Fuzz", "Seeds", "segment")


def load(name):
    with open(os.path.join(SEEDS, name), "rb") as file:
        return file.read()


class SegmentReaderTests(unittest.TestCase):
    def test_checksum_and_hash_match_their_published_values(self):
        self.assertEqual(crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(key_hash(b""), 0xF8BB92C91B3F5CC0)
        self.assertEqual(key_hash(b"a"), 0x8B4FF74BC8E78038)
        self.assertEqual(key_hash(b"foobar"), 0x1CDB540CA949AE1D)
        self.assertEqual(key_hash(b"screen12.label12345"), 0xE42322A773A637D8)

    def test_reads_every_entry_back_by_its_key(self):
        for name in sorted(os.listdir(SEEDS)):
            segment = Segment(load(name))
            self.assertGreater(segment.key_count, 0, name)
            for number in range(segment.key_count):
                self.assertEqual(segment.find(segment.entry(number)["key"]), number, name)
            self.assertIsNone(segment.find("no such key ✗"))

    def test_matches_canonically_equivalent_keys(self):
        segment = Segment(load("tiny"))
        self.assertEqual(segment.entry(segment.find("Caf\u00e9"))["value"], "composed")
        self.assertEqual(segment.entry(segment.find("Cafe\u0301"))["value"], "composed")
        self.assertEqual(segment.entry(segment.find("X\u00f3a"))["value"], "decomposed")
        self.assertIsNone(segment.find("Cafe"))

    def test_walks_the_chain_over_segments(self):
        segments = {}
        for name in ("ja-Localizable", "Base-Localizable"):
            segment = Segment(load(name))
            segments[(segment.language, segment.table)] = segment
        self.assertEqual(lookup(segments, "多言語化", ["ja", "Base", "en"])["lang"], "ja")
        # "保存" is missing from ja on purpose: Base answers.
        self.assertEqual(lookup(segments, "保存", ["ja", "Base", "en"])["lang"], "Base")
        self.assertIsNone(lookup(segments, "no such key ✗", ["ja", "Base"]))

    def test_plural_blocks_are_read(self):
        segment = Segment(load("en-Plurals"))
        plurals = [segment.entry(n)["plural"] for n in range(segment.key_count)]
        self.assertTrue(any(p and p["variables"] for p in plurals))

    def test_damage_is_refused(self):
        data = bytearray(load("ja-Localizable"))
        with self.assertRaises(Damaged):
            Segment(bytes(data[:50]))
        data[-3] ^= 0x40
        with self.assertRaisesRegex(Damaged, "body checksum"):
            Segment(bytes(data))
        data[0] = ord("X")
        with self.assertRaisesRegex(Damaged, "magic"):
            Segment(bytes(data))


if __name__ == "__main__":
    unittest.main()
