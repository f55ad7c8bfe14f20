"""The client: one connection shared by every thread, reconnected after a restart."""

import concurrent.futures
import errno
import logging
import os
import queue
import socket
import struct
import threading
import time
import weakref

from .connection import Connection, ConnectionLost
from .errors import CallTimeout, DaemonUnavailable, L10ndError, RequestRefused
from .last_known import LastKnownAnswers, key_answer
from .mapped import NEEDS_CHAIN, Chain, MappedGeneration
from .misses import MissReporter
from .segments import Damaged, MapRefused, map_manifest
from .socket_path import address, default_socket_path, passed_over

logger = logging.getLogger("l10nd_client")

# Waits between connection attempts while the daemon is away: doubling, at most the last,
# so a restarted daemon is found within half a second by the background attempts. A call
# does not wait for them: it tries at once when the socket file is not the one the last
# attempt failed at (a daemon binds a new one), so a call made once the new daemon listens
# asks it (see _socket_state).
FIRST_RETRY = 0.05
LAST_RETRY = 0.5
# A socket file changed less than this before an attempt failed there may be a daemon
# between its bind and its listen: calls try it at once until it is older.
STARTING = 1.0

_END = object()  # what a closed client hands its subscriptions

MODES = ("mapped", "direct")
# Attempts at mapping a generation before the client gives up until the next change: a map
# that keeps failing (its reason logged) leaves lookups to the daemon.
MAP_ATTEMPTS = 5


class Client:
    """A client of l10nd, safe to share between any number of threads.

    Requests from all threads are pipelined on one connection and each reply goes back to
    its caller. When the daemon goes away (a restart), the client reconnects by itself with
    backoff and subscribes again for its subscriptions; meanwhile `lookup`, `localized` and
    `batch` answer at once with the last answer the daemon gave to the same request (marked
    `stale: True`), else the key itself (`found: False`), and log one line per outage.
    Other requests raise `DaemonUnavailable`. Every call waits at most `timeout` seconds
    (per call: `timeout=`); a lookup past it answers as if the daemon were away, another
    request raises `CallTimeout`.

    A daemon that is there but does not answer (stopped, or stuck) costs one time limit, not
    one per call: after a call times out, the connection is held unhealthy and every call
    answers at once as if the daemon were away (lookups from the last answers, other
    requests `CallTimeout`), while one `hello` waits in the background; its answer (or the
    connection's end) makes the connection usable again.

    `mode` is where lookups come from, as the Swift client's `LookupMode`: `"mapped"` (the
    default) maps the daemon's compiled segments (protocol 1.6 `map`, on its one connection,
    pipelined with the lookups) and answers a plain string in place, with no round trip, along the whole fallback
    chain (the daemon's, asked once per `lang` and table: protocol 1.7 `chain`, kept across
    generations that serve the same languages and tables, so a content-only edit needs none), misses too; misses and fallbacks answered so are reported to the daemon's
    missing-key report in the background (misses.py). It subscribes to changes and maps each
    new generation as it is announced, asking the daemon until it is mapped (a lookup never
    answers from a generation older than one announced, nor from two generations). A plural
    entry, a count or arguments, a pseudo-language's derived answer, and every lookup of a
    daemon that refuses `map` (older than 1.6, or `unavailable`) are asked of the daemon.
    While the daemon is away the last
    generation mapped answers, even one a change retired just before the daemon went: a
    lookup it cannot reach answers with the newer (by generation) of the daemon's last answer
    to it and the kept generation's. `"direct"` asks the daemon on every lookup. None (the default)
    is `"direct"` when the environment says `L10N_MODE=direct`, as for the Swift and C
    clients, else `"mapped"`; another value than `mapped` or `direct` there is logged once
    (a warning) and mapped mode used.

    `path` is the socket; None follows the rule of `default_socket_path` at each connection.
    `environ` replaces os.environ for that rule (for tests).
    """

    def __init__(self, path=None, timeout=10.0, *, mode=None, environ=None):
        if mode is None:
            mode = _mode_from_environment(os.environ if environ is None else environ)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode
        self.timeout = timeout
        self._explicit_path = path
        self._environ = environ
        self._lock = threading.Lock()  # everything below but _last_known
        self._connect_lock = threading.Lock()  # one connection attempt at a time
        self._connection = None
        self._closed = False
        self._stop = threading.Event()
        self._retry = FIRST_RETRY
        self._next_attempt = 0.0
        self._unavailable = None  # the DaemonUnavailable of the last failed attempt
        self._unavailable_socket = None  # _socket_state of the path at that attempt
        self._away_logged = False
        self._away_since = 0.0  # when the outage's warning was logged
        self._back_since = 0.0  # when the last outage ended
        self._reconnecting = False
        self._stalled = None  # the connection that let a call time out, until it answers again
        self._subscribers = set()
        self._last_known = LastKnownAnswers()
        self._mapped = None  # the MappedGeneration lookups answer from, if any
        self._chains_refused = None  # the connection whose daemon has no `chain` (older than 1.7)
        self._misses = MissReporter(self._report_misses)
        self._announced = (None, 0)  # the newest generation a connection announced or answered with
        self._map_refused = None  # the connection whose daemon refused `map`, until a change
        self._mapping = False  # whether the mapping thread runs
        self._epoch = 0  # connections opened
        if hasattr(os, "register_at_fork"):
            # A server that forks its workers after making the client (gunicorn --preload):
            # the child has the socket but not the reader thread, so it gets its own connection.
            reference = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: (reference() or _Gone)._after_fork())
        try:
            self._connect()
        except DaemonUnavailable:
            self._reconnect_in_background()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def path(self):
        """The socket of the current connection, else the one the next attempt will try."""
        connection = self._connection
        if connection is not None:
            return connection.path
        return self._explicit_path or default_socket_path(self._environ)

    @property
    def mapped_generation(self):
        """The generation lookups answer from in place now, or None (mode "direct", a daemon
        that refuses `map`, or a new generation not mapped yet: lookups are asked)."""
        mapped = self._usable_mapping()
        return None if mapped is None else mapped.generation

    @property
    def connected(self):
        """Whether a connection to the daemon is open now."""
        return self._connection is not None

    def close(self):
        """Closes the connection, stops reconnecting and ends every subscription."""
        # The misses of lookups answered in place: sent (and answered, within the reporter's
        # limit) while the connection is still the client's; what cannot be sent is said.
        # A miss recorded after this is said at once.
        self._misses.close()
        with self._lock:
            self._closed = True
            connection, self._connection = self._connection, None
            subscribers = list(self._subscribers)
            self._mapped = None
        self._stop.set()
        if connection is not None:
            connection.abort()
        for deliver in subscribers:
            deliver(_END)

    def _after_fork(self):
        """In a forked child: forget the parent's connection, threads and locks (a lock held
        by a parent's thread at the fork would stay held forever); connect again on first use."""
        connection = self._connection
        self._lock = threading.Lock()
        self._connect_lock = threading.Lock()
        self._stop = threading.Event()
        self._connection = None
        self._reconnecting = False
        self._stalled = None
        self._unavailable = None
        self._unavailable_socket = None
        self._next_attempt = 0.0
        self._last_known.after_fork()
        self._misses.after_fork()
        self._chains_refused = None
        # The parent's events do not reach the child: it maps again once it has connected.
        self._mapped = None
        self._announced = (None, 0)
        self._map_refused = None
        self._mapping = False
        if connection is not None:
            connection.close_in_child()
        if self._closed:
            self._stop.set()
        elif self._subscribers or self.mode == "mapped":
            self._reconnect_in_background()

    # MARK: Requests

    def request(self, op, timeout=None, **fields):
        """Sends one request and returns its reply. Raises RequestRefused for `ok: false`,
        DaemonUnavailable when no daemon answers, CallTimeout past the time limit."""
        message = _message(op, fields)
        limit = self._limit(timeout)
        return self._wait(*self._begin(message, limit), message, limit)

    def lookup(self, key, lang=None, table=None, args=None, count=None, counts=None, timeout=None):
        """The whole reply: value, found, lang, and with args the finished string (formatted)."""
        return self._answer(_message("lookup", dict(key=key, lang=lang, table=table, args=args, count=count,
                                                    counts=counts)), timeout)

    def localized(self, key, *args, lang=None, table=None, timeout=None):
        """The finished string: the value formatted with args, plural forms picked by them."""
        return self.lookup(key, lang=lang, table=table, args=list(args), timeout=timeout)["formatted"]

    def batch(self, keys, lang=None, table=None, args=None, timeout=None):
        """One string per key: finished where args gives a list for it, else the value."""
        reply = self._answer(_message("batch", dict(keys=list(keys), lang=lang, table=table, args=args)), timeout)
        return _batch_strings(reply)

    def subscribe(self, timeout=None):
        """A `Subscription`: iterate it for each `changed` event, from now on. It outlives a
        daemon restart (subscribed again on the new connection). `timeout` bounds each wait
        for an event (None: forever); it is subscribed before this returns when a daemon is there."""
        subscription = Subscription(self, timeout)
        try:
            self._subscribe_now(self._limit(None))
        except BaseException:
            subscription.close()
            raise
        return subscription

    # MARK: Shared with AsyncClient

    def _limit(self, timeout):
        return self.timeout if timeout is None else timeout

    def _answer(self, message, timeout):
        mapped = self._mapped_answer(message)
        if mapped is not None:
            return mapped
        limit = self._limit(timeout)
        sent = time.monotonic()
        try:
            connection, future = self._begin(message, limit)
            reply = self._wait(connection, future, message, limit)
        except L10ndError as error:
            return self._unanswered(message, error, sent)
        self._answered(message, reply, sent, connection)
        return reply

    def _unanswered(self, message, error, sent):
        """A lookup's answer when the daemon gave none: a refusal of the request itself is
        raised; an absent, slow or full daemon (`unavailable`) gets the fallback answer."""
        if isinstance(error, RequestRefused) and error.code != "unavailable":
            raise error
        return self._fallback(message, error, sent)

    def _answered(self, message, reply, sent, connection):
        """Keeps the daemon's answer for an outage; one to a request `sent` after the outage's
        warning ends the outage (replies already on their way when the daemon went do not).
        A generation newer than the one mapped is announced: no lookup after this one answers
        from the older."""
        self._last_known.remember(message, reply, connection.epoch)
        generation = reply.get("generation")
        if isinstance(generation, int):
            self._announce(connection, generation)
        if self._away_logged and sent > self._away_since:
            with self._lock:
                was_away = self._away_logged and sent > self._away_since
                if was_away:
                    self._away_logged = False
                    self._back_since = time.monotonic()
            if was_away:
                logger.info("l10nd answers again on %s", self.path)

    def _begin(self, message, limit):
        """Sends `message` on the connection (opening one if none is open and it is time to
        try), waiting at most `limit` to send; returns the connection and the reply's future."""
        connection = self._connection or self._connect_if_due()
        stalled = self._stalled
        if stalled is not None and stalled[0] is connection:
            raise CallTimeout(message["op"], stalled[1], waiting=True)
        return connection, connection.submit(message, limit)

    def _wait(self, connection, future, message, limit):
        try:
            return _checked(future.result(timeout=limit))
        except concurrent.futures.TimeoutError:
            connection.forget(future)
            self._timed_out(connection, limit)
            raise CallTimeout(message["op"], limit) from None
        except (ConnectionLost, TimeoutError) as lost:
            raise self._lost(connection, lost) from None

    def _timed_out(self, connection, limit):
        """A call on `connection` got no answer within `limit`: the calls after it answer at
        once without asking (a stopped daemon would cost each its whole limit), until the
        `hello` sent now is answered or the connection ends."""
        with self._lock:
            if self._stalled is not None and self._stalled[0] is connection:
                return
            self._stalled = (connection, limit)
        # On a thread of its own: the send may wait for room in a full socket buffer.
        threading.Thread(target=self._probe, args=(connection,), name="l10nd-probe", daemon=True).start()

    def _probe(self, connection):
        future = connection.submit({"op": "hello"}, self.timeout)
        try:
            future.result()  # as long as it takes: the daemon answers when it runs again
        except BaseException:  # the connection ended: the next call connects anew
            pass
        with self._lock:
            if self._stalled is not None and self._stalled[0] is connection:
                self._stalled = None

    def _lost(self, connection, lost):
        return DaemonUnavailable([connection.path], [getattr(lost, "reason", None) or lost])

    def _fallback(self, message, error, sent):
        """The answer while the daemon is away, and the one log line of the outage. A call
        `sent` before the last outage ended failed in that outage (its thread was slow to get
        here): it starts no new one."""
        with self._lock:
            first = not self._away_logged and sent >= self._back_since
            if first:
                self._away_logged = True
                self._away_since = time.monotonic()
        if first:
            logger.warning("%s; lookups answer with the last answers, else the keys, until it is back", error)
        return self._last_known_answer(message) or key_answer(message)

    def _last_known_answer(self, message):
        """The newer of the daemon's last answer to `message` and the answer of the newest
        generation mapped, kept even when a change retired it (the daemon often goes right
        after announcing one: its round trips fail while the retired generation still
        answers), as the Swift client's `DaemonLookups.lastKnown`; None when neither has it.
        An answer from an earlier connection than the mapping's (an earlier daemon: its
        generations count from its own start) or without a generation is the older."""
        remembered, epoch = self._last_known.recall_with_epoch(message)
        mapped = self._mapped
        if mapped is None or (remembered is not None and
                              (epoch, _generation(remembered)) > (mapped.connection.epoch, mapped.generation)):
            return remembered
        try:
            kept = mapped.answer(message)
        except (Damaged, struct.error, UnicodeError):
            kept = None
        return remembered if kept is None else {**kept, "stale": True}

    # MARK: Connecting

    def _connect_if_due(self):
        with self._lock:
            if self._closed:
                raise L10ndError("closed", "this client is closed")
            unavailable = self._unavailable
            waiting = time.monotonic() < self._next_attempt and unavailable is not None
            tried_at = self._unavailable_socket
        if waiting and _socket_state(self._explicit_path or default_socket_path(self._environ)) == tried_at:
            # Not yet time to try again, and no new socket since: the last attempt's reasons (a
            # new exception per caller, so no two threads raise, and write the traceback of,
            # one object).
            raise DaemonUnavailable(unavailable.paths, unavailable.errors)
        return self._connect()

    def _connect(self):
        """Opens the connection by the socket rule, or raises DaemonUnavailable naming every
        path tried."""
        with self._connect_lock:
            if self._connection is not None:
                return self._connection
            path = self._explicit_path or default_socket_path(self._environ)
            sock = None
            try:
                # Inside the try: short of descriptors (EMFILE) the socket itself fails, and that
                # is the daemon being unavailable too (lookups fall back), not a raw OSError.
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(self.timeout)
                sock.connect(address(path))
            except OSError as error:
                if sock is not None:
                    sock.close()
                passed = [] if self._explicit_path else passed_over(path, self._environ)
                missing = [FileNotFoundError(errno.ENOENT, "no such socket") for _ in passed]
                unavailable = DaemonUnavailable(passed + [path], missing + [error])
                state = _socket_state(path)
                with self._lock:
                    self._unavailable = unavailable
                    self._unavailable_socket = state
                    self._next_attempt = time.monotonic() + self._retry
                    self._retry = min(self._retry * 2, LAST_RETRY)
                raise unavailable from None
            return self._opened(Connection(sock, path, self._deliver, self._ended))

    def _opened(self, connection):
        with self._lock:
            if self._closed:
                connection.abort()
                raise L10ndError("closed", "this client is closed")
            self._epoch += 1
            connection.epoch = self._epoch
            self._connection = connection
            self._unavailable = None
            subscribed = bool(self._subscribers) or self.mode == "mapped"
        if subscribed:
            self._subscribe_on(connection)
        if self.mode == "mapped":
            self._map_in_background()
        return connection

    def _ended(self, connection):
        """On the reader thread of a connection that ended: reconnect in the background."""
        with self._lock:
            if self._connection is connection:
                self._connection = None
            # A connection that answered was a daemon up: look again soon. One refused at once
            # (the daemon at its connection limit) backs off like a failed attempt.
            if connection.answered:
                self._retry = FIRST_RETRY
            self._next_attempt = time.monotonic() + self._retry
            self._retry = min(self._retry * 2, LAST_RETRY)
        self._reconnect_in_background()

    def _reconnect_in_background(self):
        with self._lock:
            if self._closed or self._reconnecting:
                return
            self._reconnecting = True
        threading.Thread(target=self._reconnect, name="l10nd-reconnect", daemon=True).start()

    def _reconnect(self):
        try:
            while not self._closed and self._connection is None:
                if self._stop.wait(max(0.0, self._next_attempt - time.monotonic())):
                    return
                try:
                    self._connect()
                except (DaemonUnavailable, L10ndError):
                    continue
        finally:
            with self._lock:
                self._reconnecting = False

    # MARK: Subscriptions

    def _add_subscriber(self, deliver):
        with self._lock:
            self._subscribers.add(deliver)

    def _remove_subscriber(self, deliver):
        with self._lock:
            self._subscribers.discard(deliver)

    def _subscribe_now(self, limit):
        """Subscribes the current connection, if there is one, and waits for the daemon's yes."""
        connection = self._connection
        if connection is None:
            return  # done when the connection is opened
        try:
            _checked(self._subscribe_on(connection).result(timeout=limit))
        except concurrent.futures.TimeoutError:
            raise CallTimeout("subscribe", limit) from None
        except (ConnectionLost, TimeoutError):
            pass  # subscribed again on the next connection

    def _subscribe_on(self, connection):
        """The future of `connection`'s one `subscribe` request, sent by the first to ask."""
        with connection.subscription_lock:
            if connection.subscription is None:
                connection.subscription = connection.submit({"op": "subscribe"}, self.timeout)
            return connection.subscription

    def _deliver(self, event, connection):
        generation = event.get("generation")
        if isinstance(generation, int):
            # Before any subscriber sees the event: a lookup made after it is never older.
            self._announce(connection, generation)
        with self._lock:
            subscribers = list(self._subscribers)
        for deliver in subscribers:
            deliver(event)

    # MARK: Mapped lookups

    def _usable_mapping(self):
        """The mapped generation lookups may answer from now: the one mapped from the current
        connection, unless a newer generation was announced on it; with no connection (the
        daemon away), the last one mapped, unless a newer generation was announced on its
        connection before the daemon went (a change answered, not yet mapped): then no
        mapping answers unmarked, and the outage's fallback answers (the newer of the last
        answer and that mapping, marked stale)."""
        mapped = self._mapped
        if mapped is None:
            return None
        connection = self._connection
        announced_on, announced = self._announced
        if connection is None:
            return None if announced_on is mapped.connection and announced > mapped.generation else mapped
        if mapped.connection is not connection or (announced_on is connection and announced > mapped.generation):
            return None
        return mapped

    def _mapped_answer(self, message):
        """The answer from the mapped segments, or None when the daemon must answer. The
        first lookup of a `lang` and table in a generation asks the daemon its chain."""
        mapped, answer = self._in_place(message)
        if answer is NEEDS_CHAIN:
            connection = mapped.connection
            try:
                reply = self._wait(*self._begin(self._chain_message(message), self.timeout),
                                   {"op": "chain"}, self.timeout)
            except L10ndError as error:
                reply = error
            self._chain_answered(mapped, connection, message, reply)
            mapped, answer = self._in_place(message)
        return None if answer is NEEDS_CHAIN else answer

    def _in_place(self, message):
        """(the generation used, the answer from the mapped segments, None when the daemon
        must answer, or NEEDS_CHAIN when the daemon's chain for its lang and table is
        wanting). A miss or a fallback answered is reported for the missing-key report."""
        mapped = self._usable_mapping()
        if mapped is None:
            return None, None
        try:
            resolved = mapped.resolve(message)
        except (Damaged, struct.error, UnicodeError) as error:
            logger.warning("a mapped segment of generation %s is damaged (%s); lookups ask l10nd",
                           mapped.generation, error)
            with self._lock:
                if self._mapped is mapped:
                    self._mapped = None
            return None, None
        if resolved is NEEDS_CHAIN and self._chains_refused is mapped.connection:
            return mapped, None
        if resolved is None or resolved is NEEDS_CHAIN:
            return mapped, resolved
        answer, report = resolved
        if report:
            self._misses.record(message.get("lang"), message.get("table"), report)
        return mapped, answer

    @staticmethod
    def _chain_message(message):
        return _message("chain", dict(lang=message.get("lang"), table=message.get("table")))

    def _chain_answered(self, mapped, connection, message, reply):
        """Keeps the daemon's `chain` reply (a dict, or the L10ndError it gave) for
        `message`'s lang and table in `mapped`, when it is of that generation. A daemon
        older than 1.7 (`unknown_op`) has no chains: its lookups are asked (but those the
        asked language's own segment answers); a refused tag is asked per lookup, so each
        gets the daemon's refusal."""
        if isinstance(reply, RequestRefused):
            if reply.code == "unknown_op":
                self._chains_refused = connection
            elif reply.code == "bad_request":
                mapped.keep_chain(message, None)
            return
        if isinstance(reply, L10ndError):
            return  # the daemon is away or slow: the lookup's own round trip copes
        generation = reply.get("generation")
        if isinstance(generation, int) and generation != mapped.generation:
            self._announce(connection, generation)  # a newer generation: mapped next, asked meanwhile
            return
        try:
            mapped.keep_chain(message, Chain(reply))
        except (KeyError, TypeError, ValueError) as error:
            logger.warning("l10nd's chain for %r is malformed (%s); such lookups ask it", message.get("lang"), error)
            mapped.keep_chain(message, None)

    def _report_misses(self, lang, table, keys):
        """Sends one `batch` of keys answered in place as misses or fallbacks, so the
        daemon's missing-key report lists them; returns the future of the reply (not waited
        for here), or None when the daemon is away (nothing was sent: the keys wait)."""
        connection = self._connection
        if connection is None:
            return None
        try:
            return connection.submit(_message("batch", dict(keys=keys, lang=lang, table=table)), self.timeout)
        except (L10ndError, ConnectionLost, OSError) as error:
            failed = concurrent.futures.Future()
            failed.set_exception(error)
            return failed

    def _announce(self, connection, generation):
        """Notes that `connection`'s daemon serves `generation`, and maps it if it is newer."""
        with self._lock:
            announced_on, announced = self._announced
            if announced_on is connection and announced >= generation:
                return
            self._announced = (connection, generation)
            if self._map_refused is connection:
                self._map_refused = None  # a change may have made the set shareable again
            mapped = self._mapped
        if self.mode == "mapped" and (mapped is None or mapped.generation < generation
                                      or mapped.connection is not connection):
            self._map_in_background()

    def _map_in_background(self):
        with self._lock:
            if self._closed or self._mapping:
                return
            self._mapping = True
        threading.Thread(target=self._map, name="l10nd-map", daemon=True).start()

    def _needs_map(self, connection):
        """Whether `connection` (the current one) lacks a mapping of its newest generation."""
        mapped = self._mapped
        announced_on, announced = self._announced
        if self._map_refused is connection:
            return False
        return mapped is None or mapped.connection is not connection or (
            announced_on is connection and announced > mapped.generation)

    def _map(self):
        """On the mapping thread: maps the current connection's newest generation, after its
        subscription is confirmed (so no change after the map goes unannounced)."""
        failures = 0
        try:
            while not self._closed and failures < MAP_ATTEMPTS:
                connection = self._connection
                if connection is None or not self._needs_map(connection):
                    return
                try:
                    _checked(self._subscribe_on(connection).result(timeout=self.timeout))
                    # On the client's one connection, pipelined with the lookups: its reader
                    # hands the reply the slabs' descriptors (connection.py).
                    future = connection.submit({"op": "map"}, self.timeout)
                    try:
                        reply = future.result(timeout=self.timeout)
                    except concurrent.futures.TimeoutError:
                        connection.forget(future)  # its descriptors are closed when it comes
                        raise
                    manifest, segments = map_manifest(reply, reply.pop("descriptors", []))
                except MapRefused as refused:
                    logger.info("l10nd does not hand out its segments (%s); lookups ask it", refused)
                    with self._lock:
                        self._map_refused = connection
                    return
                except (L10ndError, ConnectionLost, concurrent.futures.TimeoutError, TimeoutError):
                    return  # the connection ended or stalls: its successor maps again
                except (OSError, Damaged, struct.error, ValueError, KeyError, TypeError) as error:
                    failures += 1
                    if self._connection is not connection:
                        continue  # the daemon went (its map connection was cut): its successor maps
                    if failures == MAP_ATTEMPTS:
                        logger.warning("mapping l10nd's segments failed %d times (%s); lookups ask it until the "
                                       "next change", failures, error)
                    self._stop.wait(FIRST_RETRY * failures)
                    continue
                mapped = MappedGeneration(manifest, segments, connection, self._mapped)
                with self._lock:
                    announced_on, announced = self._announced
                    current = self._connection is connection and not (
                        announced_on is connection and announced > mapped.generation)
                    if current and not self._closed:
                        self._mapped = mapped
                if not current:
                    # A change came (or the daemon went) while mapping: look again, a few times.
                    failures += 1
        finally:
            with self._lock:
                self._mapping = False
            connection = self._connection
            # A change announced as this thread gave up its turn would otherwise wait for the next.
            if not self._closed and failures < MAP_ATTEMPTS and connection is not None and self._needs_map(connection):
                self._map_in_background()


def _socket_state(path):
    """What a daemon that binds `path` anew changes: the file's device, inode and change time
    (None when there is none). Never equal to another state (a fresh object) when no file
    can say: an abstract `@name`, or a file changed within STARTING seconds (a daemon may be
    between its bind and its listen), so such a socket is tried at every call."""
    if path.startswith("@"):
        return object()
    try:
        status = os.stat(path)
    except OSError:
        return (path, None)
    if time.time() - status.st_ctime < STARTING:
        return object()
    return (path, status.st_dev, status.st_ino, status.st_ctime_ns)


_mode_warned = set()  # the L10N_MODE values already warned about, once per process each


def _mode_from_environment(environ):
    """The mode `L10N_MODE` names: `direct`, else mapped. A value that names no mode of this
    client is said once (a logging warning), as is `cached`, which the Swift client also
    takes as mapped; `embedded` (the Swift client's own files) is none of this client's."""
    value = environ.get("L10N_MODE")
    if value in (None, "", "mapped", "direct"):
        return "direct" if value == "direct" else "mapped"
    if value not in _mode_warned:
        _mode_warned.add(value)
        # The Swift and C libraries' words (Localizer.swift, l10nd.c), so one grep finds them all.
        if value == "cached":
            logger.warning("l10nd-client: L10N_MODE=cached is no longer a mode of its own; using mapped mode (the "
                           "same answers)")
        else:
            logger.warning("l10nd-client: L10N_MODE=%s is not a mode of this library (mapped, direct); using mapped "
                           "mode", _quoted(value[:100]))
    return "mapped"


def _quoted(value):
    """`value` in double quotes, as the Swift and C libraries write a value that names no mode:
    a space or an empty word around it shows (`L10N_MODE=" direct"`), and `"`, `\\` and control
    characters are escaped (`\\"`, `\\\\`, `\\x0A`), so one line stays one line."""
    return '"' + "".join("\\" + c if c in '"\\' else f"\\x{ord(c):02X}" if ord(c) < 0x20 or ord(c) == 0x7F else c
                         for c in value) + '"'


class _Gone:
    """What the fork hook calls when its client has been collected."""

    @staticmethod
    def _after_fork():
        pass


class Subscription:
    """The `changed` events since it was made, in order: iterate it, or call `next`.
    Ends (StopIteration) when it or its client is closed; raises CallTimeout when no
    event comes within its timeout."""

    def __init__(self, client, timeout):
        self._client = client
        self._timeout = timeout
        self._events = queue.Queue()
        client._add_subscriber(self._events.put)

    def __iter__(self):
        return self

    def __next__(self):
        try:
            event = self._events.get(timeout=self._timeout)
        except queue.Empty:
            raise CallTimeout("subscribe", self._timeout) from None
        if event is _END:
            self._events.put(_END)
            raise StopIteration
        return event

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._client._remove_subscriber(self._events.put)
        self._events.put(_END)


def _message(op, fields):
    return {"op": op, **{k: v for k, v in fields.items() if v is not None}}


def _generation(reply):
    generation = reply.get("generation")
    return generation if isinstance(generation, int) else -1


def _checked(reply):
    if not reply.get("ok"):
        error = reply.get("error") or {}
        raise RequestRefused(error.get("code", "unknown"), error.get("message", ""))
    return reply


def _batch_strings(reply):
    formatted = reply.get("formatted") or [None] * len(reply["values"])
    return [done if done is not None else value for value, done in zip(reply["values"], formatted)]
