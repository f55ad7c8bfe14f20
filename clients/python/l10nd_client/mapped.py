"""Lookups answered in place from the daemon's mapped segments (PROTOCOL.md `map`).

A `MappedGeneration` is one `map` reply: immutable, so a lookup that took it answers wholly
from that generation. It answers a plain string (no plural entry, no count, no arguments)
exactly as the daemon would, along the lookup's fallback chain: the chain is the daemon's
(protocol 1.7 `chain`: the languages it probes for that `lang` and table in this
generation, built from CLDR data only it carries), asked once per `lang` and table and kept
while the served set stays the same. Without it, a key the asked language's own segment has is still
answered in place (the first candidate of every chain is the tag as written). An answer
from a fallback language, and a key found nowhere, are what the missing-key report lists:
they come back with the answer for the client to report (misses.py). A plural entry, a
count, arguments, and a pseudo-language's derived answer are asked of the daemon.
"""

import struct

from .segments import Damaged

_PLURAL_AND_FLAGS = struct.Struct("<II")

# What `resolve` says when only the daemon's chain for the message's lang and table is wanting.
NEEDS_CHAIN = object()
# The most chains a generation keeps; past it they are asked again (a server answering
# requests of many Accept-Language headers).
CHAIN_CAPACITY = 1024


class Chain:
    """A `chain` reply: the candidates in order, by candidate whether its answer is a
    fallback (reported) and whether it is a pseudo-language (the daemon derives its answer)."""

    def __init__(self, reply):
        self.languages = reply["languages"]
        self.fallback = reply["fallback"]
        self.pseudo = reply["pseudo"]
        if not (isinstance(self.languages, list) and len(self.languages) == len(self.fallback) == len(self.pseudo)):
            raise ValueError("a chain reply whose lists disagree")


def chain_fingerprint(manifest):
    """What the daemon's chains of a generation depend on (LookupService+Chain.swift): the
    (language, table) segments it serves, its development language and the tables' catalog
    source languages; a content-only edit leaves it as it was (pseudo flags follow from the
    language names)."""
    return (manifest.get("development_language"), tuple(sorted((manifest.get("source_languages") or {}).items())),
            frozenset((segment[0], segment[1]) for segment in manifest["segments"]))


class MappedGeneration:
    """The segments of one generation, keyed by (language, table), and the connection whose
    daemon mapped them: its mappings are released when the last lookup using it lets go."""

    def __init__(self, manifest, segments, connection, previous=None):
        self.generation = manifest["generation"]
        self.slab_count = len(manifest["slabs"])
        self.connection = connection
        self.fingerprint = chain_fingerprint(manifest)
        self._segments = segments
        # (lang key, table) -> Chain, or None when the daemon refused it (a bad tag: every
        # lookup is asked, and refused as the daemon refuses it). The same daemon's chains of
        # the `previous` generation hold when it serves the same set (a content-only edit):
        # they are carried over, so the edit costs no `chain` round trip and a daemon gone
        # right after it leaves fallbacks answerable in place.
        carried = previous is not None and previous.connection is connection and previous.fingerprint == self.fingerprint
        self._chains = previous._chains if carried else {}

    @staticmethod
    def chain_key(message):
        """What a message's chain is kept under: its `lang` as sent and its table."""
        lang = message.get("lang")
        return (tuple(lang) if isinstance(lang, list) else lang, message.get("table") or "Localizable")

    def keep_chain(self, message, chain):
        """Keeps the daemon's chain (a Chain, or None for one it refused) for `message`'s lang and table."""
        if len(self._chains) >= CHAIN_CAPACITY:
            self._chains = {}
        self._chains[self.chain_key(message)] = chain

    def answer(self, message):
        """The reply to a `lookup` or `batch` message as the daemon would send it, or None
        when the daemon must answer it (or the chain is not known yet). Raises Damaged."""
        resolved = self.resolve(message)
        return None if resolved is None or resolved is NEEDS_CHAIN else resolved[0]

    def resolve(self, message):
        """(reply, keys to report) for a `lookup` or `batch` message; None when the daemon
        must answer it; NEEDS_CHAIN when its chain would let it be answered here. Raises
        Damaged for a damaged segment."""
        if message.get("args") is not None or "count" in message or "counts" in message:
            return None
        keys = [message["key"]] if message["op"] == "lookup" else message["keys"]
        if not all(isinstance(key, str) for key in keys):
            return None
        table = message.get("table") or "Localizable"
        found = self._own(message, keys, table)
        if found is None:
            key = self.chain_key(message)
            if key not in self._chains:
                return NEEDS_CHAIN
            chain = self._chains[key]
            if chain is None:
                return None
            found = self._along(chain, keys, table)
            if found is None:
                return None
        report = [key for key, (_, _, fallback) in zip(keys, found) if fallback]
        if message["op"] == "lookup":
            value, lang, _ = found[0]
            if lang is None:
                return {"ok": True, "value": value, "found": False, "generation": self.generation}, report
            return {"ok": True, "value": value, "found": True, "lang": lang, "generation": self.generation}, report
        return {"ok": True, "values": [value for value, _, _ in found],
                "found": [lang is not None for _, lang, _ in found], "generation": self.generation}, report

    def _own(self, message, keys, table):
        """Every key's (value, lang, False) from the asked language's own segment, when one
        tag is asked and its segment has every key as a plain string; else None."""
        lang = message.get("lang")
        if not isinstance(lang, str):
            return None
        segment = self._segments.get((lang, table))
        if segment is None:
            return None
        found = []
        for key in keys:
            number = segment.find(key)
            value = None if number is None else _plain_value(segment, number)
            if value is None:
                return None
            found.append((value, lang, False))
        return found

    def _along(self, chain, keys, table):
        """Every key's (value, answering language or None, whether to report it) along the
        chain, as the daemon's probe walks it (SegmentProbe); None when a key needs the
        daemon (a plural entry, a pseudo-language's derived answer)."""
        segments = [self._segments.get((language, table)) for language in chain.languages]
        found = []
        for key in keys:
            answer = None
            for index, segment in enumerate(segments):
                number = segment.find(key) if segment is not None else None
                if number is None:
                    if chain.pseudo[index]:
                        return None  # the daemon derives it from the development language's entry
                    continue
                value = _plain_value(segment, number)
                if value is None:
                    return None  # a plural entry: its value is the daemon's
                answer = (value, chain.languages[index], bool(chain.fallback[index]))
                break
            found.append(answer or (key, None, True))
        return found


def _plain_value(segment, number):
    """Entry `number`'s value in `segment` when it is a plain string; else None."""
    at = segment.entries + 24 * number
    plural, _ = _PLURAL_AND_FLAGS.unpack_from(segment.data, at + 16)
    if plural:
        return None  # its value depends on counts and the language's plural rules
    return segment.string(at + 8)


__all__ = ["Chain", "Damaged", "MappedGeneration", "NEEDS_CHAIN"]
