"""Tests of l10nd_client against a real l10nd on the example resources.

Run by scripts/test (python3 -m unittest discover -s clients/python); L10ND is the built
daemon (default: .build/debug/l10nd). Skipped, with the reason, when it is not built.
"""

import os
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, ROOT, copy_examples, start_daemon, stop_daemon
from l10nd_client import Client, L10ndError

@unittest.skipUnless(BUILT, NOT_BUILT)
class DaemonTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory(prefix="l10nd-python")
        cls.resources = copy_examples(cls.directory.name)
        cls.socket = os.path.join(cls.directory.name, "l10nd.sock")
        cls.daemon = start_daemon(cls.resources, cls.socket)

    @classmethod
    def tearDownClass(cls):
        stop_daemon(cls.daemon)
        cls.directory.cleanup()

    def test_finished_strings_with_arguments_and_plurals(self):
        with Client(self.socket) as l10n:
            self.assertEqual(l10n.localized("%1$@ has %2$d new messages", "Ana", 3, lang="ja"),
                             "Anaさんに新しいメッセージが3件あります")
            self.assertEqual(l10n.localized("%d files in %d folders", 21, 2, lang="ru"), "21 файл в 2 папках")
            self.assertEqual(l10n.localized("%lld photos", 21, lang="ru", table="Plurals"), "21 фотография")
            reply = l10n.lookup("%lld photos", lang="ru", table="Plurals", count=21)
            self.assertEqual(reply["value"], "%lld фотография")
            self.assertNotIn("formatted", reply)

    def test_batch_finishes_the_keys_given_arguments(self):
        with Client(self.socket) as l10n:
            self.assertEqual(
                l10n.batch(["保存", "%d files in %d folders"], lang="fr", args=[None, [1, 3]]),
                ["Enregistrer", "1 fichier dans 3 dossiers"])

    def test_bad_arguments_are_refused_with_a_reason(self):
        with Client(self.socket) as l10n:
            with self.assertRaises(L10ndError) as refused:
                l10n.lookup("x", args=[True])
            self.assertEqual(refused.exception.code, "bad_request")
            self.assertEqual(l10n.lookup("多言語化", lang="en")["value"], "Multilingualization")

    def test_subscribe_yields_a_change_after_an_edit(self):
        with Client(self.socket) as l10n:
            events = l10n.subscribe(timeout=30)  # subscribed when it returns
            generation = l10n.request("status")["generation"]
            path = os.path.join(self.resources, "de.lproj", "Localizable.strings")
            with open(path, "a", encoding="utf-8") as strings:
                strings.write('\n"python" = "Python";\n')
            event = next(events)
            self.assertGreater(event["generation"], generation)
            self.assertIn({"lang": "de", "table": "Localizable"}, event["changes"])
            self.assertEqual(l10n.lookup("python", lang="de")["value"], "Python")



@unittest.skipUnless(BUILT, NOT_BUILT)
class ConnectionLimitTests(unittest.TestCase):
    """An operator saw a raw BrokenPipeError at the connection limit about 60% of the time:
    the daemon writes its refusal and closes, and the request's send failed before the
    refusal was read."""

    def test_a_refused_connection_raises_the_daemons_reason_not_a_broken_pipe(self):
        with tempfile.TemporaryDirectory(prefix="l10nd-python-limit") as directory:
            config = os.path.join(directory, "l10nd.conf")
            with open(config, "w") as file:
                file.write("max_connections = 1\n")
            socket_path = os.path.join(directory, "l10nd.sock")
            resources = os.path.join(ROOT, "Examples", "Resources")
            daemon = start_daemon(resources, socket_path, ["--config", config])
            try:
                # The one connection; answered, so it is in the daemon's table (the start-up
                # probe's may not be closed there yet: then this one is refused, and retried).
                deadline = time.monotonic() + 10
                while True:
                    holder = Client(socket_path)
                    try:
                        holder.request("hello")
                        break
                    except (L10ndError, OSError):
                        holder.close()
                        self.assertLess(time.monotonic(), deadline)
                        time.sleep(0.05)
                with holder:
                    refused_before = holder.request("status")["server"]["connections_refused"]
                    with Client(socket_path) as refused:
                        # Deterministically the broken pipe: the daemon has refused this
                        # connection, said why and closed before the request is sent.
                        while holder.request("status")["server"]["connections_refused"] == refused_before:
                            self.assertLess(time.monotonic(), deadline + 10)
                            time.sleep(0.01)
                        with self.assertRaises(L10ndError) as raised:
                            refused.request("status")
                    self.assertEqual(raised.exception.code, "unavailable")
                    self.assertIn("connection limit (max_connections = 1)", str(raised.exception))
            finally:
                stop_daemon(daemon)


if __name__ == "__main__":
    unittest.main()
