"""Geometry of the entity view's two pictures, drawn as SVG by the templates.

* :func:`timeline`: each fact about the entity as a bar over its validity
  interval, one row per fact grouped by predicate, an arrow from a fact to the
  one that superseded it, and a cross where a fact was retracted;
* :func:`neighbourhood`: the entity in the middle, its neighbours on rings by
  hop distance, one labelled line per pair of entities.

Pure functions of library models, so the shapes are tested without a browser
and the page needs no JavaScript to draw them. Colours and labels are those
of the matplotlib drawings (:mod:`graphmem.viz.style`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from graphmem.manage.reads import Neighborhood
from graphmem.models import Fact, FactStatus
from graphmem.viz.snapshot import fact_state
from graphmem.viz.style import CATEGORY_COLOURS, FactState, entity_colour, predicate_label

ROW = 38
TOP = 14
AXIS = 30


class Bar(BaseModel):
    fact_id: str
    text: str
    x: float
    y: float
    width: float
    colour: str
    state: FactState
    forgotten: bool
    open_ended: bool
    interval: str


class Arrow(BaseModel):
    """From the end of a superseded fact's bar to the start of its successor's."""

    path: str
    title: str


class Cross(BaseModel):
    x: float
    y: float
    title: str


class Tick(BaseModel):
    x: float
    label: str


class Timeline(BaseModel):
    width: int
    height: int
    bars: list[Bar]
    arrows: list[Arrow]
    crosses: list[Cross]
    ticks: list[Tick]
    now_x: float
    hidden: int = 0


def _date(moment: datetime) -> str:
    return moment.date().isoformat()


def timeline(facts: list[Fact], now: datetime, *, width: int = 900,
             max_rows: int | None = None) -> Timeline:
    """Lay out the facts of one entity (as :func:`graphmem.manage.entity_timeline` gives them).

    Past ``max_rows`` the rest are left out (``hidden`` counts them): facts that changed
    come first, so what is cut is the long tail of things that simply hold.
    """
    ordered = _rows(facts)
    rows = ordered[:max_rows] if max_rows is not None else ordered
    ends = [f.valid_until for f in rows if f.valid_until] + [
        f.retraction.at for f in rows if f.retraction]
    first = min((f.valid_from for f in rows), default=now)
    last = max([now, *ends])
    span = max(last - first, timedelta(days=7))
    first, last = first - span * 0.03, last + span * 0.06
    usable = width - 20.0

    def x_of(moment: datetime) -> float:
        return 10.0 + usable * ((moment - first) / (last - first))

    bars: list[Bar] = []
    index: dict[str, int] = {}
    for i, fact in enumerate(rows):
        start, end = x_of(fact.valid_from), x_of(fact.valid_until or now)
        until = _date(fact.valid_until) if fact.valid_until else "now"
        index[fact.id] = i
        bars.append(Bar(fact_id=fact.id, text=fact.text, x=start, y=TOP + i * ROW + 18,
                        width=max(end - start, 4.0), colour=CATEGORY_COLOURS[fact.category],
                        state=fact_state(fact, now), forgotten=fact.status is FactStatus.FORGOTTEN,
                        open_ended=fact.valid_until is None,
                        interval=f"{_date(fact.valid_from)} \u2192 {until}"))
    arrows = [_arrow(bars[i], bars[index[f.superseded_by]])
              for i, f in enumerate(rows) if f.superseded_by in index]
    crosses = [Cross(x=x_of(f.retraction.at), y=bars[i].y + 5,
                     title=f"retracted {_date(f.retraction.at)}")
               for i, f in enumerate(rows) if f.retraction is not None]
    height = TOP + len(rows) * ROW + AXIS
    ticks = [Tick(x=x_of(moment), label=label) for moment, label in _ticks(first, last)]
    return Timeline(width=width, height=height, bars=bars, arrows=arrows, crosses=crosses,
                    ticks=ticks, now_x=x_of(now), hidden=len(ordered) - len(rows))


def _rows(facts: list[Fact]) -> list[Fact]:
    """One row per fact, grouped by subject and predicate; groups with a history (a value
    that ended) first, then small groups before large ones, so changes stay in view."""
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in facts:
        groups[(fact.subject_id, fact.predicate)].append(fact)

    def order(group: list[Fact]) -> tuple[bool, int, datetime]:
        return (all(f.valid_until is None for f in group), len(group),
                min(f.valid_from for f in group))

    return [fact for group in sorted(groups.values(), key=order)
            for fact in sorted(group, key=lambda f: (f.valid_from, f.recorded_at))]


def _arrow(old: Bar, new: Bar) -> Arrow:
    x1, y1 = old.x + old.width, old.y + 5
    x2, y2 = new.x, new.y + 5
    bend = max(abs(x2 - x1) / 2, 24.0)
    return Arrow(path=f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} "
                      f"{x2 - 3:.1f},{y2:.1f}",
                 title=f"\u201c{new.text}\u201d superseded \u201c{old.text}\u201d")


def _ticks(first: datetime, last: datetime, count: int = 6) -> list[tuple[datetime, str]]:
    step = (last - first) / count
    fmt = "%Y-%m-%d" if last - first < timedelta(days=120) else "%b %Y"
    return [(first + step * (i + 0.5), (first + step * (i + 0.5)).strftime(fmt))
            for i in range(count)]


class Node(BaseModel):
    entity_id: str
    name: str
    type: str
    x: float
    y: float
    colour: str
    root: bool


class Edge(BaseModel):
    x1: float
    y1: float
    x2: float
    y2: float
    label: str
    lx: float
    ly: float
    shown: bool = Field(default=True, description="whether the label is drawn (else a tooltip)")


class Graph(BaseModel):
    width: int
    height: int
    nodes: list[Node]
    edges: list[Edge]


def neighbourhood(found: Neighborhood, *, width: int = 760, height: int = 480) -> Graph:
    """The entity at the centre and its neighbours on one ring per hop.

    A crowded ring alternates between two radii so that names do not collide;
    an edge's label sits near its outer end, where edges are furthest apart, and in
    a crowd only the first edge of each label draws it (the rest keep it as a tooltip).
    """
    cx, cy = width / 2, height / 2
    by_hop: dict[int, list[str]] = defaultdict(list)
    names = {e.id: e for e in [found.entity, *found.entities]}
    for entity_id, hop in sorted(found.hops.items(), key=lambda kv: (kv[1], kv[0])):
        if entity_id in names and hop > 0:
            by_hop[hop].append(entity_id)
    rings = max(by_hop, default=1)
    place: dict[str, tuple[float, float]] = {found.entity.id: (cx, cy)}
    for hop, members in by_hop.items():
        rx, ry = (width / 2 - 90) * hop / rings, (height / 2 - 50) * hop / rings
        crowded = len(members) > 10
        for i, entity_id in enumerate(members):
            angle = -math.pi / 2 + 2 * math.pi * i / len(members) + 0.35 * (hop - 1)
            shrink = 0.68 if crowded and i % 2 else 1.0
            place[entity_id] = (cx + rx * shrink * math.cos(angle),
                                cy + ry * shrink * math.sin(angle))
    labels: dict[tuple[str, str], list[str]] = defaultdict(list)
    for fact in found.facts:
        pair = (fact.subject_id, fact.object_id)
        if pair[0] in place and pair[1] in place:
            labels[pair].append(predicate_label(fact.predicate))
    edges = []
    drawn: set[str] = set()
    crowded = len(labels) > 12
    for (a, b), predicates in labels.items():
        (x1, y1), (x2, y2) = place[a], place[b]
        inner, outer = ((x1, y1), (x2, y2)) if a == found.entity.id else ((x2, y2), (x1, y1))
        lx, ly = inner[0] + 0.62 * (outer[0] - inner[0]), inner[1] + 0.62 * (outer[1] - inner[1])
        label = ", ".join(dict.fromkeys(predicates))
        edges.append(Edge(x1=x1, y1=y1, x2=x2, y2=y2, lx=lx, ly=ly - 3, label=label,
                          shown=not crowded or label not in drawn))
        drawn.add(label)
    nodes = [Node(entity_id=i, name=names[i].name, type=names[i].type, x=x, y=y,
                  colour=entity_colour(names[i].type), root=i == found.entity.id)
             for i, (x, y) in place.items()]
    return Graph(width=width, height=height, nodes=nodes, edges=edges)
