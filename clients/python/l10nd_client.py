"""A client for l10nd's JSON-lines socket protocol (docs/PROTOCOL.md), standard library only.

    from l10nd_client import Client
    with Client() as l10n:                      # L10N_SOCKET, else the default path
        l10n.localized("%1$@ has %2$d new messages", "Ana", 3, lang="ja")
        # 'Anaさんに新しいメッセージが3件あります' -- formatted by the daemon as Swift does
        l10n.batch(["保存", "%d files in %d folders"], lang="fr", args=[None, [3, 1]])
        for event in l10n.subscribe():          # a line per reload, on its own connection
            print(event["changes"])
"""

import json
import os
import socket


class L10ndError(Exception):
    """The daemon refused a request: `code` is the protocol's (bad_request, forbidden...)."""

    def __init__(self, code, message):
        super().__init__(f"{message} ({code})")
        self.code = code


def default_socket_path(environ=os.environ):
    """L10N_SOCKET, else $XDG_RUNTIME_DIR/l10nd/l10nd.sock, else /tmp/l10nd-$UID/l10nd.sock."""
    if environ.get("L10N_SOCKET"):
        return environ["L10N_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        trimmed = runtime[:-1] if len(runtime) > 1 and runtime.endswith("/") else runtime
        return trimmed + "/l10nd/l10nd.sock"
    return f"/tmp/l10nd-{os.getuid()}/l10nd.sock"


class Client:
    """One connection; requests are answered in order, one line each."""

    def __init__(self, path=None, timeout=10.0):
        self.path = path or default_socket_path()
        self.timeout = timeout
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        try:
            self._socket.connect(self.path)
        except OSError:
            self._socket.close()
            raise
        self._lines = self._socket.makefile("r", encoding="utf-8", newline="\n")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._lines.close()
        self._socket.close()

    def request(self, op, **fields):
        """Sends one request and returns its reply; raises L10ndError for ok:false."""
        message = {"op": op, **{k: v for k, v in fields.items() if v is not None}}
        try:
            self._socket.sendall(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
        except (BrokenPipeError, ConnectionResetError):
            # A daemon that refuses a connection (at its connection limit) says why, then
            # closes: that answer, not the broken pipe it leaves, is what the caller gets.
            reply = self._read_left_behind()
            if reply is None:
                raise
        else:
            reply = self._read()
        if not reply.get("ok"):
            error = reply.get("error", {})
            raise L10ndError(error.get("code", "unknown"), error.get("message", ""))
        return reply

    def lookup(self, key, lang=None, table=None, args=None, count=None, counts=None):
        """The whole reply: value, found, lang, and with args the finished string (formatted)."""
        return self.request("lookup", key=key, lang=lang, table=table, args=args, count=count, counts=counts)

    def localized(self, key, *args, lang=None, table=None):
        """The finished string: the value formatted with args, plural forms picked by them."""
        return self.lookup(key, lang=lang, table=table, args=list(args))["formatted"]

    def batch(self, keys, lang=None, table=None, args=None):
        """One string per key: finished where args gives a list for it, else the value."""
        reply = self.request("batch", keys=list(keys), lang=lang, table=table, args=args)
        formatted = reply.get("formatted") or [None] * len(reply["values"])
        return [done if done is not None else value for value, done in zip(reply["values"], formatted)]

    def subscribe(self, timeout=None):
        """Yields each `changed` event from a connection of its own; waits at most
        `timeout` seconds for each (None: forever)."""
        with Client(self.path, self.timeout) as events:
            events.request("subscribe")
            events._socket.settimeout(timeout)
            while True:
                yield events._read()

    def _read_left_behind(self):
        """The line the daemon wrote before closing, if a whole one is there; else None."""
        try:
            line = self._lines.readline()
            return json.loads(line) if line.endswith("\n") else None
        except (OSError, ValueError):
            return None

    def _read(self):
        line = self._lines.readline()
        if not line:
            raise ConnectionError(f"l10nd closed the connection ({self.path})")
        return json.loads(line)
