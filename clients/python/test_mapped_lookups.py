"""Client's mapped mode against a real l10nd (issue 22): lookups answered in place from the
daemon's segments equal its own JSON answers for every key of real tables, 16 threads get
their own answers while a writer rewrites the files, an announced change is never answered
from the older generation, and old mappings are released."""

import gc
import os
import signal
import tempfile
import threading
import time
import unittest

from daemon_support import (BUILT, LANGUAGES, NOT_BUILT, ROOT, start_daemon, stop_daemon, wait_for_mapping,
                            wait_until_stopped)
from l10nd_client import Client
from l10nd_client.segments import map_segments

THREADS = 16
LOOKUPS = 2_000  # per thread
KEYS = 40
VERSIONS = 24  # rewrites, round the languages

SHARED = os.environ.get("L10ND_SHARED") or os.path.join(ROOT, "..", "shared")
CORPUS = os.path.join(SHARED, "corpus")
NO_CORPUS = f"the corpus is not at {CORPUS} (L10ND_SHARED names the shared folder)"
IINA = os.path.join(CORPUS, "iina")
MASTODON = os.path.join(CORPUS, "mastodon-ios", "MastodonSDK", "Sources", "MastodonLocalization", "Resources")
CORPUS_LANGUAGES = ["de", "fr", "ja", "zh-Hans", "pt-BR", "en-GB", "ru", "ar"]
FALLBACK_LANGUAGES = ["de-AT", "zh-Hant-TW", "zh-TW", "pt", "pt-PT", "en-AU", "es-MX", "sr-Latn", "nb", "Base",
                      ["sv", "de"], ["fi", "ja-JP"], "fr-CH, fr;q=0.9, en;q=0.8", None, "ja_JP.UTF-8", "sv"]


def value(lang, index, version):
    return f"{lang} value {index} v{version}"


def write_language(resources, lang, version):
    """Rewrites `lang`'s table whole (a rename, as editors save), every value at `version`."""
    folder = os.path.join(resources, f"{lang}.lproj")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "Localizable.strings")
    with open(path + ".new", "w", encoding="utf-8") as file:
        for index in range(KEYS):
            file.write(f'"key {index}" = "{value(lang, index, version)}";\n')
    os.rename(path + ".new", path)


def parse(answer):
    """(lang, index, version) of a value `value` wrote, or None."""
    try:
        lang, _, index, version = answer.split(" ")
        return lang, int(index), int(version[1:])
    except (AttributeError, ValueError):
        return None


def memfd_mappings():
    """This process's mappings of memory files (the slabs): one line per mapped slab."""
    with open("/proc/self/maps") as maps:
        return [line for line in maps if "memfd:" in line]


@unittest.skipUnless(BUILT, NOT_BUILT)
class MappedLookupTests(unittest.TestCase):
    def setUp(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-mapped")
        self.addCleanup(directory.cleanup)
        self.resources = os.path.join(directory.name, "Resources")
        for lang in LANGUAGES:
            write_language(self.resources, lang, 0)
        self.socket = os.path.join(directory.name, "l10nd.sock")
        self.daemon = start_daemon(self.resources, self.socket)
        self.addCleanup(lambda: stop_daemon(self.daemon))

    def test_sixteen_threads_while_a_writer_rewrites_the_files(self):
        """Every answer is the caller's key in the caller's language; a batch is of one
        generation; a thread never sees a language's values go back; and right after the
        client delivers a change, the next lookup answers with the new values."""
        with Client(self.socket) as client:
            self.assertIsNotNone(wait_for_mapping(client))
            events = client.subscribe(timeout=20)
            wrong, lock, done = [], threading.Lock(), threading.Event()
            written = {lang: 0 for lang in LANGUAGES}

            def check(thread, n, lang, index, answer, newest):
                parsed = parse(answer)
                if parsed is None or parsed[:2] != (lang, index) or parsed[2] < newest.get(lang, 0):
                    with lock:
                        wrong.append((thread, n, lang, index, answer, newest.get(lang)))
                    return None
                newest[lang] = parsed[2]
                return parsed[2]

            def read(thread):
                newest = {}
                for n in range(LOOKUPS):
                    lang, index = LANGUAGES[(thread + n) % len(LANGUAGES)], (thread * 7 + n) % KEYS
                    if n % 10 == 0:
                        keys = [(index + i) % KEYS for i in range(3)]
                        got = client.batch([f"key {i}" for i in keys], lang=lang, timeout=5)
                        versions = {check(thread, n, lang, i, answer, newest) for i, answer in zip(keys, got)}
                        if len(versions) != 1:
                            with lock:
                                wrong.append((thread, n, lang, "a batch of two generations", got))
                    else:
                        check(thread, n, lang, index, client.lookup(f"key {index}", lang=lang, timeout=5)["value"],
                              newest)

            def write():
                for version in range(1, VERSIONS + 1):
                    lang = LANGUAGES[version % len(LANGUAGES)]
                    write_language(self.resources, lang, version)
                    written[lang] = version
                    for event in events:
                        if {"lang": lang, "table": "Localizable"} in event["changes"]:
                            break
                    # Delivered: no lookup from now on may answer from before the change.
                    answer = client.lookup("key 3", lang=lang)["value"]
                    if answer != value(lang, 3, version):
                        with lock:
                            wrong.append(("after the event", lang, version, answer))
                    if done.is_set():
                        break

            readers = [threading.Thread(target=read, args=(t,)) for t in range(THREADS)]
            writer = threading.Thread(target=write)
            began = time.monotonic()
            for thread in readers + [writer]:
                thread.start()
            for thread in readers:
                thread.join()
            done.set()
            writer.join()
            took = time.monotonic() - began
            self.assertEqual(wrong, [])
            # The last generation is mapped, and answers every language's last values.
            generation = client.request("status").get("generation")
            deadline = time.monotonic() + 10
            while client.mapped_generation != generation:
                self.assertLess(time.monotonic(), deadline, f"generation {generation} was not mapped")
                time.sleep(0.01)
            for lang in LANGUAGES:
                self.assertEqual(client._mapped_answer({"op": "lookup", "key": "key 5", "lang": lang}),
                                 {"ok": True, "value": value(lang, 5, written[lang]), "found": True, "lang": lang,
                                  "generation": generation})
            print(f"\n{THREADS} threads × {LOOKUPS} mapped calls with {VERSIONS} rewrites: "
                  f"{THREADS * LOOKUPS / took:,.0f} calls/s")

    def test_misses_and_fallbacks_answered_in_place_reach_the_missing_key_report(self):
        """As the Swift client's: the daemon never saw these lookups, the client reports them."""
        with Client(self.socket) as client:
            self.assertIsNotNone(wait_for_mapping(client))
            fallback = client._mapped_answer({"op": "lookup", "key": "key 1", "lang": ["sv", "de"]})
            miss = client._mapped_answer({"op": "lookup", "key": "nowhere", "lang": "fr"})
            batch = client._mapped_answer({"op": "batch", "keys": ["key 2", "nor here"], "lang": "pt-PT"})
            self.assertEqual(fallback, {"ok": True, "value": value("de", 1, 0), "found": True, "lang": "de",
                                        "generation": client.mapped_generation})
            self.assertEqual(miss, {"ok": True, "value": "nowhere", "found": False,
                                    "generation": client.mapped_generation})
            self.assertEqual(batch["values"], [value("pt-BR", 2, 0), "nor here"])  # Apple's last resort
            want = [("sv", "key 1", "de"), ("fr", "nowhere", None), ("pt-PT", "nor here", None),
                    ("pt-PT", "key 2", "pt-BR")]
            deadline = time.monotonic() + 5
            while True:
                entries = client.request("missing")["missing"]
                got = [(e["lang"], e["key"], e.get("from")) for e in entries]
                if all(entry in got for entry in want) or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            for entry in want:
                self.assertIn(entry, got)

    def test_old_generations_are_unmapped(self):
        with Client(self.socket) as client:
            self.assertIsNotNone(wait_for_mapping(client))
            events = client.subscribe(timeout=20)
            for version in range(1, 13):
                write_language(self.resources, "de", version)
                for event in events:
                    if {"lang": "de", "table": "Localizable"} in event["changes"]:
                        break
                deadline = time.monotonic() + 10
                while client.mapped_generation != event["generation"]:
                    self.assertLess(time.monotonic(), deadline)
                    time.sleep(0.01)
            gc.collect()
            slabs = client._mapped.slab_count
            self.assertLessEqual(len(memfd_mappings()), slabs, memfd_mappings())
            client.close()
            gc.collect()
            self.assertEqual(memfd_mappings(), [])

    def test_a_daemon_gone_right_after_a_change_answers_from_the_kept_generation(self):
        """Issue 22: a daemon that announces a change and stops answering at once (killed
        after a save) leaves the mapped generation retired and the round trips failing. The
        lookups then answer from that kept generation, not with the bare key, and not with an
        older remembered round-trip answer (versions going back)."""
        with Client(self.socket, mode="direct") as direct:
            older = direct.lookup("key 2", lang="de")
        write_language(self.resources, "de", 1)
        with Client(self.socket) as client:
            events = client.subscribe(timeout=20)
            generation = wait_for_mapping(client, older["generation"] + 1)
            self.assertIsNotNone(generation)
            # Asked of the daemon before the mapping, in the older generation.
            client._last_known.remember({"op": "lookup", "key": "key 2", "lang": "de"}, older, client._connection.epoch)
            # Given by an earlier daemon (epoch 0, before this connection): its generations
            # counted from its own start, so a larger number is no newer.
            client._last_known.remember({"op": "lookup", "key": "key 3", "lang": "de"},
                                        {**older, "value": "from an earlier daemon", "generation": generation + 50}, 0)
            connection = client._connection
            os.kill(self.daemon.pid, signal.SIGSTOP)
            self.addCleanup(os.kill, self.daemon.pid, signal.SIGCONT)
            wait_until_stopped(self.daemon.pid)
            # What the change event of a save does just before the daemon goes: the mapped
            # generation is retired, and its successor cannot be mapped.
            client._announce(connection, generation + 1)
            self.assertIsNone(client.mapped_generation)
            for index in (1, 2, 3):
                answer = client.lookup(f"key {index}", lang="de", timeout=0.2)
                self.assertEqual((answer["value"], answer["found"], answer["stale"], answer["generation"]),
                                 (value("de", index, 1), True, True, generation))
            # A key no generation has: the bare key, as before.
            self.assertEqual(client.lookup("nowhere", lang="de", timeout=0.2)["value"], "nowhere")
            events.close()

    def test_an_unknown_l10n_mode_is_warned_about_once(self):
        """Issue 22: `L10N_MODE=bogus` was silently ignored. Said in the Swift and C libraries'
        words (`l10nd-client: ... of this library`, the value cut at 100 characters)."""
        environ = {"L10N_MODE": "bogus-mode"}
        with self.assertLogs("l10nd_client", "WARNING") as logged:
            with Client(self.socket, environ=environ) as client:
                self.assertEqual(client.mode, "mapped")
        self.assertEqual(logged.output, ["WARNING:l10nd_client:l10nd-client: L10N_MODE=\"bogus-mode\" is not a mode "
                                         "of this library (mapped, direct); using mapped mode"])
        long = {"L10N_MODE": "x" * 150}
        with self.assertLogs("l10nd_client", "WARNING") as logged:
            Client(self.socket, environ=long).close()
        self.assertEqual(logged.records[0].getMessage(), f"l10nd-client: L10N_MODE=\"{'x' * 100}\" is not a mode of "
                         "this library (mapped, direct); using mapped mode")
        # The value quoted, as the Swift and C libraries write it: a stray space shows, and
        # a quote or a newline in it cannot forge the rest of the line.
        for given, shown in ((" direct", '" direct"'), ('di"rect\nx', '"di\\"rect\\x0Ax"')):
            with self.assertLogs("l10nd_client", "WARNING") as logged:
                Client(self.socket, environ={"L10N_MODE": given}).close()
            self.assertEqual(logged.records[0].getMessage(), f"l10nd-client: L10N_MODE={shown} is not a mode of "
                             "this library (mapped, direct); using mapped mode")
        with self.assertNoLogs("l10nd_client", "WARNING"):
            with Client(self.socket, environ=environ) as client:
                self.assertEqual(client.mode, "mapped")

    def test_direct_mode_maps_nothing(self):
        with Client(self.socket, environ={"L10N_MODE": "direct"}) as client:
            self.assertEqual(client.mode, "direct")
        with Client(self.socket, mode="direct") as client:
            self.assertEqual(client.lookup("key 1", lang="de")["value"], value("de", 1, 0))
            time.sleep(0.2)
            self.assertIsNone(client.mapped_generation)
            gc.collect()
            self.assertEqual(memfd_mappings(), [])


@unittest.skipUnless(BUILT, NOT_BUILT)
@unittest.skipUnless(os.path.isdir(IINA) and os.path.isdir(MASTODON), NO_CORPUS)
class MappedCorpusParityTests(unittest.TestCase):
    """Real tables: iina's .strings and Mastodon's .stringsdict (plural entries)."""

    def setUp(self):
        directory = tempfile.TemporaryDirectory(prefix="l10nd-python-corpus")
        self.addCleanup(directory.cleanup)
        self.socket = os.path.join(directory.name, "l10nd.sock")
        self.daemon = start_daemon(None, self.socket, ["--resources", IINA, "--resources", MASTODON])
        self.addCleanup(lambda: stop_daemon(self.daemon))

    def test_every_key_answers_as_the_daemon_does(self):
        _, segments = map_segments(self.socket)
        requests = []
        for (lang, table), segment in sorted(segments.items()):
            if lang not in CORPUS_LANGUAGES:
                continue
            for number in range(segment.key_count):
                entry = segment.entry(number)
                key = entry["key"]
                requests.append(dict(key=key, lang=lang, table=table))
                if entry["plural"]:
                    requests += [dict(key=key, lang=lang, table=table, count=n) for n in (0, 1, 2, 5, 21)]
        plain = [r for r in requests if "count" not in r]
        requests += [dict(key=r["key"], lang="sv", table=r["table"]) for r in requests[::7]]  # fallbacks
        requests += [dict(key=r["key"] + " ✗", lang=r["lang"], table=r["table"]) for r in requests[::11]]  # misses
        # Fallbacks along chains the daemon builds from CLDR data (parents, likely subtags,
        # Apple's last resorts, preference lists, Accept-Language, the default), and misses.
        for index, request in enumerate(plain[::5]):
            lang = FALLBACK_LANGUAGES[index % len(FALLBACK_LANGUAGES)]
            requests.append(dict(key=request["key"], table=request["table"], **({} if lang is None else {"lang": lang})))
        self.assertGreater(len(requests), 5_000)
        with Client(self.socket, mode="direct") as direct, Client(self.socket) as mapped:
            self.assertIsNotNone(wait_for_mapping(mapped))
            in_place = fallbacks = misses = 0
            for request in requests:
                want = direct.lookup(**request)
                message = {"op": "lookup", **request}
                self.assertEqual(mapped.lookup(**request), want, request)
                answer = mapped._mapped_answer(message)
                if answer is not None:
                    self.assertEqual(answer, want, request)
                    in_place += 1
                    misses += not answer["found"]
                    fallbacks += answer["found"] and answer["lang"] != request.get("lang")
            # Every plain-string lookup is answered in place: only plural entries are asked.
            plural_keys = sum(1 for r in requests if "count" in r)
            self.assertGreater(in_place, (len(requests) - 2 * plural_keys) * 9 // 10)
            self.assertGreater(fallbacks, 1_000)
            self.assertGreater(misses, 500)
            for lang in ("de-AT", "zh-Hant-TW", "pt-PT", "en-AU"):
                self.assertIsNotNone(mapped._mapped_answer({"op": "lookup", "key": "Open", "lang": lang}), lang)
            print(f"\n{len(requests)} corpus lookups equal the daemon's; {in_place} answered in place "
                  f"({fallbacks} from a fallback language, {misses} misses)")


if __name__ == "__main__":
    unittest.main()
