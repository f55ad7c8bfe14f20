"""Reports the misses and fallbacks of lookups answered in place, as the Swift client's
`MissReporter`: the daemon's missing-key report lists what the language asked for lacked,
and a lookup answered from the mapped segments never reached it.

Keys are collected per (languages, table) and sent as one `batch` request each (the daemon
counts a batch's misses and fallbacks like lookups'), without waiting for the reply: by the
lookup that records one once `interval` seconds have passed since the last send, else by a
timer when that interval ends, so a key reaches the report within `interval` of its lookup.
A key missed many times within one interval is reported once; at most `capacity` distinct
keys wait, so memory stays bounded. A report that finds the daemon away (nothing was sent)
waits again with its keys. A key past the capacity, or in a report sent but not answered, is
not reported, and never silently: one logging warning counts them, in the Swift and C
libraries' words, at most every `notice_interval` seconds and at `close()`, which sends what
is pending (waiting `close_limit` seconds at most for the answers). A miss recorded after
`close()` (a lookup of another thread that was answered in place as the client closed) can
never be sent: it is counted as not sent and said at once.
"""

import concurrent.futures
import logging
import threading
import time

logger = logging.getLogger("l10nd_client")


class MissReporter:
    """Collects keys to report and hands each (lang, table)'s to `send(lang, table, keys)`,
    which returns the future of the daemon's reply, or None when no connection is up."""

    def __init__(self, send, interval=0.2, capacity=4096, notice_interval=60.0, close_limit=0.5):
        self._send = send
        self._interval = interval
        self._capacity = capacity
        self._notice_interval = notice_interval
        self._close_limit = close_limit
        self._lock = threading.Lock()
        self._pending = {}  # (lang key, table) -> (lang as sent, {key: None}, in order)
        self._count = 0
        self._last_sent = None  # monotonic time of the last send; None: never
        self._timer = None
        self._in_flight = {}  # the future of a report sent -> its number of keys
        # Keys not reported since the last warning said so: no room for them, report failed.
        self._past_capacity = self._unsent = 0
        self._last_said = None  # monotonic time of the last such warning; None: never
        self._closed = False  # after close(): nothing is sent any more

    def record(self, lang, table, keys):
        """Notes `keys` (a lookup's or a batch's) as missed or answered by a fallback for
        `lang` (the request's `lang`: a tag, a list or None) in `table` (None: Localizable)."""
        now = time.monotonic()
        with self._lock:
            if self._closed:
                # No report will send them, and no later close() say them.
                self._unsent += len(keys)
                late = True
            else:
                late = False
        if late:
            self._say_unreported(now=True)
            return
        with self._lock:
            self._hold(lang, table or "Localizable", keys)
            due = self._last_sent is None or now - self._last_sent >= self._interval
            if not due and self._timer is None:
                self._timer = threading.Timer(self._interval - (now - self._last_sent), self.flush)
                self._timer.daemon = True
                self._timer.name = "l10nd-misses"  # named, so a program can tell the library's threads
                self._timer.start()
        if due:
            self.flush()

    def _hold(self, lang, table, keys):
        """With the lock held: `keys` wait to be sent unless they do; past the capacity they
        are counted instead."""
        _, waiting = self._pending.setdefault((_hashable(lang), table), (lang, {}))
        for key in keys:
            if key in waiting:
                continue
            if self._count < self._capacity:
                waiting[key] = None
                self._count += 1
            else:
                self._past_capacity += 1

    def flush(self):
        """Sends what is pending now; returns the futures of the reports sent."""
        with self._lock:
            pending, self._pending, self._count = self._pending, {}, 0
            self._last_sent = time.monotonic()
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        sent = []
        for (_, table), (lang, keys) in pending.items():
            if not keys:
                continue
            future = self._send(lang, table, list(keys))
            if future is None:
                with self._lock:  # the daemon is away: they wait for the next report
                    self._hold(lang, table, keys)
                continue
            with self._lock:
                self._in_flight[future] = len(keys)
            future.add_done_callback(self._settled)
            sent.append(future)
        self._say_unreported()
        return sent

    def _settled(self, future):
        with self._lock:
            count = self._in_flight.pop(future, 0)
            if future.cancelled() or future.exception() is not None:
                self._unsent += count
        self._say_unreported()

    def close(self):
        """Sends what is pending, waits for the answers (`close_limit` seconds at most), and
        says what was not reported: no later report will send it."""
        concurrent.futures.wait(self.flush(), timeout=self._close_limit)
        with self._lock:
            self._closed = True
            self._unsent += self._count + sum(self._in_flight.values())
            self._pending, self._count, self._in_flight = {}, 0, {}
        self._say_unreported(now=True)

    def _say_unreported(self, now=False):
        """Logs the keys not reported since the last such warning, if any: at most every
        `notice_interval` seconds unless `now`, so a long outage says it once a minute, not
        once a lookup."""
        clock = time.monotonic()
        with self._lock:
            past_capacity, unsent = self._past_capacity, self._unsent
            if not (past_capacity or unsent) or not (
                    now or self._last_said is None or clock - self._last_said >= self._notice_interval):
                return
            self._past_capacity = self._unsent = 0
            self._last_said = clock
        logger.warning("l10nd-client: %d misses and fallbacks answered in place were not reported to l10nd's "
                       "missing-key report (%d past the %d keys that may wait, %d that could not be sent)",
                       past_capacity + unsent, past_capacity, self._capacity, unsent)

    def after_fork(self):
        """In a forked child: a fresh lock, no timer, nothing pending (the parent reports its own);
        a closed reporter stays closed."""
        self._lock = threading.Lock()
        self._pending, self._count, self._last_sent, self._timer = {}, 0, None, None
        self._in_flight, self._past_capacity, self._unsent, self._last_said = {}, 0, 0, None


def _hashable(lang):
    return tuple(lang) if isinstance(lang, list) else lang
