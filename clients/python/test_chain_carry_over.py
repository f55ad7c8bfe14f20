"""A content-only edit keeps the daemon's fallback chains (mapped.chain_fingerprint): once
the client maps the edit's generation, a daemon killed before any `chain` of that generation
was asked still leaves fallbacks answered in place — not the bare key, as before the chains
were carried over."""

import os
import signal
import tempfile
import unittest

from daemon_support import BUILT, NOT_BUILT, start_daemon, stop_daemon, wait_for_mapping
from l10nd_client import Client


def write(resources, lang, keys, version):
    """Rewrites `lang`'s table whole by a rename, as editors save."""
    folder = os.path.join(resources, f"{lang}.lproj")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "Localizable.strings")
    with open(path + ".new", "w", encoding="utf-8") as file:
        file.writelines(f'"k{k:02d}" = "{lang}:k{k:02d}:v{version}";\n' for k in keys)
    os.rename(path + ".new", path)


@unittest.skipUnless(BUILT, NOT_BUILT)
class ChainCarryOverTests(unittest.TestCase):
    def test_fallbacks_answer_in_place_after_an_edit_and_the_daemons_death(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-carry")
        self.addCleanup(directory.cleanup)
        resources = os.path.join(directory.name, "Resources")
        write(resources, "de", range(30), 1)
        write(resources, "Base", range(30, 35), 1)
        write(resources, "en", range(40), 1)
        socket = os.path.join(directory.name, "l10nd.sock")
        daemon = start_daemon(resources, socket)
        self.addCleanup(lambda: stop_daemon(daemon))
        with Client(socket) as client:
            client.lookup("k00", lang="de")
            first = wait_for_mapping(client)
            self.assertIsNotNone(first)
            # Fallbacks of the first generation: each asks the daemon's chain once.
            self.assertEqual(client.lookup("k30", lang="de")["value"], "Base:k30:v1")
            self.assertEqual(client.lookup("k35", lang="de")["value"], "en:k35:v1")
            write(resources, "de", range(30), 2)  # content only: the same languages and tables
            self.assertIsNotNone(wait_for_mapping(client, first + 1), "the edit's generation was not mapped")
            daemon.send_signal(signal.SIGKILL)
            daemon.wait()
            own = client.lookup("k00", lang="de")
            self.assertEqual((own["value"], own.get("lang")), ("de:k00:v2", "de"))
            for key, value, lang in (("k30", "Base:k30:v1", "Base"), ("k35", "en:k35:v1", "en")):
                answer = client.lookup(key, lang="de")
                self.assertEqual((answer["value"], answer["found"], answer.get("lang")), (value, True, lang), key)
                self.assertNotIn("stale", answer, f"{key} was answered from the last answers, not in place")
            self.assertFalse(client.lookup("nokey", lang="de")["found"])


if __name__ == "__main__":
    unittest.main()
