"""graphmem as a Model Context Protocol server (tools and resources for assistants)."""

from __future__ import annotations

from graphmem.mcp.server import build_server
from graphmem.mcp.tools import Caller, CallerOf, MemoryTools

__all__ = ["Caller", "CallerOf", "MemoryTools", "build_server"]
