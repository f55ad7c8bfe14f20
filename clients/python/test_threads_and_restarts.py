"""One Client shared by many threads, through a daemon restart (issue 22): every answer is
the caller's own, calls after the restart answer within 2 s, a subscriber sees the next edit,
and the first call once the new daemon listens asks it (no wait for the reconnect backoff)."""

import logging
import os
import signal
import tempfile
import threading
import time
import unittest

from daemon_support import (BUILT, KEYS, LANGUAGES, NOT_BUILT, expected, listening, start_daemon, stop_daemon,
                            wait_for_mapping, wait_until_stopped, write_languages)
from l10nd_client import CallTimeout, Client, DaemonUnavailable

THREADS = 16
LOOKUPS = 2_500  # per thread
UNSERVED = ["nb", "da", "is", "fo"]  # no language of write_languages: a new language list per round


@unittest.skipUnless(BUILT, NOT_BUILT)
class SharedClientTests(unittest.TestCase):
    def setUp(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-threads")
        self.addCleanup(directory.cleanup)
        self.resources = os.path.join(directory.name, "Resources")
        write_languages(self.resources)
        self.socket = os.path.join(directory.name, "l10nd.sock")
        self.daemon = start_daemon(self.resources, self.socket)
        self.addCleanup(lambda: stop_daemon(self.daemon))

    def run_threads(self, client, during=None):
        """THREADS threads × LOOKUPS lookups (every 10th a batch of three) in LANGUAGES; returns
        the wrong answers and the slowest call after `during` (run on this thread) returned."""
        wrong, slowest, lock = [], [0.0], threading.Lock()
        after = threading.Event()

        def work(thread):
            for n in range(LOOKUPS):
                lang, index = LANGUAGES[(thread + n) % len(LANGUAGES)], (thread * 7 + n) % KEYS
                began = time.monotonic()
                if n % 10 == 0:
                    keys = [(index + i) % KEYS for i in range(3)]
                    got = client.batch([f"key {i}" for i in keys], lang=lang, timeout=5)
                    want = [expected(lang, i) for i in keys]
                else:
                    reply = client.lookup(f"key {index}", lang=lang, timeout=5)
                    got, want = (reply["value"], reply["found"]), (expected(lang, index), True)
                took = time.monotonic() - began
                with lock:
                    if got != want:
                        wrong.append((thread, n, lang, index, got))
                    if after.is_set():
                        slowest[0] = max(slowest[0], took)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        if during:
            during()
        after.set()
        for thread in threads:
            thread.join()
        return wrong, slowest[0]

    def restart(self):
        """Kills the daemon mid-run and starts it again on the same socket."""
        time.sleep(0.3)
        self.daemon.send_signal(signal.SIGKILL)
        self.daemon.wait()
        time.sleep(0.3)
        self.daemon = start_daemon(self.resources, self.socket)

    def edit_after_restart(self, client, events):
        """An edit the subscription sees and the next lookup answers; returns its event."""
        with open(os.path.join(self.resources, "fr.lproj", "Localizable.strings"), "a", encoding="utf-8") as file:
            file.write('"after restart" = "après";\n')
        event = next(events)
        self.assertIn({"lang": "fr", "table": "Localizable"}, event["changes"])
        self.assertEqual(client.lookup("after restart", lang="fr")["value"], "après")
        return event

    def test_sixteen_threads_get_their_own_answers(self):
        for mode in ("direct", "mapped"):
            with self.subTest(mode=mode), Client(self.socket, mode=mode) as client:
                began = time.monotonic()
                wrong, _ = self.run_threads(client)
                took = time.monotonic() - began
                self.assertEqual(wrong, [])
                print(f"\n{THREADS} threads × {LOOKUPS} calls through one {mode} client: "
                      f"{THREADS * LOOKUPS / took:,.0f} calls/s")

    def test_a_restart_mid_run_is_survived(self):
        """Asking the daemon for every lookup: the outage is answered from the last answers."""
        with Client(self.socket, mode="direct") as client:
            for lang in LANGUAGES:  # every answer known once, for the outage
                for index in range(KEYS):
                    client.lookup(f"key {index}", lang=lang)
            events = client.subscribe(timeout=20)
            with self.assertLogs("l10nd_client", logging.WARNING) as logged:
                wrong, slowest = self.run_threads(client, during=self.restart)
            self.assertEqual(wrong, [])
            self.assertLess(slowest, 2.0)
            print(f"\nslowest call after the restart: {slowest * 1000:.0f} ms")
            self.assertEqual(len(logged.output), 1, logged.output)  # one line for the outage

            deadline = time.monotonic() + 5
            while client.lookup("key 1", lang="de").get("stale"):
                self.assertLess(time.monotonic(), deadline, "still answering from last-known answers")
                time.sleep(0.05)
            self.edit_after_restart(client, events)

    def test_a_restart_mid_run_is_survived_mapped(self):
        """Mapped: the last generation mapped answers through the outage; the new daemon's
        segments are mapped once it is back, and its edits are followed."""
        with Client(self.socket) as client:
            self.assertIsNotNone(wait_for_mapping(client))
            events = client.subscribe(timeout=20)
            before = client._mapped
            wrong, slowest = self.run_threads(client, during=self.restart)
            self.assertEqual(wrong, [])
            self.assertLess(slowest, 2.0)
            deadline = time.monotonic() + 5
            while client._mapped is before or client.mapped_generation is None:
                self.assertLess(time.monotonic(), deadline, "the restarted daemon's segments were not mapped")
                time.sleep(0.02)
            event = self.edit_after_restart(client, events)
            self.assertIsNotNone(wait_for_mapping(client, event["generation"]))
            self.assertEqual(client.lookup("after restart", lang="fr")["value"], "après")

    def test_the_first_call_after_a_restart_asks_the_new_daemon(self):
        """Each round: the daemon is killed, the outage lasts long enough for the reconnect
        backoff to reach its longest wait, and a new daemon is started on the same socket,
        returned the moment it listens (a connect succeeds, polled every millisecond). The
        client's very next lookup, of a language list it never asked (so nothing mapped or
        remembered can answer it), gets the new daemon's answer. Before, it answered the bare
        key until the backoff's next attempt (up to half a second later)."""
        with Client(self.socket, timeout=5) as client:
            self.assertTrue(client.lookup("key 1", lang="de")["found"])
            for round, unserved in enumerate(UNSERVED):
                self.daemon.send_signal(signal.SIGKILL)
                self.daemon.wait()
                outage = time.monotonic()
                while time.monotonic() < outage + 1.5:  # the backoff grows to its longest
                    self.assertFalse(client.lookup("key 2", lang=["sv", "fi"])["found"])
                    time.sleep(0.1)
                self.daemon = start_daemon(self.resources, self.socket, ready=listening, poll=0.001)
                reply = client.lookup(f"key {round}", lang=[unserved, "fr"])  # fr answers along the chain
                self.assertEqual((reply["value"], reply["found"], reply.get("stale")),
                                 (expected("fr", round), True, None), f"round {round}")

    def test_a_forked_worker_gets_a_connection_of_its_own(self):
        """A server that makes the client, then forks its workers (gunicorn --preload)."""
        with Client(self.socket) as client:
            self.assertEqual(client.lookup("key 1", lang="de")["value"], expected("de", 1))
            pid = os.fork()
            if pid == 0:
                code = 3
                try:
                    replies = [client.lookup(f"key {i}", lang="fr", timeout=5) for i in range(KEYS)]
                    fine = all(r["value"] == expected("fr", i) and not r.get("stale") for i, r in enumerate(replies))
                    code = 0 if fine else 2
                finally:
                    os._exit(code)
            parent = [client.lookup(f"key {i}", lang="ja")["value"] for i in range(KEYS)]
            _, status = os.waitpid(pid, 0)
            self.assertEqual(os.waitstatus_to_exitcode(status), 0)
            self.assertEqual(parent, [expected("ja", i) for i in range(KEYS)])
            self.assertEqual(client.lookup("key 4", lang="ja")["value"], expected("ja", 4))

    def test_no_daemon_answers_the_key_and_logs_one_line(self):
        stop_daemon(self.daemon)
        with self.assertLogs("l10nd_client", logging.WARNING) as logged:
            with Client(self.socket, timeout=1) as client:
                for _ in range(3):
                    reply = client.lookup("%d files", lang="de", args=[3])
                    self.assertEqual((reply["value"], reply["found"], reply["formatted"]), ("%d files", False, "3 files"))
                self.assertEqual(client.batch(["a", "b"], lang="de"), ["a", "b"])
                with self.assertRaises(DaemonUnavailable) as raised:
                    client.request("status")
        self.assertEqual(len(logged.output), 1, logged.output)
        self.assertIn(self.socket, logged.output[0])
        self.assertIn(self.socket, str(raised.exception))

    def test_a_stopped_daemon_costs_one_time_limit_not_one_per_call(self):
        """A SIGSTOPped daemon: the first call waits its limit, the next ones answer at once
        (last answers, else keys; other requests CallTimeout), and once the daemon runs again
        the client asks it again by itself, within a second."""
        with Client(self.socket, mode="direct") as client:
            self.assertEqual(client.lookup("key 2", lang="ja")["value"], expected("ja", 2))
            self.daemon.send_signal(signal.SIGSTOP)
            try:
                wait_until_stopped(self.daemon.pid)
                began = time.monotonic()
                reply = client.lookup("key 2", lang="ja", timeout=1.0)
                self.assertEqual((reply["value"], reply["stale"]), (expected("ja", 2), True))
                self.assertGreaterEqual(time.monotonic() - began, 0.9)
                quick = time.monotonic()
                for _ in range(50):
                    reply = client.lookup("key 2", lang="ja", timeout=1.0)
                    self.assertEqual((reply["value"], reply["stale"]), (expected("ja", 2), True))
                    self.assertEqual(client.lookup("key 3", lang="ja", timeout=1.0)["found"], False)
                    self.assertEqual(client.batch(["key 4"], lang="ja", timeout=1.0), ["key 4"])
                with self.assertRaises(CallTimeout) as raised:
                    client.request("status", timeout=1.0)
                self.assertIn("was not sent", str(raised.exception))
                self.assertLess(time.monotonic() - quick, 0.5, "each call waited for the stopped daemon")
            finally:
                self.daemon.send_signal(signal.SIGCONT)
            resumed = time.monotonic()
            reply = client.lookup("key 3", lang="ja")
            while not reply["found"] and time.monotonic() < resumed + 5:
                time.sleep(0.02)
                reply = client.lookup("key 3", lang="ja")
            self.assertEqual(reply["value"], expected("ja", 3))
            self.assertLess(time.monotonic() - resumed, 1.0)

if __name__ == "__main__":
    unittest.main()
