"""Tests of l10nd_client against a real l10nd on the example resources.

Run by scripts/test (python3 -m unittest discover -s clients/python); L10ND is the built
daemon (default: .build/debug/l10nd). Skipped, with the reason, when it is not built.
"""

import json
import os
import subprocess
import tempfile
import time
import unittest

from l10nd_client import Client, L10ndError, default_socket_path

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DAEMON = os.environ.get("L10ND", os.path.join(ROOT, ".build", "debug", "l10nd"))


class DefaultPathTests(unittest.TestCase):
    def test_rules_match_the_swift_client(self):
        self.assertEqual(default_socket_path({"L10N_SOCKET": "/s"}), "/s")
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "/run/user/7/"}), "/run/user/7/l10nd/l10nd.sock")
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "relative"}), f"/tmp/l10nd-{os.getuid()}/l10nd.sock")


@unittest.skipUnless(os.access(DAEMON, os.X_OK), f"{DAEMON} is not built (swift build first)")
class DaemonTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory(prefix="l10nd-python")
        cls.resources = os.path.join(cls.directory.name, "Resources")
        subprocess.run(["cp", "-R", os.path.join(ROOT, "Examples", "Resources"), cls.resources], check=True)
        cls.socket = os.path.join(cls.directory.name, "l10nd.sock")
        cls.daemon = subprocess.Popen(
            [DAEMON, "--resources", cls.resources, "--socket", cls.socket],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                with Client(cls.socket) as client:
                    client.request("hello")
                break
            except OSError:
                if time.monotonic() > deadline or cls.daemon.poll() is not None:
                    raise
                time.sleep(0.05)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.terminate()
        cls.daemon.wait(timeout=20)
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
            events = l10n.subscribe(timeout=30)
            generation = l10n.request("status")["generation"]
            path = os.path.join(self.resources, "de.lproj", "Localizable.strings")
            with open(path, "a", encoding="utf-8") as strings:
                strings.write('\n"python" = "Python";\n')
            event = next(events)
            self.assertGreater(event["generation"], generation)
            self.assertIn({"lang": "de", "table": "Localizable"}, event["changes"])
            self.assertEqual(l10n.lookup("python", lang="de")["value"], "Python")


if __name__ == "__main__":
    unittest.main()
