"""A client for l10nd (docs/PROTOCOL.md), standard library only: thread-safe, asyncio-ready,
reconnecting. See README.md beside this package.

    from l10nd_client import Client
    with Client() as l10n:                      # L10N_SOCKET, else the per-user, else the system socket
        l10n.localized("%1$@ has %2$d new messages", "Ana", 3, lang="ja")
        # 'Anaさんに新しいメッセージが3件あります' -- formatted by the daemon as Swift does
        l10n.batch(["保存", "%d files in %d folders"], lang="fr", args=[None, [3, 1]])
        for event in l10n.subscribe():          # a change event per reload
            print(event["changes"])
"""

from .aio import AsyncClient, AsyncSubscription
from .client import Client, Subscription
from .errors import CallTimeout, DaemonUnavailable, L10ndError, RequestRefused
from .socket_path import SYSTEM_SOCKET, default_socket_path, per_user_socket_path, socket_candidates

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "AsyncSubscription", "CallTimeout", "Client", "DaemonUnavailable", "L10ndError",
    "RequestRefused", "SYSTEM_SOCKET", "Subscription", "default_socket_path", "per_user_socket_path",
    "socket_candidates",
]
