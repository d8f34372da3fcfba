"""graphmem: a temporal knowledge-graph memory engine for AI assistants.

The public API, enough to remember and recall::

    from graphmem import EpisodeInput, Memory, Message, Scope, SearchRequest, Settings

    with Memory.from_settings(Settings()) as memory:
        alice = Scope(user_id="alice")
        memory.add_episode("default", EpisodeInput(scope=alice, messages=[
            Message(speaker="Alice", content="I switched from Vue 3 to React.")]))
        hits = memory.search("default", SearchRequest(scope=alice, query="frontend")).results
"""

from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.search.context import ContextRequest
from graphmem.search.models import SearchHit, SearchRequest, SearchResponse
from graphmem.settings import Settings

__all__ = [
    "ContextRequest",
    "EpisodeInput",
    "FactInput",
    "Memory",
    "Message",
    "Scope",
    "SearchHit",
    "SearchRequest",
    "SearchResponse",
    "Settings",
]
