"""The knowledge graph as one self-contained, interactive HTML page (pyvis, offline)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import networkx as nx

from graphmem.errors import SetupError
from graphmem.models import Category
from graphmem.viz.snapshot import GraphSnapshot, to_networkx
from graphmem.viz.style import CATEGORY_COLOURS, PAST_COLOUR, entity_colour, predicate_label

_REMOTE_TAG = re.compile(r"<(link|script)\b[^>]*\b(?:href|src)=\"https?://[^\"]*\"[^>]*>"
                         r"(?:\s*</script>)?", re.IGNORECASE)


def graph_html(shot: GraphSnapshot, path: str | Path, *, height: str = "640px",
               title: str | None = None) -> Path:
    """Write the graph as one self-contained HTML page (vis-network inlined, no CDN).

    Same colours and line styles as :func:`draw_graph`; hover a relation for the
    fact's text and validity. Opens offline in any browser.
    """
    try:
        from pyvis.network import Network
    except ImportError as err:
        raise SetupError("the interactive graph needs pyvis: pip install 'graphmem[dev]'") from err
    graph = to_networkx(shot)
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line")
    for node, data in graph.nodes(data=True):
        net.add_node(node, label=data["name"], shape="box", title=f"{data['name']} ({data['type']})",
                     color={"background": entity_colour(data["type"]), "border": "#555555"})
    for u, v, data in graph.edges(data=True):
        current = data["state"] == "current"
        until = data["valid_until"]
        net.add_edge(u, v, label=predicate_label(data["predicate"]),
                     title=f"{data['text']} | {data['category'].value}, {data['state']}, "
                           f"valid {data['valid_from']:%Y-%m-%d} .. "
                           f"{until.strftime('%Y-%m-%d') if until else 'now'}",
                     color=CATEGORY_COLOURS[data["category"]] if current else PAST_COLOUR,
                     dashes=not current, width=2)
    net.set_options(json.dumps({
        "nodes": {"font": {"size": 16}},
        "edges": {"font": {"size": 13, "align": "horizontal"},
                  "smooth": {"type": "curvedCW", "roundness": 0.15}},
        "physics": {"barnesHut": {"springLength": 170, "avoidOverlap": 0.5}},
    }))
    page = _REMOTE_TAG.sub("", net.generate_html())
    heading = html.escape(title or f"Knowledge graph as of {shot.at:%Y-%m-%d}")
    page = page.replace("<body>", f"<body>\n<h3 style=\"font-family:sans-serif\">{heading}</h3>\n"
                                  f"{_html_legend(graph)}", 1)
    out = Path(path)
    out.write_text(page, encoding="utf-8")
    return out


def _html_legend(graph: nx.MultiDiGraph) -> str:
    types = sorted({d["type"] for _, d in graph.nodes(data=True)})
    categories = [c for c in Category if any(d["category"] is c and d["state"] == "current"
                                             for *_, d in graph.edges(data=True))]
    items = [f'<span style="background:{entity_colour(t)};border:1px solid #555;padding:1px 6px;'
             f'margin-right:6px">{html.escape(t)}</span>' for t in types]
    items += [f'<span style="color:{CATEGORY_COLOURS[c]};margin-right:8px">&#9472;&#9472; '
              f'{c.value}</span>' for c in categories]
    items.append(f'<span style="color:{PAST_COLOUR}">- - no longer holds</span>')
    return ('<div class="graphmem-legend" style="font-family:sans-serif;font-size:13px;'
            f'margin:0 0 8px 0">{"".join(items)}</div>')
