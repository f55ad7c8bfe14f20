"""Misses answered in place that cannot be reported are said, never dropped silently (as the
Swift and C libraries do, in their words): keys past the 4,096 that may wait, and those of a
report that could not be sent, are counted in one warning at most once a minute and at
close(); a report that finds the daemon away waits again with its keys."""

import os
import re
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, start_daemon, stop_daemon, wait_for_mapping, write_languages
from l10nd_client import Client

LINE = re.compile(r"l10nd-client: (\d+) misses and fallbacks answered in place were not reported to l10nd's "
                  r"missing-key report \((\d+) past the 4096 keys that may wait, (\d+) that could not be sent\)")


@unittest.skipUnless(BUILT, NOT_BUILT)
class UnreportedMissesTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)
        resources = os.path.join(self.directory.name, "Resources")
        write_languages(resources)
        self.socket = os.path.join(self.directory.name, "l10nd.sock")
        self.daemon = start_daemon(resources, self.socket)
        self.addCleanup(stop_daemon, self.daemon)

    def test_misses_past_the_cap_and_unsent_ones_are_said(self):
        """The daemon killed, 5,000 distinct misses: 4,096 wait, 904 are past them, and at
        close() none could be sent."""
        client = Client(self.socket, mode="mapped")
        self.addCleanup(client.close)
        self.assertIsNotNone(wait_for_mapping(client))
        self.assertFalse(client.lookup("before", lang="ja")["found"])
        deadline = time.monotonic() + 10
        while "before" not in [entry["key"] for entry in client.request("missing")["missing"]]:
            self.assertLess(time.monotonic(), deadline, "the first miss never reached the report")
            time.sleep(0.05)
        self.daemon.kill()
        self.daemon.wait()
        deadline = time.monotonic() + 10
        while client.connected:
            self.assertLess(time.monotonic(), deadline, "the client never saw l10nd go")
            time.sleep(0.01)
        with self.assertLogs("l10nd_client", "WARNING") as logs:
            for index in range(5000):
                self.assertFalse(client.lookup(f"key.{index}", lang="ja")["found"])
            time.sleep(0.25)
            client.lookup("key.0", lang="ja")  # a report, which finds l10nd away: they wait again
            client.close()
        said = [LINE.fullmatch(record.getMessage()) for record in logs.records]
        said = [tuple(map(int, match.groups())) for match in said if match]
        # The keys past the cap are said by the first report after them (a report during the
        # loop may say part of them), the rest at close(): not one line per report.
        self.assertLessEqual(len(said), 2, logs.output)
        self.assertEqual(said[-1][2], 4096, logs.output)
        self.assertEqual([sum(line[1] for line in said), sum(line[2] for line in said)], [904, 4096], logs.output)
        self.assertTrue(all(total == past + unsent for total, past, unsent in said), logs.output)

    def test_misses_recorded_after_close_are_said(self):
        """A lookup of another thread answered in place as the client closes records its miss
        after close(): no report sends it, and no later close() would say it, so it is said
        at once (it was neither sent nor counted)."""
        client = Client(self.socket, mode="mapped")
        self.assertIsNotNone(wait_for_mapping(client))
        for key in ("first", "early"):  # misses answered in place; the second waits for the interval
            self.assertFalse(client.lookup(key, lang="ja")["found"])
        with self.assertLogs("l10nd_client", "WARNING") as logs:
            client.close()  # sends "early" on the connection it is closing (it did not: said unsent)
            # What _in_place records for such a lookup, as it would: after close().
            client._misses.record("ja", None, ["late"])
        said = [LINE.fullmatch(record.getMessage()) for record in logs.records]
        self.assertEqual([tuple(map(int, match.groups())) for match in said if match], [(1, 0, 1)], logs.output)
        with Client(self.socket, mode="direct") as other:
            reported = [entry["key"] for entry in other.request("missing")["missing"]]
        self.assertIn("early", reported)
        self.assertNotIn("late", reported)


if __name__ == "__main__":
    unittest.main()
