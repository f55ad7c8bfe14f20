"""Reports the misses and fallbacks of lookups answered in place, as the Swift client's
`MissReporter`: the daemon's missing-key report lists what the language asked for lacked,
and a lookup answered from the mapped segments never reached it.

Keys are collected per (languages, table) and sent as one `batch` request each (the daemon
counts a batch's misses and fallbacks like lookups'), without waiting for the reply: by the
lookup that records one once `interval` seconds have passed since the last send, else by a
timer when that interval ends, so a key reaches the report within `interval` of its lookup.
A key missed many times within one interval is reported once; at most `capacity` distinct
keys wait (more are dropped until the next send), so memory stays bounded. `close()` sends
what is pending.
"""

import threading
import time


class MissReporter:
    """Collects keys to report and hands each (lang, table)'s to `send(lang, table, keys)`."""

    def __init__(self, send, interval=0.2, capacity=4096):
        self._send = send
        self._interval = interval
        self._capacity = capacity
        self._lock = threading.Lock()
        self._pending = {}  # (lang key, table) -> (lang as sent, {key: None}, in order)
        self._count = 0
        self._last_sent = None  # monotonic time of the last send; None: never
        self._timer = None

    def record(self, lang, table, keys):
        """Notes `keys` (a lookup's or a batch's) as missed or answered by a fallback for
        `lang` (the request's `lang`: a tag, a list or None) in `table` (None: Localizable)."""
        name = (_hashable(lang), table or "Localizable")
        now = time.monotonic()
        with self._lock:
            _, waiting = self._pending.setdefault(name, (lang, {}))
            for key in keys:
                if self._count < self._capacity and key not in waiting:
                    waiting[key] = None
                    self._count += 1
            due = self._last_sent is None or now - self._last_sent >= self._interval
            if not due and self._timer is None:
                self._timer = threading.Timer(self._interval - (now - self._last_sent), self.flush)
                self._timer.daemon = True
                self._timer.start()
        if due:
            self.flush()

    def flush(self):
        """Sends what is pending now."""
        with self._lock:
            pending, self._pending, self._count = self._pending, {}, 0
            self._last_sent = time.monotonic()
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        for (_, table), (lang, keys) in pending.items():
            if keys:
                self._send(lang, table, list(keys))

    def after_fork(self):
        """In a forked child: a fresh lock, no timer, nothing pending (the parent reports its own)."""
        self._lock = threading.Lock()
        self._pending, self._count, self._last_sent, self._timer = {}, 0, None, None


def _hashable(lang):
    return tuple(lang) if isinstance(lang, list) else lang
