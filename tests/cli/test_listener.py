"""Each worker of ``graphmem serve --workers N`` listens on the port with a socket of its
own: connections have Nagle's algorithm off and are spread over the workers."""

from __future__ import annotations

import asyncio
import socket
from multiprocessing.reduction import ForkingPickler

import pickle

from graphmem.cli.listener import PortReservation, TcpListenerConfig
from tests.neo4j_fixtures import free_ports


def _as_a_worker_gets_it(reservation: socket.socket) -> socket.socket:
    """What a spawned worker unpickles (multiprocessing pickles the supervisor's sockets)."""
    received = pickle.loads(bytes(ForkingPickler.dumps(reservation)))
    assert isinstance(received, socket.socket)
    return received


async def _accepting(listeners: list[socket.socket], connections: int) -> list[list[int]]:
    """Serve each listener as a uvicorn worker does, connect ``connections`` clients to the
    port, and give each listener's accepted connections' ``TCP_NODELAY`` values."""
    loop = asyncio.get_running_loop()
    accepted: list[list[int]] = [[] for _ in listeners]
    servers = []
    for k, listener in enumerate(listeners):
        def protocol(k: int = k) -> asyncio.Protocol:
            class Report(asyncio.Protocol):
                def connection_made(self, transport: asyncio.BaseTransport) -> None:
                    sock = transport.get_extra_info("socket")
                    accepted[k].append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            return Report()
        servers.append(await loop.create_server(protocol, sock=listener))
    host, port = listeners[0].getsockname()[:2]
    writers = [(await asyncio.open_connection(host, port))[1] for _ in range(connections)]
    for _ in range(200):
        if sum(map(len, accepted)) == connections:
            break
        await asyncio.sleep(0.01)
    for writer in writers:
        writer.close()
    for server in servers:
        server.close()
        await server.wait_closed()
    return accepted


def test_workers_get_listeners_of_their_own_that_share_the_connections() -> None:
    [port] = free_ports(1)
    config = TcpListenerConfig("api.app:app_from_environment", factory=True, workers=2,
                               host="127.0.0.1", port=port)

    reservation = config.bind_socket()
    try:
        assert isinstance(reservation, PortReservation)
        assert reservation.getsockname() == ("127.0.0.1", port)
        workers = [_as_a_worker_gets_it(reservation) for _ in range(2)]
        assert all(w.proto == socket.IPPROTO_TCP and w.getsockname() == ("127.0.0.1", port)
                   for w in workers)

        accepted = asyncio.run(_accepting(workers, 32))
    finally:
        reservation.close()

    assert sum(map(len, accepted)) == 32
    assert all(accepted), accepted  # both workers took some (all 32 on one: about 2 ** -31)
    assert {flag for each in accepted for flag in each} == {1}  # Nagle off on every one
