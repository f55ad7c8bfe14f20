"""An outage that begins after a change was answered but before its generation is mapped:
lookups never go back to the older generation's text unmarked (README, "Following changes").
The tester's kill -9 landed between a `changed` event and the new generation's map: the
client had answered `fr:47:…`, then answered `fr:46:k37` 211 times, unmarked, from the old
mapping. Provoked here for real and deterministically: the daemon is left one descriptor
(`prlimit`, as test_map_refused.py does) so the changed generation is never mapped, the new
value is read through a lookup the daemon answers, and the daemon is killed (SIGKILL)."""

import os
import signal
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, start_daemon, stop_daemon, wait_for_mapping
from l10nd_client import Client
from test_map_refused import leave_one_descriptor, write


@unittest.skipUnless(BUILT, NOT_BUILT)
class OutageAfterChangeTests(unittest.TestCase):
    def test_the_newer_last_answer_marked_stale_never_the_older_mapping(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-outage-change")
        self.addCleanup(directory.cleanup)
        resources = os.path.join(directory.name, "Resources")
        german = os.path.join(resources, "de.lproj", "Localizable.strings")
        write(german, '"a" = "A de";\n"b" = "B de";\n')
        socket_path = os.path.join(directory.name, "l10nd.sock")
        daemon = start_daemon(resources, socket_path)
        self.addCleanup(lambda: stop_daemon(daemon))
        with Client(socket_path, timeout=2) as client:
            self.assertEqual(wait_for_mapping(client), 1)
            self.assertEqual(client.lookup("a", lang="de")["value"], "A de")  # answered in place
            leave_one_descriptor(daemon.pid)  # the changed generation cannot be mapped
            write(german, '"a" = "A de 2";\n"b" = "B de";\n')
            deadline = time.monotonic() + 10
            while client.lookup("a", lang="de")["value"] != "A de 2" and time.monotonic() < deadline:
                time.sleep(0.05)
            told = client.lookup("a", lang="de")
            self.assertEqual((told["value"], told.get("stale")), ("A de 2", None))
            self.assertGreater(told["generation"], 1)
            os.kill(daemon.pid, signal.SIGKILL)
            daemon.wait()
            answers = [client.lookup("a", lang="de") for _ in range(200)]
            # Each: the newer last answer, marked stale; never the older mapping's text.
            self.assertEqual({(answer["value"], answer.get("stale")) for answer in answers}, {("A de 2", True)})
            # A key never asked since the change: the last mapped generation, marked stale.
            self.assertEqual(client.lookup("b", lang="de"), {
                "ok": True, "value": "B de", "found": True, "lang": "de", "generation": 1, "stale": True})


if __name__ == "__main__":
    unittest.main()
