"""What lookups answer while the daemon is away: the last answer it gave to the same
request, else the key itself (`found: False`), as the Swift client does."""

import collections
import json
import re
import threading

# A printf-style conversion as the daemon formats them (docs/PROTOCOL.md, "Finished strings"):
# optional position, flags, width, precision, length, then the conversion.
_CONVERSION = re.compile(r"%(?:(\d+)\$)?[-+ #0']*(\d+|\*)?(?:\.(\d+))?(?:hh|h|ll|l|q|z|t|j|L)?([@dDiuUxXoOfFeEgGcCsSaAp%])")


# How much a client keeps for an outage: requests carry user-supplied keys and arguments, so
# every distinct one would be kept otherwise (100,000 took ~120 MB per worker). The least
# recently used go first once either bound is passed.
CAPACITY = 10_000  # requests
CAPACITY_BYTES = 8 * 1024 * 1024  # their keys and replies as JSON text


class LastKnownAnswers:
    """The latest reply to each lookup request, at most `capacity` of them and `capacity_bytes`
    of request and reply text (least recently used go first). Shared by every thread of a
    client."""

    def __init__(self, capacity=CAPACITY, capacity_bytes=CAPACITY_BYTES):
        self._capacity = capacity
        self._capacity_bytes = capacity_bytes
        self._replies = collections.OrderedDict()  # request key -> (reply, its size, epoch)
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def size(self):
        """(requests, bytes) kept now."""
        with self._lock:
            return len(self._replies), self._bytes

    def after_fork(self):
        """In a forked child: a lock of its own (a parent's thread may have held this one)."""
        self._lock = threading.Lock()

    @staticmethod
    def request_key(message):
        """One string per distinct request (its id aside)."""
        return json.dumps({k: v for k, v in message.items() if k != "id"}, sort_keys=True, ensure_ascii=False)

    def remember(self, message, reply, epoch=0):
        """Keeps `reply` to `message`, given on the client's connection number `epoch`."""
        key = self.request_key(message)
        size = len(key) + len(json.dumps(reply, ensure_ascii=False))
        if size > self._capacity_bytes:
            return  # it would push out everything else
        with self._lock:
            old = self._replies.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._replies[key] = (reply, size, epoch)
            self._bytes += size
            while len(self._replies) > self._capacity or self._bytes > self._capacity_bytes:
                _, (_, dropped, _) = self._replies.popitem(last=False)
                self._bytes -= dropped

    def recall(self, message):
        """The last reply to `message` marked `stale: True`, else None."""
        return self.recall_with_epoch(message)[0]

    def recall_with_epoch(self, message):
        """The last reply to `message` marked `stale: True` and the epoch it was given in, else
        (None, -1)."""
        with self._lock:
            kept = self._replies.get(self.request_key(message))
        return (None, -1) if kept is None else ({**kept[0], "stale": True}, kept[2])


def key_answer(message):
    """The answer with no daemon and no earlier answer: each key as its own value, not found,
    finished with its arguments where some were given."""
    if message["op"] == "batch":
        keys = message["keys"]
        reply = {"ok": True, "values": list(keys), "found": [False] * len(keys), "stale": True}
        if message.get("args") is not None:
            reply["formatted"] = [None if args is None else format_key(key, args)
                                  for key, args in zip(keys, message["args"])]
        return reply
    reply = {"ok": True, "value": message["key"], "found": False, "stale": True}
    if message.get("args") is not None:
        reply["formatted"] = format_key(message["key"], message["args"])
    return reply


def format_key(key, args):
    """`key` with its conversions filled from `args` in order (or by position), what the daemon
    does for a key found nowhere; a conversion without an argument stays as written."""
    position = 0

    def fill(match):
        nonlocal position
        if match.group(4) == "%":
            return "%"
        index = int(match.group(1)) - 1 if match.group(1) else position
        position += 1
        if not 0 <= index < len(args):
            return match.group(0)
        value = args[index]
        conversion = match.group(4)
        try:
            if conversion in "dDiuUc":
                return str(int(float(value)))
            if conversion in "fFeEgGaA":
                precision = match.group(3)
                return f"{float(value):.{precision or 6}f}" if conversion in "fF" else f"{float(value):{conversion}}"
            if conversion in "xXoO":
                return format(int(float(value)), conversion.lower() if conversion != "X" else "X")
        except (TypeError, ValueError):
            pass
        return value if isinstance(value, str) else f"{value}"

    return _CONVERSION.sub(fill, key)
