"""The segment reader over the daemon's `map` (PROTOCOL.md): a real l10nd, its slabs received
by SCM_RIGHTS and mapped read-only, every key of every segment answered as the daemon's own
lookup of that language answers it, and an edit seen by the next map."""

import json
import os
import socket
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, copy_examples, start_daemon, stop_daemon
from l10nd_segments import lookup, map_segments


def daemon_lookup(socket_path, key, lang, table):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(10)
        connection.connect(socket_path)
        request = {"op": "lookup", "key": key, "lang": lang, "table": table}
        connection.sendall(json.dumps(request).encode() + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            reply += connection.recv(65536)
        return json.loads(reply)


@unittest.skipUnless(BUILT, NOT_BUILT)
class MappedSegmentsTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.resources = copy_examples(self.directory.name)
        self.socket_path = os.path.join(self.directory.name, "l10nd.sock")
        self.daemon = start_daemon(self.resources, self.socket_path)

    def tearDown(self):
        stop_daemon(self.daemon)
        self.directory.cleanup()

    def test_every_mapped_key_answers_as_the_daemon(self):
        manifest, segments = map_segments(self.socket_path)
        self.assertEqual(manifest["development_language"], "en")
        self.assertLessEqual(len(manifest["slabs"]), 16)
        self.assertEqual(len(segments), len(manifest["segments"]))
        compared = 0
        for (language, table), segment in sorted(segments.items()):
            for number in range(segment.key_count):
                key = segment.entry(number)["key"]
                answer = daemon_lookup(self.socket_path, key, language, table)
                if answer.get("lang") != language:
                    continue  # another language answers first along the daemon's chain
                mine = lookup(segments, key, [language], table)
                self.assertEqual(mine["value"], answer["value"], (language, table, key))
                compared += 1
        self.assertGreater(compared, 100)

    def test_an_edit_is_in_the_next_map(self):
        path = os.path.join(self.resources, "ja.lproj", "Localizable.strings")
        with open(path + ".new", "w", encoding="utf-8") as file:
            file.write('"python mapped" = "マップ済み";\n')
        os.rename(path + ".new", path)
        deadline = time.monotonic() + 10
        while True:
            _, segments = map_segments(self.socket_path)
            answer = lookup(segments, "python mapped", ["ja"])
            if answer is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(answer and answer["value"], "マップ済み")


if __name__ == "__main__":
    unittest.main()
