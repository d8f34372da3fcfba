"""graphmem.viz: the pictures are drawn from the facts, legible, and say what they mean."""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import FancyArrowPatch

from graphmem import viz
from graphmem.embed.base import Embedder
from graphmem.errors import SetupError
from graphmem.models import Category, Entity, Fact, Retraction, Scope

T0 = datetime(2024, 3, 4, tzinfo=UTC)
T1 = datetime(2024, 5, 1, tzinfo=UTC)
T2 = datetime(2024, 9, 2, tzinfo=UTC)
AT = datetime(2024, 9, 10, tzinfo=UTC)


def _entity(name: str, kind: str) -> Entity:
    return Entity(id=f"ent_{name.replace(' ', '_')}", tenant="t", scope_key="user:u", name=name,
                  type=kind)


def _fact(subject: Entity, predicate: str, obj: Entity, start: datetime,
          category: Category = Category.FACT, **fields: Any) -> Fact:
    return Fact(tenant="t", scope_key="user:u", subject_id=subject.id,
                subject_name=subject.name, predicate=predicate, object_id=obj.id,
                object_name=obj.name, text=f"{subject.name} {predicate} {obj.name}",
                category=category, valid_from=start,
                timeline_key=f"user:u|{subject.id}|{predicate}", **fields)


@pytest.fixture
def shot() -> viz.GraphSnapshot:
    """Wang: Vue 3 superseded by React, Acme retracted, a trip that ended, a preference."""
    wang, vue, react = _entity("Wang", "person"), _entity("Vue 3", "technology"), \
        _entity("React", "technology")
    acme, tokyo, ts = _entity("Acme", "organization"), _entity("Tokyo", "place"), \
        _entity("TypeScript", "technology")
    new = _fact(wang, "USES_FRAMEWORK", react, T1, Category.CONTEXT)
    old = _fact(wang, "USES_FRAMEWORK", vue, T0, Category.CONTEXT, valid_until=T1,
                superseded_by=new.id)
    new = new.model_copy(update={"supersedes": [old.id]})
    facts = [
        old, new,
        _fact(wang, "WORKS_AT", acme, T0, valid_until=T2, retraction=Retraction(at=T2)),
        _fact(wang, "TRAVELS_TO", tokyo, datetime(2024, 6, 17, tzinfo=UTC), Category.EVENT,
              valid_until=datetime(2024, 6, 24, tzinfo=UTC)),
        _fact(wang, "PREFERS", ts, T0, Category.PREFERENCE),
    ]
    return viz.GraphSnapshot(entities=[wang, vue, react, acme, tokyo, ts], facts=facts, at=AT)


def _by_predicate(shot: viz.GraphSnapshot, predicate: str, obj: str) -> Fact:
    return next(f for f in shot.facts if f.predicate == predicate and f.object_name == obj)


def test_fact_state_says_why_a_fact_stopped(shot: viz.GraphSnapshot) -> None:
    states = {f.object_name: viz.fact_state(f, AT) for f in shot.facts}
    assert states == {"Vue 3": "superseded", "React": "current", "Acme": "retracted",
                      "Tokyo": "ended", "TypeScript": "current"}
    acme = _by_predicate(shot, "WORKS_AT", "Acme")
    assert viz.fact_state(acme, T1) == "current"  # before its end, it held


def test_to_networkx_keys_edges_by_fact(shot: viz.GraphSnapshot) -> None:
    graph = viz.to_networkx(shot)
    assert graph.number_of_nodes() == 6 and graph.number_of_edges() == 5
    old = _by_predicate(shot, "USES_FRAMEWORK", "Vue 3")
    data = graph.edges[old.subject_id, old.object_id, old.id]
    assert (data["state"], data["category"], data["predicate"]) == \
        ("superseded", Category.CONTEXT, "USES_FRAMEWORK")
    assert graph.nodes[old.subject_id] == {"name": "Wang", "type": "person"}


def test_draw_graph_writes_a_png_with_three_legends(shot: viz.GraphSnapshot,
                                                    tmp_path: Path) -> None:
    fig = viz.draw_graph(shot, tmp_path / "graph.png")
    assert (tmp_path / "graph.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    legends = {lg.get_title().get_text(): [t.get_text() for t in lg.get_texts()]
               for lg in fig.legends}
    assert legends["Entity type"] == ["organization", "person", "place", "technology"]
    assert legends["Fact category"] == ["preference", "context"]  # current relations only
    assert legends["Relation"] == ["holds today", "superseded", "retracted",
                                   "ended (stated end)"]


def test_superseded_relations_are_dashed_and_grey(shot: viz.GraphSnapshot) -> None:
    fig = viz.draw_graph(shot)
    arrows = {p.get_gid(): p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)}
    old = _by_predicate(shot, "USES_FRAMEWORK", "Vue 3")
    new = _by_predicate(shot, "USES_FRAMEWORK", "React")
    superseded, current = arrows[f"fact:{old.id}:superseded"], arrows[f"fact:{new.id}:current"]
    assert superseded.get_linestyle() == "dashed" and current.get_linestyle() == "solid"
    assert to_hex(superseded.get_edgecolor()) == viz.PAST_COLOUR
    assert to_hex(current.get_edgecolor()) == viz.CATEGORY_COLOURS[Category.CONTEXT]
    acme = _by_predicate(shot, "WORKS_AT", "Acme")
    assert arrows[f"fact:{acme.id}:retracted"].get_linestyle() == "dashdot"


def test_node_boxes_are_coloured_by_entity_type(shot: viz.GraphSnapshot) -> None:
    fig = viz.draw_graph(shot)
    colours = {t.get_text(): to_hex(t.get_bbox_patch().get_facecolor())  # type: ignore[union-attr]
               for t in fig.axes[0].texts if t.get_text() in {"Wang", "Acme", "React"}}
    assert colours == {"Wang": viz.ENTITY_COLOURS["person"].lower(),
                       "Acme": viz.ENTITY_COLOURS["organization"].lower(),
                       "React": viz.ENTITY_COLOURS["technology"].lower()}


def test_labels_do_not_overlap_even_when_crowded() -> None:
    hub = _entity("Wang Wei", "person")
    leaves = [_entity(f"a rather long entity name {i}", "concept") for i in range(18)]
    facts = [_fact(hub, f"RELATION_NUMBER_{i}", leaf, T0) for i, leaf in enumerate(leaves)]
    shot = viz.GraphSnapshot(entities=[hub, *leaves], facts=facts, at=AT)
    fig = viz.draw_graph(shot)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    texts = fig.axes[0].texts
    assert len(texts) == 19 + 18  # every entity and every relation is labelled
    boxes = [t.get_bbox_patch().get_window_extent(renderer) for t in texts]  # type: ignore[union-attr]
    overlapping = [(a.get_text(), b.get_text())
                   for (a, box_a), (b, box_b) in combinations(zip(texts, boxes), 2)
                   if box_a.overlaps(box_b)]
    assert overlapping == []
    inside = fig.axes[0].get_window_extent(renderer)
    assert all(inside.contains(*box.p0) and inside.contains(*box.p1) for box in boxes) or \
        all(fig.bbox.contains(*box.p0) and fig.bbox.contains(*box.p1) for box in boxes)


def test_graph_html_is_self_contained(shot: viz.GraphSnapshot, tmp_path: Path) -> None:
    page = viz.graph_html(shot, tmp_path / "graph.html").read_text()
    assert not re.search(r"<(script|link)\b[^>]*(src|href)=\"https?://", page)
    assert "new vis.Network" in page and "graphmem-legend" in page
    edges = json.loads(re.search(r"edges = new vis\.DataSet\((\[.*?\])\);", page, re.S)[1])  # type: ignore[index]
    by_label = {(e["label"], e["title"].split(" | ")[0]): e for e in edges}
    old = by_label[("uses framework", "Wang USES_FRAMEWORK Vue 3")]
    new = by_label[("uses framework", "Wang USES_FRAMEWORK React")]
    assert old["dashes"] is True and old["color"] == viz.PAST_COLOUR
    assert new["dashes"] is False and new["color"] == viz.CATEGORY_COLOURS[Category.CONTEXT]


def test_timeline_marks_supersedes_and_retractions(shot: viz.GraphSnapshot,
                                                   tmp_path: Path) -> None:
    fig = viz.draw_timeline(shot, tmp_path / "timeline.png")
    assert (tmp_path / "timeline.png").stat().st_size > 10_000
    (ax,) = [a for a in fig.axes if a.get_title(loc="left")]
    assert ax.get_title(loc="left") == "Wang  (person)"
    gids = {a.get_gid() for a in [*ax.patches, *ax.lines, *ax.texts] if a.get_gid()}
    old = _by_predicate(shot, "USES_FRAMEWORK", "Vue 3")
    new = _by_predicate(shot, "USES_FRAMEWORK", "React")
    acme = _by_predicate(shot, "WORKS_AT", "Acme")
    assert f"supersedes:{new.id}:{old.id}" in gids
    assert f"retraction:{acme.id}" in gids
    assert {f"fact:{f.id}:{viz.fact_state(f, AT)}" for f in shot.facts} <= gids
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert rows.index("uses framework: React") == rows.index("uses framework: Vue 3") + 1
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert {"superseded by", "retracted", "no longer holds"} <= set(legend)


def test_timeline_has_one_panel_per_subject(shot: viz.GraphSnapshot) -> None:
    docker, lesson = _entity("Docker", "technology"), _entity("needs proxy-env", "lesson")
    extra = _fact(docker, "LESSON", lesson, T0, Category.LESSON)
    two = shot.model_copy(update={"facts": [*shot.facts, extra],
                                  "entities": [*shot.entities, docker, lesson]})
    fig = viz.draw_timeline(two)
    titles = [a.get_title(loc="left") for a in fig.axes if a.get_title(loc="left")]
    assert titles == ["Wang  (person)", "Docker  (technology)"]


def test_snapshot_reads_history_and_entities(tmp_path: Path, embedder: Embedder) -> None:
    from graphmem.extract.rules import RuleExtractor
    from graphmem.ingest.inputs import FactInput
    from graphmem.memory import Memory
    from graphmem.store.embedded import EmbeddedStore

    scope = Scope(user_id="wang")
    memory = Memory(EmbeddedStore(tmp_path / "m.db", embedding_dim=384), RuleExtractor(),
                    embedder, clock=lambda: AT).open()
    try:
        for start, framework in ((T0, "Vue 3"), (T1, "React")):
            memory.add_facts("t", [FactInput(scope=scope, subject="Wang",
                                             predicate="USES_FRAMEWORK", object=framework,
                                             object_type="technology", valid_from=start)])
        shot = viz.snapshot(memory, "t", scope)
        before = viz.snapshot(memory, "t", scope, as_of=T0 + timedelta(days=1))
        naive = viz.snapshot(memory, "t", scope, as_of=(T0 + timedelta(days=1)).replace(tzinfo=None))
        today_only = viz.snapshot(memory, "t", scope, include_history=False)
    finally:
        memory.close()
    assert shot.at == AT
    assert sorted((f.object_name, viz.fact_state(f, AT)) for f in shot.facts) == \
        [("React", "current"), ("Vue 3", "superseded")]
    assert sorted(e.name for e in shot.entities) == ["React", "Vue 3", "Wang"]
    assert all(e.embedding is None for e in shot.entities)
    assert [f.object_name for f in before.facts] == ["Vue 3"]
    assert naive.at == before.at and [viz.fact_state(f, naive.at) for f in naive.facts] == [
        viz.fact_state(f, before.at) for f in before.facts]  # a naive as_of is UTC
    assert [f.object_name for f in today_only.facts] == ["React"]


def test_missing_matplotlib_says_how_to_install(shot: viz.GraphSnapshot,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    with pytest.raises(SetupError, match=r"pip install 'graphmem\[dev\]'"):
        viz.draw_graph(shot)


def test_missing_pyvis_says_how_to_install(shot: viz.GraphSnapshot, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyvis.network", None)
    with pytest.raises(SetupError, match=r"needs pyvis: pip install 'graphmem\[dev\]'"):
        viz.graph_html(shot, tmp_path / "graph.html")
