"""Pictures of a memory: the knowledge graph (static PNG, interactive HTML) and timelines.

People look at a knowledge graph before they trust it. These helpers draw what
a :class:`~graphmem.memory.Memory` holds for one scope, store-agnostic:

* :func:`snapshot` reads the facts (history included) and their entities once;
* :func:`draw_graph` draws it with networkx + matplotlib: entities coloured by
  type, relations by fact category, relations that no longer hold grey and dashed;
* :func:`graph_html` writes a self-contained pyvis page that works offline;
* :func:`draw_timeline` draws each fact's validity interval as a bar, one panel
  per entity, with SUPERSEDES arrows between bars and retractions marked.

matplotlib and pyvis are optional (``pip install 'graphmem[dev]'``) and
imported only when a picture is drawn.

Example::

    shot = snapshot(memory, "default", Scope(user_id="alice"))
    draw_graph(shot, "graph.png")
    graph_html(shot, "graph.html")
    draw_timeline(shot, "timeline.png")
"""

from graphmem.viz.graph import draw_graph
from graphmem.viz.interactive import graph_html
from graphmem.viz.snapshot import GraphSnapshot, fact_state, snapshot, to_networkx
from graphmem.viz.style import (
    CATEGORY_COLOURS,
    ENTITY_COLOURS,
    LINE_STYLES,
    PAST_COLOUR,
    FactState,
    entity_colour,
    predicate_label,
)
from graphmem.viz.timeline import draw_timeline

__all__ = [
    "CATEGORY_COLOURS",
    "ENTITY_COLOURS",
    "LINE_STYLES",
    "PAST_COLOUR",
    "FactState",
    "GraphSnapshot",
    "draw_graph",
    "draw_timeline",
    "entity_colour",
    "fact_state",
    "graph_html",
    "predicate_label",
    "snapshot",
    "to_networkx",
]
