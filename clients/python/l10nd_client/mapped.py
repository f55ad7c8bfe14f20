"""Lookups answered in place from the daemon's mapped segments (PROTOCOL.md `map`).

A `MappedGeneration` is one `map` reply: immutable, so a lookup that took it answers wholly
from that generation. It answers only what it can answer exactly as the daemon would without
knowing the fallback chain: a key the asked language's own segment has, as a plain string
(no plural block, no count, no arguments). The first candidate of every chain is the tag as
written (FallbackChain), so such an answer is the daemon's; everything else (a fallback, a
miss, a plural, a finished string) is asked of the daemon, which also records it in its
missing-key report.
"""

import struct

from .segments import Damaged

_PLURAL_AND_FLAGS = struct.Struct("<II")


class MappedGeneration:
    """The segments of one generation, keyed by (language, table), and the connection whose
    daemon mapped them: its mappings are released when the last lookup using it lets go."""

    def __init__(self, manifest, segments, connection):
        self.generation = manifest["generation"]
        self.slab_count = len(manifest["slabs"])
        self.connection = connection
        self._segments = segments

    def answer(self, message):
        """The reply to a `lookup` or `batch` message (a dict as the daemon would send it), or
        None when the daemon must answer it. Raises Damaged for a damaged segment."""
        if message.get("args") is not None or "count" in message or "counts" in message:
            return None
        lang = message.get("lang")
        if not isinstance(lang, str):
            return None  # the daemon's default, a list of preferences
        segment = self._segments.get((lang, message.get("table") or "Localizable"))
        if segment is None:
            return None
        if message["op"] == "lookup":
            value = _plain_value(segment, message["key"])
            if value is None:
                return None
            return {"ok": True, "value": value, "found": True, "lang": lang, "generation": self.generation}
        values = []
        for key in message["keys"]:
            value = _plain_value(segment, key)
            if value is None:
                return None
            values.append(value)
        return {"ok": True, "values": values, "found": [True] * len(values), "generation": self.generation}


def _plain_value(segment, key):
    """`key`'s value in `segment` when it has the key as a plain string; else None."""
    if not isinstance(key, str):
        return None
    number = segment.find(key)
    if number is None:
        return None
    at = segment.entries + 24 * number
    plural, _ = _PLURAL_AND_FLAGS.unpack_from(segment.data, at + 16)
    if plural:
        return None  # its value depends on counts and the language's plural rules
    return segment.string(at + 8)


__all__ = ["Damaged", "MappedGeneration"]
