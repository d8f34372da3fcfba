"""The knowledge graph as a static picture: networkx layout, matplotlib drawing."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from graphmem.models import Category
from graphmem.viz.snapshot import GraphSnapshot, to_networkx
from graphmem.viz.style import (
    STATE_LABELS,
    CATEGORY_COLOURS,
    LINE_STYLES,
    PAST_COLOUR,
    entity_colour,
    new_figure,
    predicate_label,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text


def draw_graph(shot: GraphSnapshot, path: str | Path | None = None, *,
               title: str | None = None, figsize: tuple[float, float] = (12.0, 7.5),
               seed: int = 7) -> Figure:
    """Draw the graph with matplotlib; save it as PNG when ``path`` is given.

    Entity names sit in boxes coloured by entity type; each fact is an arrow
    coloured by category and labelled with its predicate. Relations that no
    longer hold are grey, dashed when superseded, dash-dotted when retracted
    and dotted when their stated end passed. Overlapping labels are pushed
    apart before drawing the edges, so text stays readable at default size.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch, Rectangle

    fig = new_figure(figsize)
    ax = fig.add_axes((0.0, 0.0, 0.74, 0.94))
    ax.set_axis_off()
    ax.set_xlim(-0.08, 1.08)
    ax.set_ylim(-0.08, 1.08)
    graph = to_networkx(shot)
    positions = _layout(graph, seed)
    boxes: dict[str, Text] = {}
    for node, data in graph.nodes(data=True):
        x, y = positions[node]
        boxes[node] = ax.text(x, y, data["name"], ha="center", va="center", fontsize=9.5,
                              zorder=3, bbox={"boxstyle": "round,pad=0.45",
                                              "fc": entity_colour(data["type"]), "ec": "#555555",
                                              "lw": 0.8})
    _separate(fig, ax, list(boxes.values()), movable=set(boxes.values()))
    fig.canvas.draw()
    # Arrows clip to invisible copies of the boxes in data coordinates: the boxes' own
    # patches are laid out in pixels at draw time, stale when savefig changes dpi or crops.
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    hitboxes: dict[str, Rectangle] = {}
    for node, text in boxes.items():
        extent = text.get_bbox_patch().get_window_extent(renderer)  # type: ignore[union-attr]
        (x0, y0), (x1, y1) = ax.transData.inverted().transform(extent.get_points())
        hitboxes[node] = Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, lw=0, visible=False)
        ax.add_patch(hitboxes[node])

    labels: list[Text] = []
    for (u, v, key, data), rad in zip(graph.edges(keys=True, data=True), _arc_radii(graph),
                                      strict=True):
        colour = CATEGORY_COLOURS[data["category"]] if data["state"] == "current" else PAST_COLOUR
        a, b = boxes[u].get_position(), boxes[v].get_position()
        ax.add_patch(FancyArrowPatch(
            a, b, arrowstyle="-|>", mutation_scale=13, connectionstyle=f"arc3,rad={rad}",
            patchA=hitboxes[u], patchB=hitboxes[v],
            shrinkA=2, shrinkB=2, color=colour, lw=1.6, linestyle=LINE_STYLES[data["state"]],
            zorder=1, gid=f"fact:{key}:{data['state']}"))
        x, y = _arc_midpoint(ax, a, b, rad)
        labels.append(ax.text(x, y, predicate_label(data["predicate"]), ha="center",
                              va="center", fontsize=8, color=colour, zorder=2,
                              bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none",
                                    "alpha": 0.9}))
    _separate(fig, ax, [*boxes.values(), *labels], movable=set(labels))

    types = sorted({d["type"] for _, d in graph.nodes(data=True)})
    categories = [c for c in Category if any(d["category"] is c and d["state"] == "current"
                                             for *_, d in graph.edges(data=True))]
    states = [s for s in LINE_STYLES if any(d["state"] == s for *_, d in graph.edges(data=True))]
    legends: list[tuple[str, list[Any]]] = [
        ("Entity type", [Patch(fc=entity_colour(t), ec="#555555", label=t) for t in types]),
        ("Fact category", [Line2D([], [], color=CATEGORY_COLOURS[c], lw=2, label=c.value)
                           for c in categories]),
        ("Relation", [Line2D([], [], color="#333333" if s == "current" else PAST_COLOUR, lw=1.6,
                             linestyle=LINE_STYLES[s], label=STATE_LABELS[s]) for s in states]),
    ]
    _stack_legends(fig, legends, left=0.76)
    ax.set_title(title or f"Knowledge graph as of {shot.at:%Y-%m-%d}", loc="left", fontsize=12)
    if path is not None:
        fig.savefig(path, dpi=150, bbox_inches="tight", facecolor="white")
    return fig


def _layout(graph: nx.MultiDiGraph, seed: int) -> dict[str, tuple[float, float]]:
    """Spring layout per connected component, components side by side in the unit square.

    Each component gets a width in proportion to the square root of its size,
    so a small side graph does not squeeze the main one into a corner.
    """
    simple = nx.Graph(graph.to_undirected())
    components = sorted(nx.connected_components(simple),
                        key=lambda c: (-len(c), min(graph.nodes[n]["name"] for n in c)))
    placed: dict[str, tuple[float, float]] = {}
    left = 0.0
    tallest = max((len(c) ** 0.5 for c in components), default=1.0)
    for component in components:
        size = len(component) ** 0.5
        sub = simple.subgraph(component)
        raw = nx.spring_layout(sub, seed=seed, k=1.4 / size, iterations=200) if len(sub) > 1 \
            else {n: (0.0, 0.0) for n in sub}
        xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        for node, (x, y) in raw.items():
            placed[node] = (left + size * (0.1 + 0.8 * (x - min(xs)) / span),
                            (tallest - size) / 2 + size * (0.1 + 0.8 * (y - min(ys)) / span))
        left += size
    return {n: (x / (left or 1.0), y / tallest) for n, (x, y) in placed.items()}


def _arc_radii(graph: nx.MultiDiGraph) -> list[float]:
    """0 for a lone edge; edges sharing a pair of nodes fan out as arcs."""
    pairs: dict[frozenset[str], list[tuple[str, str]]] = defaultdict(list)
    edges = list(graph.edges(keys=False))
    for u, v in edges:
        pairs[frozenset((u, v))].append((u, v))
    seen: dict[frozenset[str], int] = defaultdict(int)
    radii = []
    for u, v in edges:
        group = pairs[frozenset((u, v))]
        index = seen[frozenset((u, v))]
        seen[frozenset((u, v))] += 1
        offset = (index - (len(group) - 1) / 2) * 0.3 if len(group) > 1 else 0.0
        radii.append(offset if (u, v) == group[0] else -offset)
    return radii


def _arc_midpoint(ax: Axes, a: tuple[float, float], b: tuple[float, float],
                  rad: float) -> tuple[float, float]:
    """Where matplotlib's ``arc3`` curve (computed in display space) is halfway."""
    (x1, y1), (x2, y2) = ax.transData.transform([a, b])
    mx, my = (x1 + x2) / 2 + rad * (y2 - y1) / 2, (y1 + y2) / 2 - rad * (x2 - x1) / 2
    x, y = ax.transData.inverted().transform((mx, my))
    return float(x), float(y)


def _separate(fig: Figure, ax: Axes, texts: list[Text], movable: set[Text], *,
              margin: float = 3.0, rounds: int = 300) -> None:
    """Push overlapping texts apart (only ``movable`` ones move), inside the axes."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = [_box(t, renderer, margin) for t in texts]
    for _ in range(rounds):
        moved = False
        for i, j in ((i, j) for i in range(len(texts)) for j in range(i + 1, len(texts))):
            a, b = boxes[i], boxes[j]
            dx = min(a.x1, b.x1) - max(a.x0, b.x0)
            dy = min(a.y1, b.y1) - max(a.y0, b.y0)
            if dx <= 0 or dy <= 0 or (texts[i] not in movable and texts[j] not in movable):
                continue
            # along the axis of least overlap, away from each other
            sx = (1 if a.x0 + a.x1 > b.x0 + b.x1 else -1) * (dx + 1) if dx < dy else 0.0
            sy = (1 if a.y0 + a.y1 >= b.y0 + b.y1 else -1) * (dy + 1) if dx >= dy else 0.0
            share = 0.5 if texts[i] in movable and texts[j] in movable else 1.0
            for k, sign in ((i, share), (j, -share)):
                if texts[k] in movable:
                    _shift(texts[k], sx * sign, sy * sign, ax)
                    boxes[k] = _box(texts[k], renderer, margin)
            moved = True
        if not moved:
            return


def _box(text: Text, renderer: Any, margin: float) -> Any:
    """The text's extent with its bbox padding and a margin, in pixels."""
    pad = renderer.points_to_pixels(0.5 * float(text.get_fontsize())) + margin
    return text.get_window_extent(renderer).padded(pad)


def _shift(text: Text, sx: float, sy: float, ax: Axes) -> None:
    x, y = ax.transData.transform(text.get_position())
    new_x, new_y = ax.transData.inverted().transform((x + sx, y + sy))
    (low_x, high_x), (low_y, high_y) = ax.get_xlim(), ax.get_ylim()
    text.set_position((min(max(new_x, low_x), high_x), min(max(new_y, low_y), high_y)))


def _stack_legends(fig: Figure, legends: list[tuple[str, list[Any]]], *, left: float) -> None:
    """Figure legends one under another, starting at ``left`` (figure fraction)."""
    top = 0.94
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    for title, handles in legends:
        if not handles:
            continue
        legend = fig.legend(handles=handles, title=title, loc="upper left", fontsize=9,
                            title_fontproperties={"weight": "bold", "size": 9.5},
                            bbox_to_anchor=(left, top), frameon=False, alignment="left")
        top -= legend.get_window_extent(renderer).height / fig.bbox.height + 0.02
