"""A daemon that refuses `map` for real (issue 22): its segments lie in private memory, the
fallback FORMAT.md "Slabs" describes when no memory file can be had. Provoked from outside,
with no test hook: the running daemon's descriptor limit (`prlimit`) is lowered to leave it
one descriptor free, and a file is rewritten — the reload reads the file with that one, and
the new slab's memory file (which needs two: the file and its read-only reopening) cannot be
had, so the rebuilt segment goes to private memory and `map` answers `unavailable`. The
client's lookups are then asked of the daemon, and answer exactly as before: the new value,
a fallback, a miss."""

import os
import resource
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, start_daemon, stop_daemon, wait_for_mapping
from l10nd_client import Client, RequestRefused


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".new", "w", encoding="utf-8") as file:
        file.write(text)
    os.rename(path + ".new", path)


def leave_one_descriptor(pid):
    """Lowers `pid`'s descriptor limit so that exactly one more descriptor can be opened."""
    open_now = {int(name) for name in os.listdir(f"/proc/{pid}/fd")}
    lowest_free = next(number for number in range(len(open_now) + 1) if number not in open_now)
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (lowest_free + 1, lowest_free + 1))


@unittest.skipUnless(BUILT, NOT_BUILT)
class MapRefusedTests(unittest.TestCase):
    def test_lookups_are_asked_and_right_when_the_segments_lie_in_private_memory(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-refused")
        self.addCleanup(directory.cleanup)
        resources = os.path.join(directory.name, "Resources")
        german = os.path.join(resources, "de.lproj", "Localizable.strings")
        write(german, '"a" = "A de";\n')
        write(os.path.join(resources, "en.lproj", "Localizable.strings"), '"a" = "A en";\n"b" = "B en";\n')
        socket_path = os.path.join(directory.name, "l10nd.sock")
        daemon = start_daemon(resources, socket_path)
        self.addCleanup(lambda: stop_daemon(daemon))
        with Client(socket_path) as client:
            self.assertEqual(wait_for_mapping(client), 1)
            self.assertEqual(client._mapped_answer({"op": "lookup", "key": "b", "lang": "de"})["lang"], "en")
            leave_one_descriptor(daemon.pid)
            write(german, '"a" = "A de 2";\n')
            deadline = time.monotonic() + 10
            while client.lookup("a", lang="de")["value"] != "A de 2" and time.monotonic() < deadline:
                time.sleep(0.05)
            with self.assertRaises(RequestRefused) as refused:
                client.request("map")
            self.assertEqual(refused.exception.code, "unavailable")
            self.assertIn("private memory", str(refused.exception))
            time.sleep(0.2)  # the client's own `map` after the change was refused too
            self.assertIsNone(client.mapped_generation)
            self.assertIsNone(client._mapped_answer({"op": "lookup", "key": "a", "lang": "de"}))
            generation = client.request("status")["generation"]
            self.assertEqual(client.lookup("a", lang="de"),
                             {"ok": True, "value": "A de 2", "found": True, "lang": "de", "generation": generation})
            self.assertEqual(client.lookup("b", lang=["sv", "de"]),
                             {"ok": True, "value": "B en", "found": True, "lang": "en", "generation": generation})
            self.assertEqual(client.lookup("nowhere", lang="de"),
                             {"ok": True, "value": "nowhere", "found": False, "generation": generation})
            self.assertEqual(client.batch(["a", "b"], lang="de"), ["A de 2", "B en"])


if __name__ == "__main__":
    unittest.main()
