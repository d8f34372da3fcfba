"""The entity view's pictures as geometry: bars, supersede arrows, retraction crosses, rings."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from api.ui.svg import neighbourhood, timeline
from graphmem.manage import Neighborhood
from graphmem.models import Category, Entity, Fact, FactStatus, Retraction

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _day(month: int, year: int = 2024) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def _fact(fid: str, predicate: str, obj: str, start: datetime, **changes: object) -> Fact:
    values: dict[str, object] = dict(
        id=fid, tenant="t", scope_key="user:alice", subject_id="alice", subject_name="Alice",
        predicate=predicate, object_id=obj.lower(), object_name=obj, valid_from=start,
        text=f"Alice {predicate.lower()} {obj}.", timeline_key=f"alice:{predicate}")
    values.update(changes)
    return Fact.model_validate(values)


def _history() -> list[Fact]:
    return [
        _fact("tea", "LIKES", "tea", _day(2), category=Category.PREFERENCE),
        _fact("acme", "WORKS_AT", "Acme", _day(1), valid_until=_day(9), superseded_by="globex"),
        _fact("globex", "WORKS_AT", "Globex", _day(9), supersedes=["acme"]),
        _fact("hike", "LOVES", "hiking", _day(3), valid_until=_day(10),
              retraction=Retraction(at=_day(10)), status=FactStatus.FORGOTTEN),
    ]


def test_bars_span_each_facts_validity_and_groups_with_history_come_first() -> None:
    drawn = timeline(_history(), NOW)
    bars = {b.fact_id: b for b in drawn.bars}

    assert [b.fact_id for b in drawn.bars] == ["hike", "acme", "globex", "tea"]
    assert bars["acme"].state == "superseded" and bars["hike"].state == "retracted"
    assert bars["globex"].state == "current" and bars["globex"].open_ended
    assert bars["hike"].forgotten and not bars["tea"].forgotten
    # left to right in time: Acme ends where Globex starts, and "now" is past every start
    assert bars["acme"].x < bars["tea"].x < bars["hike"].x < bars["globex"].x
    assert math.isclose(bars["acme"].x + bars["acme"].width, bars["globex"].x)
    assert all(b.x + b.width <= drawn.now_x + 1e-6 for b in drawn.bars)
    assert bars["acme"].interval == "2024-01-01 \u2192 2024-09-01"
    assert bars["globex"].interval == "2024-09-01 \u2192 now"
    assert bars["tea"].colour != bars["acme"].colour  # by category
    assert len({b.y for b in drawn.bars}) == 4 and drawn.height > max(b.y for b in drawn.bars)


def test_an_arrow_leads_from_a_superseded_fact_to_its_successor_and_a_cross_marks_a_retraction(
        ) -> None:
    drawn = timeline(_history(), NOW)
    bars = {b.fact_id: b for b in drawn.bars}

    [arrow] = drawn.arrows
    start, end = arrow.path.split(" C")[0], arrow.path.split(" ")[-1]
    assert start == f"M{bars['acme'].x + bars['acme'].width:.1f},{bars['acme'].y + 5:.1f}"
    assert end == f"{bars['globex'].x - 3:.1f},{bars['globex'].y + 5:.1f}"
    assert "Alice works_at Globex." in arrow.title and "Alice works_at Acme." in arrow.title
    [cross] = drawn.crosses
    assert math.isclose(cross.x, bars["hike"].x + bars["hike"].width)
    assert cross.title == "retracted 2024-10-01"


def test_past_max_rows_the_facts_that_simply_hold_are_left_out() -> None:
    facts = [*_history(), *[_fact(f"h{i}", "HOBBY", f"hobby {i}", _day(1 + i % 12, 2023))
                            for i in range(20)]]

    drawn = timeline(facts, NOW, max_rows=5)

    assert drawn.hidden == 19
    assert [b.fact_id for b in drawn.bars][:3] == ["hike", "acme", "globex"]
    assert len(drawn.arrows) == 1 and len(drawn.crosses) == 1
    assert timeline(facts, NOW).hidden == 0


def test_ticks_are_ordered_and_an_empty_timeline_still_draws() -> None:
    drawn = timeline(_history(), NOW)
    xs = [t.x for t in drawn.ticks]
    assert xs == sorted(xs) and len(xs) == 6
    empty = timeline([], NOW)
    assert empty.bars == [] and empty.arrows == [] and empty.height > 0


def _entity(eid: str, name: str, kind: str = "concept") -> Entity:
    return Entity(id=eid, tenant="t", scope_key="user:alice", name=name, type=kind)


def test_neighbourhood_puts_the_entity_in_the_middle_and_labels_each_pair_once() -> None:
    alice = _entity("alice", "Alice", "person")
    others = [_entity(f"e{i}", f"Thing {i}") for i in range(14)]
    facts = [_fact(f"f{i}", "LIKES", f"Thing {i}", _day(1), object_id=f"e{i}")
             for i in range(14)]
    facts.append(_fact("g", "OWNS", "Thing 0", _day(2), object_id="e0"))
    found = Neighborhood(entity=alice, entities=others, facts=facts,
                         hops={"alice": 0, **{f"e{i}": 1 for i in range(14)}})

    graph = neighbourhood(found, width=760, height=480)

    root = next(n for n in graph.nodes if n.root)
    assert (root.x, root.y) == (380, 240) and root.name == "Alice"
    spots = {(round(n.x), round(n.y)) for n in graph.nodes}
    assert len(spots) == 15  # nobody on top of anybody
    assert all(0 < n.x < 760 and 0 < n.y < 480 for n in graph.nodes)
    distances = {round(math.hypot(n.x - 380, (n.y - 240) * 380 / 240)) for n in graph.nodes
                 if not n.root}
    assert len(distances) > 1  # a crowded ring alternates two radii
    assert len(graph.edges) == 14
    assert any(e.label == "likes, owns" and e.shown for e in graph.edges)
    likes = [e for e in graph.edges if e.label == "likes"]
    assert [e.shown for e in likes] == [True] + [False] * 12  # a crowd labels each kind once
