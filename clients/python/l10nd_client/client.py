"""The client: one connection shared by every thread, reconnected after a restart."""

import concurrent.futures
import errno
import logging
import os
import queue
import socket
import threading
import time
import weakref

from .connection import Connection, ConnectionLost
from .errors import CallTimeout, DaemonUnavailable, L10ndError, RequestRefused
from .last_known import LastKnownAnswers, key_answer
from .socket_path import address, default_socket_path, passed_over

logger = logging.getLogger("l10nd_client")

# Waits between connection attempts while the daemon is away: doubling, at most the last,
# so a restarted daemon is found within half a second.
FIRST_RETRY = 0.05
LAST_RETRY = 0.5

_END = object()  # what a closed client hands its subscriptions


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

    `path` is the socket; None follows the rule of `default_socket_path` at each connection.
    `environ` replaces os.environ for that rule (for tests).
    """

    def __init__(self, path=None, timeout=10.0, *, environ=None):
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
        self._away_logged = False
        self._away_since = 0.0  # when the outage's warning was logged
        self._back_since = 0.0  # when the last outage ended
        self._reconnecting = False
        self._stalled = None  # the connection that let a call time out, until it answers again
        self._subscribers = set()
        self._last_known = LastKnownAnswers()
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
    def connected(self):
        """Whether a connection to the daemon is open now."""
        return self._connection is not None

    def close(self):
        """Closes the connection, stops reconnecting and ends every subscription."""
        with self._lock:
            self._closed = True
            connection, self._connection = self._connection, None
            subscribers = list(self._subscribers)
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
        self._next_attempt = 0.0
        self._last_known.after_fork()
        if connection is not None:
            connection.close_in_child()
        if self._closed:
            self._stop.set()
        elif self._subscribers:
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
        limit = self._limit(timeout)
        sent = time.monotonic()
        try:
            reply = self._wait(*self._begin(message, limit), message, limit)
        except L10ndError as error:
            return self._unanswered(message, error, sent)
        self._answered(message, reply, sent)
        return reply

    def _unanswered(self, message, error, sent):
        """A lookup's answer when the daemon gave none: a refusal of the request itself is
        raised; an absent, slow or full daemon (`unavailable`) gets the fallback answer."""
        if isinstance(error, RequestRefused) and error.code != "unavailable":
            raise error
        return self._fallback(message, error, sent)

    def _answered(self, message, reply, sent):
        """Keeps the daemon's answer for an outage; one to a request `sent` after the outage's
        warning ends the outage (replies already on their way when the daemon went do not)."""
        self._last_known.remember(message, reply)
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
        return self._last_known.recall(message) or key_answer(message)

    # MARK: Connecting

    def _connect_if_due(self):
        with self._lock:
            if self._closed:
                raise L10ndError("closed", "this client is closed")
            unavailable = self._unavailable
            if time.monotonic() < self._next_attempt and unavailable is not None:
                # Not yet time to try again: the last attempt's reasons (a new exception per
                # caller, so no two threads raise, and write the traceback of, one object).
                raise DaemonUnavailable(unavailable.paths, unavailable.errors)
        return self._connect()

    def _connect(self):
        """Opens the connection by the socket rule, or raises DaemonUnavailable naming every
        path tried."""
        with self._connect_lock:
            if self._connection is not None:
                return self._connection
            path = self._explicit_path or default_socket_path(self._environ)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(address(path))
            except OSError as error:
                sock.close()
                passed = [] if self._explicit_path else passed_over(path, self._environ)
                missing = [FileNotFoundError(errno.ENOENT, "no such socket") for _ in passed]
                unavailable = DaemonUnavailable(passed + [path], missing + [error])
                with self._lock:
                    self._unavailable = unavailable
                    self._next_attempt = time.monotonic() + self._retry
                    self._retry = min(self._retry * 2, LAST_RETRY)
                raise unavailable from None
            return self._opened(Connection(sock, path, self._deliver, self._ended))

    def _opened(self, connection):
        with self._lock:
            if self._closed:
                connection.abort()
                raise L10ndError("closed", "this client is closed")
            self._connection = connection
            self._unavailable = None
            subscribed = bool(self._subscribers)
        if subscribed:
            self._subscribe_on(connection)
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

    def _deliver(self, event):
        with self._lock:
            subscribers = list(self._subscribers)
        for deliver in subscribers:
            deliver(event)


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


def _checked(reply):
    if not reply.get("ok"):
        error = reply.get("error") or {}
        raise RequestRefused(error.get("code", "unknown"), error.get("message", ""))
    return reply


def _batch_strings(reply):
    formatted = reply.get("formatted") or [None] * len(reply["values"])
    return [done if done is not None else value for value, done in zip(reply["values"], formatted)]
