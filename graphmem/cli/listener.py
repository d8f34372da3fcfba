"""Run several uvicorn workers on one port without Nagle's algorithm on their connections.

uvicorn (0.54, Kludex/uvicorn#3149) binds the shared listening socket of ``--workers N``
with its protocol left at 0. Accepted connections inherit that, and asyncio turns on
``TCP_NODELAY`` only for a socket that says ``IPPROTO_TCP``, so every keep-alive response
after the first waited for the client's delayed ACK: about 44 ms a request on Linux, where
one worker (asyncio binds the port itself) answered ``/health`` in 0.7 ms. The listener is
re-wrapped here with its protocol named; uvicorn's own supervisor runs the workers.
"""

from __future__ import annotations

import socket

import uvicorn
from uvicorn.supervisors import Multiprocess


class TcpListenerConfig(uvicorn.Config):
    """uvicorn's configuration, binding a TCP listener that says it is TCP."""

    def bind_socket(self) -> socket.socket:
        bound = super().bind_socket()
        if bound.family not in (socket.AF_INET, socket.AF_INET6) or bound.proto:
            return bound
        family, kind = bound.family, bound.type
        listener = socket.socket(family, kind, socket.IPPROTO_TCP, fileno=bound.detach())
        listener.set_inheritable(True)  # the workers are spawned with it
        return listener


def run_workers(config: TcpListenerConfig) -> None:
    """Serve ``config.app`` (an import string) in ``config.workers`` processes on one port."""
    Multiprocess(config, sockets=[config.bind_socket()]).run()
