"""The client for asyncio: the same connection and rules as `Client`, awaited.

Each call sends from the calling task (a send takes microseconds unless the daemon has
stopped reading) and awaits its reply without a thread of its own: the client's reader
thread completes it. Many tasks and threads can share one AsyncClient, or one Client
through `AsyncClient(client=...)`.
"""

import asyncio
import time

from .client import _END, Client, _batch_strings, _checked, _message
from .connection import ConnectionLost
from .errors import CallTimeout, L10ndError
from .mapped import NEEDS_CHAIN


class AsyncClient:
    """`Client`'s lookups, requests and subscriptions as coroutines.

        async with AsyncClient() as l10n:
            await l10n.localized("%d files in %d folders", 21, 2, lang="ru")
            async for event in l10n.subscribe():
                ...

    It is created without waiting (connecting to a Unix socket does not block); `client`
    shares an existing Client's connection, which `close` then leaves open. `mode` is
    Client's (`"mapped"` by default: lookups the mapped segments answer take no round trip)."""

    def __init__(self, path=None, timeout=10.0, *, client=None, mode=None, environ=None):
        self._owned = client is None
        self.client = Client(path, timeout, mode=mode, environ=environ) if client is None else client

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.close()

    def close(self):
        if self._owned:
            self.client.close()

    async def request(self, op, timeout=None, **fields):
        """As Client.request."""
        return await self._call(_message(op, fields), self.client._limit(timeout))

    async def lookup(self, key, lang=None, table=None, args=None, count=None, counts=None, timeout=None):
        """As Client.lookup: never raises for an absent daemon, answers as it does."""
        return await self._answer(_message("lookup", dict(key=key, lang=lang, table=table, args=args, count=count,
                                                          counts=counts)), timeout)

    async def localized(self, key, *args, lang=None, table=None, timeout=None):
        """As Client.localized."""
        return (await self.lookup(key, lang=lang, table=table, args=list(args), timeout=timeout))["formatted"]

    async def batch(self, keys, lang=None, table=None, args=None, timeout=None):
        """As Client.batch."""
        reply = await self._answer(_message("batch", dict(keys=list(keys), lang=lang, table=table, args=args)),
                                   timeout)
        return _batch_strings(reply)

    def subscribe(self, timeout=None):
        """An async iterator of `changed` events (as Client.subscribe); `async with` it, or
        `await subscription.start()`, to be subscribed before the next edit is made."""
        return AsyncSubscription(self.client, timeout)

    async def _answer(self, message, timeout):
        used, mapped = self.client._in_place(message)
        if mapped is NEEDS_CHAIN:
            # The first lookup of this lang and table in the generation: the daemon's chain,
            # asked without blocking the loop, then the answer in place.
            try:
                reply = await self._call(self.client._chain_message(message), self.client.timeout)
            except L10ndError as error:
                reply = error
            self.client._chain_answered(used, used.connection, message, reply)
            mapped = self.client._in_place(message)[1]
        if mapped is not None and mapped is not NEEDS_CHAIN:
            return mapped
        sent = time.monotonic()
        try:
            connection, reply = await self._exchange(message, self.client._limit(timeout))
        except L10ndError as error:
            return self.client._unanswered(message, error, sent)
        self.client._answered(message, reply, sent, connection)
        return reply

    async def _call(self, message, limit):
        return (await self._exchange(message, limit))[1]

    async def _exchange(self, message, limit):
        """Sends `message`; returns the connection it went on and the daemon's reply."""
        connection, future = self.client._begin(message, limit)
        try:
            return connection, _checked(await asyncio.wait_for(asyncio.wrap_future(future), limit))
        except asyncio.TimeoutError:
            connection.forget(future)
            self.client._timed_out(connection, limit)
            raise CallTimeout(message["op"], limit) from None
        except (ConnectionLost, TimeoutError) as lost:
            raise self.client._lost(connection, lost) from None


class AsyncSubscription:
    """`changed` events for one event loop, in order."""

    def __init__(self, client, timeout):
        self._client = client
        self._timeout = timeout
        self._loop = None
        self._events = None

    async def start(self):
        """Subscribes (waiting for the daemon's yes when it is there); iterating starts it too."""
        if self._events is None:
            self._loop = asyncio.get_running_loop()
            self._events = asyncio.Queue()
            self._client._add_subscriber(self._deliver)
            try:
                await asyncio.to_thread(self._client._subscribe_now, self._client._limit(None))
            except BaseException:
                self.close()
                raise
        return self

    def _deliver(self, event):
        try:
            self._loop.call_soon_threadsafe(self._events.put_nowait, event)
        except RuntimeError:
            self._client._remove_subscriber(self._deliver)  # its loop is closed

    def __aiter__(self):
        return self

    async def __anext__(self):
        await self.start()
        try:
            event = await asyncio.wait_for(self._events.get(), self._timeout)
        except asyncio.TimeoutError:
            raise CallTimeout("subscribe", self._timeout) from None
        if event is _END:
            self._events.put_nowait(_END)
            raise StopAsyncIteration
        return event

    async def __aenter__(self):
        return await self.start()

    async def __aexit__(self, *exc):
        self.close()

    def close(self):
        self._client._remove_subscriber(self._deliver)
        if self._events is not None:
            self._events.put_nowait(_END)
