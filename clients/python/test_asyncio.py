"""AsyncClient: many tasks through one connection, each getting its own answer, and
change events in an `async for`."""

import asyncio
import os
import tempfile
import unittest

from daemon_support import BUILT, KEYS, LANGUAGES, NOT_BUILT, expected, start_daemon, stop_daemon, write_languages
from l10nd_client import AsyncClient, Client, RequestRefused


@unittest.skipUnless(BUILT, NOT_BUILT)
class AsyncClientTests(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-asyncio")
        self.addCleanup(directory.cleanup)
        self.resources = os.path.join(directory.name, "Resources")
        write_languages(self.resources)
        self.socket = os.path.join(directory.name, "l10nd.sock")
        daemon = start_daemon(self.resources, self.socket)
        self.addCleanup(stop_daemon, daemon)

    async def asyncSetUp(self):
        # The test case runs the loop in debug mode, which reports every step over 0.1 s: on
        # a loaded machine, starting 2,000 lookups is one such step.
        asyncio.get_running_loop().slow_callback_duration = 30

    async def test_tasks_share_one_connection_and_get_their_own_answers(self):
        async with AsyncClient(self.socket) as l10n:
            cases = [(LANGUAGES[n % len(LANGUAGES)], n % KEYS) for n in range(2_000)]
            replies = await asyncio.gather(*(l10n.lookup(f"key {i}", lang=lang) for lang, i in cases))
            self.assertEqual([reply["value"] for reply in replies], [expected(lang, i) for lang, i in cases])
            self.assertEqual(await l10n.batch(["key 1", "key 2"], lang="ru"), [expected("ru", 1), expected("ru", 2)])
            with self.assertRaises(RequestRefused):
                await l10n.lookup("x", args=[True])

    async def test_shares_a_threaded_clients_connection(self):
        with Client(self.socket) as client:
            l10n = AsyncClient(client=client)
            self.assertEqual(await l10n.localized("key 5", lang="ja"), expected("ja", 5))
            l10n.close()
            self.assertTrue(client.connected)  # the Client's owner closes it

    async def test_async_for_sees_an_edit(self):
        async with AsyncClient(self.socket) as l10n:
            async with l10n.subscribe(timeout=20) as events:
                with open(os.path.join(self.resources, "it.lproj", "Localizable.strings"), "a",
                          encoding="utf-8") as file:
                    file.write('"asyncio" = "asincrono";\n')
                async for event in events:
                    self.assertIn({"lang": "it", "table": "Localizable"}, event["changes"])
                    break
            self.assertEqual((await l10n.lookup("asyncio", lang="it"))["value"], "asincrono")


if __name__ == "__main__":
    unittest.main()
