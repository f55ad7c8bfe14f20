#!/usr/bin/env python3
"""The command line of the reader of l10nd's compiled segments (docs/FORMAT.md, version 3.0), standard library only.

The reader is l10nd_client/segments.py (standard library only, written from docs/FORMAT.md
alone); the test suite (SegmentsPythonTests) checks its answers against the Swift lookup's.

    python3 l10nd_segments.py SEGMENT_FILE... [--queries QUERIES_FILE]   # queries on stdin without one

Each segment file is one (language, table). Each query line is {"key": ..., "table": ...,
"chain": [language, ...]} (table optional): the fallback chain as the lookup resolves it
(FallbackChain, with the table's catalog source language), which this reader walks,
probing each language's segment in turn. Each output line is {"found": false} or
{"found": true, "value": ..., "lang": ..., "plural": null or {"format", "variables":
{name: {"type", "arg", "forms": {category: form}}}}}. A damaged segment gives {"error": ...}
and exit status 1.
"""

import json
import struct
import sys

from l10nd_client.segments import Damaged, Segment, crc32c, key_hash, lookup, map_segments  # noqa: F401


def main():
    arguments = sys.argv[1:]
    queries = sys.stdin
    if "--queries" in arguments:
        at = arguments.index("--queries")
        queries = open(arguments[at + 1], encoding="utf-8")
        del arguments[at:at + 2]
    segments = {}
    for path in arguments:
        with open(path, "rb") as file:
            data = file.read()
        try:
            segment = Segment(data)
        except (Damaged, struct.error) as error:
            print(json.dumps({"error": "%s: %s" % (path, error)}))
            return 1
        segments[(segment.language, segment.table)] = segment
    for line in queries:
        if not line.strip():
            continue
        query = json.loads(line)
        try:
            answer = lookup(segments, query["key"], query["chain"], query.get("table"))
        except (Damaged, struct.error) as error:
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        result = {"found": False} if answer is None else dict(found=True, **answer)
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
