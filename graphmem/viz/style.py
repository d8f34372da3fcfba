"""Colours, line styles and labels shared by every drawing, and a pyplot-free Figure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from graphmem.errors import SetupError
from graphmem.models import Category

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FactState = Literal["current", "superseded", "retracted", "ended"]
LineStyle = Literal["solid", "dashed", "dashdot", "dotted"]

ENTITY_COLOURS: dict[str, str] = {
    "person": "#FFB74D", "name": "#FFE082", "organization": "#90CAF9", "place": "#A5D6A7",
    "technology": "#CE93D8", "role": "#80DEEA", "concept": "#E0E0E0", "lesson": "#FFAB91",
    "event": "#F48FB1",
}
_SPARE_COLOURS = ("#C5E1A5", "#B39DDB", "#FFCC80", "#B0BEC5", "#EF9A9A", "#80CBC4")
CATEGORY_COLOURS: dict[Category, str] = {
    Category.PREFERENCE: "#d62728", Category.FACT: "#1f77b4", Category.LESSON: "#ff7f0e",
    Category.GOAL: "#2ca02c", Category.CONTEXT: "#9467bd", Category.EVENT: "#17becf",
    Category.PERSON: "#8c564b", Category.TODO: "#bcbd22", Category.SKILL: "#e377c2",
}
PAST_COLOUR = "#9e9e9e"
#: matplotlib line style of a relation in each state; vis-network's ``dashes`` follow it.
LINE_STYLES: dict[FactState, LineStyle] = {
    "current": "solid", "superseded": "dashed", "retracted": "dashdot", "ended": "dotted"}
STATE_LABELS: dict[FactState, str] = {
    "current": "holds today", "superseded": "superseded", "retracted": "retracted",
    "ended": "ended (stated end)"}


def entity_colour(entity_type: str) -> str:
    """A fixed colour per known type; other types get a stable spare colour."""
    known = ENTITY_COLOURS.get(entity_type)
    if known is not None:
        return known
    return _SPARE_COLOURS[sum(map(ord, entity_type)) % len(_SPARE_COLOURS)]


def predicate_label(predicate: str) -> str:
    """``USES_FRAMEWORK`` -> ``uses framework``."""
    return predicate.lower().replace("_", " ")


def new_figure(figsize: tuple[float, float]) -> Figure:
    """A Figure on the Agg canvas, without pyplot's global state."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:
        raise SetupError("drawing needs matplotlib: pip install 'graphmem[dev]'") from err
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig
