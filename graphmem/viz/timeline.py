"""Fact timelines: validity intervals as bars, supersedes arrows, retractions marked."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.models import Category, Fact
from graphmem.viz.snapshot import GraphSnapshot, fact_state
from graphmem.viz.style import CATEGORY_COLOURS, new_figure, predicate_label

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def draw_timeline(shot: GraphSnapshot, path: str | Path | None = None, *,
                  width: float = 12.0) -> Figure:
    """Each fact's validity interval as a bar, one panel per subject entity.

    Bars are coloured by category and faded once the fact stopped holding;
    open bars run to the snapshot's date (dashed line). An arrow joins a fact
    to the one that SUPERSEDES it, and a red cross marks a retraction.
    """
    import matplotlib.dates as mdates
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    groups: dict[str, list[Fact]] = defaultdict(list)
    for fact in shot.facts:
        groups[fact.subject_id].append(fact)
    order = sorted(groups, key=lambda s: (-len(groups[s]), groups[s][0].subject_name))
    rows = {s: _timeline_rows(groups[s]) for s in order}
    fig = new_figure((width, 1.2 + 0.34 * len(shot.facts) + 0.55 * len(order)))
    fig.set_layout_engine("constrained")
    axes = fig.subplots(max(len(order), 1), 1, sharex=True, squeeze=False, gridspec_kw={
        "height_ratios": [len(rows[s]) + 1.2 for s in order] or None})[:, 0]
    starts = [f.valid_from for f in shot.facts] or [shot.at]
    first, last = min(starts), max([shot.at, *(f.valid_until for f in shot.facts if f.valid_until)])
    span = max(last - first, timedelta(days=7))
    by_id = {f.id: f for f in shot.facts}
    for ax, subject in zip(axes, order, strict=False):
        facts = rows[subject]
        index = {f.id: i for i, f in enumerate(facts)}
        for i, fact in enumerate(facts):
            state = fact_state(fact, shot.at)
            end = fact.valid_until or shot.at
            ax.barh(i, max(end - fact.valid_from, span / 400), left=fact.valid_from, height=0.56,
                    color=CATEGORY_COLOURS[fact.category], alpha=1.0 if state == "current" else 0.4,
                    edgecolor="#333333", linewidth=0.6, gid=f"fact:{fact.id}:{state}")
            if fact.valid_until is None:
                ax.plot([shot.at], [i], marker=">", color=CATEGORY_COLOURS[fact.category], ms=7)
            if fact.retraction is not None:
                ax.plot([fact.retraction.at], [i], marker="X", color="#c62828", ms=10,
                        markeredgecolor="white", zorder=4, gid=f"retraction:{fact.id}")
            successor = by_id.get(fact.superseded_by or "")
            if successor is not None and successor.id in index:
                ax.annotate("", xy=(successor.valid_from, index[successor.id]),
                            xytext=(end, i), zorder=5, gid=f"supersedes:{successor.id}:{fact.id}",
                            arrowprops={"arrowstyle": "-|>", "color": "#212121", "lw": 1.7,
                                        "connectionstyle": "arc3,rad=0.45", "shrinkA": 2,
                                        "shrinkB": 2, "mutation_scale": 16})
        ax.set_yticks(range(len(facts)), [f"{predicate_label(f.predicate)}: {f.object_name}"
                                          for f in facts], fontsize=9)
        ax.set_ylim(len(facts) - 0.4, -0.6)
        ax.axvline(shot.at, color="#616161", linestyle="--", lw=1)
        ax.grid(axis="x", color="#eeeeee")
        ax.set_axisbelow(True)
        entity = shot.entity(subject)
        kind = entity.type if entity else "entity"
        ax.set_title(f"{facts[0].subject_name}  ({kind})", loc="left", fontsize=11,
                     fontweight="bold")
    last_ax = axes[-1]
    last_ax.set_xlim(first - span * 0.03, last + span * 0.05)
    locator = mdates.AutoDateLocator()  # type: ignore[no-untyped-call]
    last_ax.xaxis.set_major_locator(locator)
    last_ax.xaxis.set_major_formatter(
        mdates.ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    categories = [c for c in Category if any(f.category is c for f in shot.facts)]
    handles = [Patch(color=CATEGORY_COLOURS[c], label=c.value) for c in categories] + [
        Patch(color="#9e9e9e", alpha=0.4, label="no longer holds"),
        Line2D([], [], color="#212121", marker=r"$\rightarrow$", ms=12, lw=0,
               label="superseded by"),
        Line2D([], [], color="#c62828", marker="X", ms=9, lw=0, label="retracted"),
        Line2D([], [], color="#616161", linestyle="--", label=f"today ({shot.at:%Y-%m-%d})"),
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 5),
               fontsize=9, frameon=False)
    fig.suptitle("Fact timelines per entity", x=0.01, ha="left", fontsize=12)
    if path is not None:
        fig.savefig(path, dpi=150, facecolor="white")
    return fig


def _timeline_rows(facts: list[Fact]) -> list[Fact]:
    """One row per fact; a timeline's facts stay together, oldest first."""
    chains: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        chains[fact.timeline_key or fact.id].append(fact)
    ordered = sorted(chains.values(), key=lambda c: (min(f.valid_from for f in c), c[0].predicate))
    return [f for chain in ordered for f in sorted(chain, key=lambda f: f.valid_from)]
