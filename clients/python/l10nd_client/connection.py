"""One socket to l10nd and the thread that reads it (docs/PROTOCOL.md, "JSON lines").

Every request goes out with an `id`; the reader thread hands each reply to the caller
waiting for that id, and each pushed event (no `id`) to `on_event`. Any number of threads
send on one connection: requests are pipelined, replies are matched, never taken in turn.
"""

import concurrent.futures
import json
import socket
import threading

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
                chunk = self._socket.recv(1 << 16)
            except socket.timeout:  # TimeoutError from Python 3.10 on
                continue  # the socket's time limit is for sends; reading waits for the daemon
            except OSError as error:
                reason = error
                break
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
        self._socket.close()
        self._on_end(self)

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
        if future is not None:
            _settle(future, result=reply)
        return None


def _settle(future, result=None, exception=None):
    """Completes `future` unless its caller gave up on it (an asyncio task cancelled)."""
    try:
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)
    except concurrent.futures.InvalidStateError:
        pass
