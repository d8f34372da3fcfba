"""The listener several workers share hands out connections with Nagle's algorithm off."""

from __future__ import annotations

import asyncio
import socket

from graphmem.cli.listener import TcpListenerConfig
from tests.neo4j_fixtures import free_ports


async def _accepted_nodelay(listener: socket.socket) -> int:
    """Serve ``listener`` as a uvicorn worker does and report the accepted connection's
    ``TCP_NODELAY``."""
    loop = asyncio.get_running_loop()
    seen: asyncio.Future[int] = loop.create_future()

    class Report(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await loop.create_server(Report, sock=listener)
    host, port = listener.getsockname()[:2]
    _, writer = await asyncio.open_connection(host, port)
    try:
        return await asyncio.wait_for(seen, 10)
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


def test_workers_listener_is_tcp_so_connections_get_nodelay() -> None:
    [port] = free_ports(1)
    config = TcpListenerConfig("api.app:app_from_environment", factory=True, workers=2,
                               host="127.0.0.1", port=port)

    listener = config.bind_socket()

    assert listener.proto == socket.IPPROTO_TCP
    assert listener.get_inheritable()
    assert listener.getsockname() == ("127.0.0.1", port)
    assert asyncio.run(_accepted_nodelay(listener)) == 1
