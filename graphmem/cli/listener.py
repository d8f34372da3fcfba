"""Run several uvicorn workers on one port, each with a listener of its own.

uvicorn's ``--workers N`` (0.54) binds one listening socket in the supervisor and hands
the same socket to every worker. Two things go wrong with it, both measured here with
eight keep-alive clients (``bench/api_load.py``):

* **Nagle's algorithm stays on** (Kludex/uvicorn#3149). The shared socket says protocol
  0, and asyncio turns on ``TCP_NODELAY`` only for a socket that says ``IPPROTO_TCP``,
  so every keep-alive response after the first waited for the client's delayed ACK:
  about 44 ms a request, where one worker answered ``/health`` in 0.7 ms.
* **One worker takes every connection.** Woken by a new connection, a worker's event
  loop accepts all that are waiting, so clients that connect together (a connection
  pool) all landed on one worker, and two workers served what one does.

So each worker gets a listener of its own on the same port (``SO_REUSEPORT``): the
kernel spreads new connections across the workers' listeners, and each is bound as TCP.
The supervisor keeps a socket bound to the port, never listening, which holds the port
and tells the workers where to bind; uvicorn's own supervisor still starts, watches and
restarts them. The workers' sockets are made where they unpickle it (each worker is a
spawned process that receives the supervisor's socket by pickling).

What ``SO_REUSEPORT`` changes: another process of the same user that sets it too can
join the port and take a share of the connections (the kernel allows it only within one
user), and so can a second ``graphmem serve --workers N`` on the same port while the
first one's workers are still starting; connections waiting in a worker's queue when that
worker exits are reset rather than taken by another. Where the platform has no
``SO_REUSEPORT`` (Windows) the workers share one socket, bound as TCP.
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess


def worker_listener(family: int, address: tuple[Any, ...]) -> socket.socket:
    """A TCP listener of one worker on ``address``, sharing the port with the others."""
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(address)
    return listener


class PortReservation(socket.socket):
    """The supervisor's socket: bound to the port, never listening. Pickled into a
    worker, it becomes that worker's own listener on the same address."""

    def __reduce__(self) -> tuple[Any, tuple[int, tuple[Any, ...]]]:
        return worker_listener, (int(self.family), self.getsockname())


class TcpListenerConfig(uvicorn.Config):
    """uvicorn's configuration, whose bound socket is a :class:`PortReservation`."""

    def bind_socket(self) -> socket.socket:
        bound = super().bind_socket()  # uvicorn's checks, errors and startup message
        if bound.family not in (socket.AF_INET, socket.AF_INET6):
            return bound  # a Unix socket: nothing to spread, no Nagle
        address = bound.getsockname()
        family = bound.family
        if not hasattr(socket, "SO_REUSEPORT"):  # Windows: one shared socket, said to be TCP
            shared = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP,
                                   fileno=bound.detach())
            shared.set_inheritable(True)
            return shared
        bound.close()
        reservation = PortReservation(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        reservation.bind(address)
        return reservation


def run_workers(config: TcpListenerConfig) -> None:
    """Serve ``config.app`` (an import string) in ``config.workers`` processes on one port."""
    Multiprocess(config, sockets=[config.bind_socket()]).run()
