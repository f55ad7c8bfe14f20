"""The thread that sends a delayed missing-key report is named l10nd-misses (an outside tester
saw anonymous Thread-1 … Thread-7), so a program can tell the library's threads from its own."""

import concurrent.futures
import threading
import unittest

from l10nd_client.misses import MissReporter


class MissThreadNameTests(unittest.TestCase):
    def test_the_delayed_report_runs_on_a_thread_named_l10nd_misses(self):
        sent = []

        def send(lang, table, keys):
            sent.append(keys)
            answered = concurrent.futures.Future()
            answered.set_result({"ok": True})
            return answered

        reporter = MissReporter(send, interval=5.0)
        reporter.record("de", None, ["first"])  # sent at once
        reporter.record("de", None, ["second"])  # waits for the interval, on a timer thread
        names = [thread.name for thread in threading.enumerate() if thread is not threading.main_thread()]
        self.assertIn("l10nd-misses", names)
        self.assertFalse([name for name in names if name.startswith("Thread-")], names)
        reporter.flush()
        self.assertEqual(sent, [["first"], ["second"]])


if __name__ == "__main__":
    unittest.main()
