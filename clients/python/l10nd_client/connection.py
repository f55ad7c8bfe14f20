"""One socket to l10nd and the thread that reads it (docs/PROTOCOL.md, "JSON lines").

Every request goes out with an `id`; the reader thread hands each reply to the caller
waiting for that id, and each pushed event (no `id`) to `on_event`. Any number of threads
send on one connection: requests are pipelined, replies are matched, never taken in turn.

The reader reads with `recvmsg`, so a `map` reply's slab descriptors (SCM_RIGHTS, with the
reply's first byte) arrive on this same connection: it keeps each read's descriptors in
arrival order and gives the oldest group to the next `map` reply that names slabs (Linux
never joins two messages' descriptors in one read), as the reply's `descriptors` member.
"""

import array
import collections
import concurrent.futures
import json
import os
import socket
import threading

MAX_DESCRIPTORS = 253  # SCM_MAX_FD: the most one message carries
_ANCILLARY = socket.CMSG_SPACE(MAX_DESCRIPTORS * 4)

from .errors import RequestRefused


class ConnectionLost(Exception):
    """The connection ended before the reply came: `reason` is the OSError, or None at EOF."""

    def __init__(self, path, reason):
        super().__init__(f"the connection to {path} ended" + (f": {reason}" if reason else ""))
        self.path = path
        self.reason = reason


class Connection:
    """A connected socket, its pending requests and its reader thread. `on_event(event, self)`
    is called on the reader thread for each pushed event, and `on_end(self)` once the socket
    has ended and every pending request has failed."""

    def __init__(self, sock, path, on_event, on_end):
        self.path = path
        # Which connection of its client this is (0 first): generations of two daemons (a
        # restart) cannot be compared, the later connection's answers are the newer.
        self.epoch = 0
        self.subscription = None  # the future of this connection's `subscribe`, once sent
        self.subscription_lock = threading.Lock()
        self.answered = False  # whether any request was answered: a refused connection is not
        self._socket = sock
        self._on_event = on_event
        self._on_end = on_end
        self._lock = threading.Lock()  # _pending, _next_id, _ended
        self._send_lock = threading.Lock()  # one line at a time on the socket
        self._pending = {}
        self._maps = set()  # ids of `map` requests pending, whose replies carry descriptors
        self._descriptors = collections.deque()  # groups of received descriptors, oldest first
        self._next_id = 1
        self._ended = None
        self._reader = threading.Thread(target=self._read, name=f"l10nd-reader {path}", daemon=True)
        self._reader.start()

    def submit(self, message, timeout):
        """Sends `message` with an id of its own; returns the future of its reply. The future
        fails with ConnectionLost or RequestRefused when the connection ends first."""
        future = concurrent.futures.Future()
        with self._lock:
            if self._ended is not None:
                future.set_exception(self._ended)
                return future
            request_id = self._next_id
            self._next_id += 1
            self._pending[request_id] = future
            if message.get("op") == "map":
                self._maps.add(request_id)
        future.l10nd_id = request_id
        line = json.dumps({**message, "id": request_id}, ensure_ascii=False).encode("utf-8") + b"\n"
        if not self._send_lock.acquire(timeout=timeout):
            self.forget(future)  # another sender is stuck: the daemon reads nothing
            future.set_exception(TimeoutError())
            return future
        try:
            self._socket.sendall(line)
        except (BrokenPipeError, ConnectionResetError):
            # The daemon closed, maybe after saying why (at its connection limit): the reader
            # reads that line, then fails this request with it.
            pass
        except OSError:
            # A send cut off by the time limit leaves half a line: nothing after it could be read.
            self.abort()
        finally:
            self._send_lock.release()
        return future

    def forget(self, future):
        """Stops waiting for `future`'s reply (its caller's time is up); a late reply is dropped."""
        with self._lock:
            self._pending.pop(getattr(future, "l10nd_id", None), None)

    def abort(self):
        """Ends the connection; the reader fails what is pending and calls on_end."""
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close_in_child(self):
        """In a forked child: closes this process's copy of the socket, leaving the parent's
        connection as it is (a shutdown would end it for both)."""
        self._socket.close()

    def _read(self):
        buffer = b""
        reason = None
        refusal = None
        while True:
            try:
                chunk, ancillary, _, _ = self._socket.recvmsg(1 << 16, _ANCILLARY)
            except socket.timeout:  # TimeoutError from Python 3.10 on
                continue  # the socket's time limit is for sends; reading waits for the daemon
            except OSError as error:
                reason = error
                break
            self._received(ancillary)
            if not chunk:
                break
            *lines, buffer = (buffer + chunk).split(b"\n")
            for line in lines:
                refusal = self._dispatch(line) or refusal
        ended = refusal or ConnectionLost(self.path, reason)
        with self._lock:
            self._ended = ended
            pending, self._pending = self._pending, {}
        for future in pending.values():
            _settle(future, exception=ended)
        while self._descriptors:
            _close_all(self._descriptors.popleft())
        self._socket.close()
        self._on_end(self)

    def _received(self, ancillary):
        """Keeps one read's descriptors, a group, for the `map` reply they came with."""
        numbers = []
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                received = array.array("i")
                received.frombytes(payload[: len(payload) - len(payload) % 4])
                numbers += list(received)
        if numbers:
            self._descriptors.append(numbers)

    def _dispatch(self, line):
        """Hands one line to its caller or to on_event; returns a refusal of the whole
        connection (a reply with no id), which the requests still pending then get."""
        if not line.strip():
            return None
        try:
            reply = json.loads(line)
        except ValueError:
            return None
        request_id = reply.pop("id", None)
        if request_id is None:
            if "event" in reply:
                self._on_event(reply, self)
                return None
            error = reply.get("error") or {}
            return RequestRefused(error.get("code", "unknown"), error.get("message", ""))
        self.answered = True
        with self._lock:
            future = self._pending.pop(request_id, None)
            is_map = request_id in self._maps
            self._maps.discard(request_id)
        if is_map and reply.get("ok") and reply.get("slabs"):
            # Its descriptors came with its first byte, which was read before its last.
            descriptors = self._descriptors.popleft() if self._descriptors else []
            if future is None:
                _close_all(descriptors)  # its caller gave up
            else:
                reply["descriptors"] = descriptors
        if (future is None or not _settle(future, result=reply)) and "descriptors" in reply:
            _close_all(reply["descriptors"])  # nobody takes them
        return None


def _close_all(numbers):
    for number in numbers:
        try:
            os.close(number)
        except OSError:
            pass


def _settle(future, result=None, exception=None):
    """Completes `future` unless its caller gave up on it (an asyncio task cancelled): whether it did."""
    try:
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)
    except concurrent.futures.InvalidStateError:
        return False
    return True
