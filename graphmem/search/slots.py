"""The slot channel: "what is X's Y?" answered straight from the graph.

A knowledge graph knows that Maya's employer is one value at a time, which one
holds at any date, and that Diego's employer is not Maya's. Plain retrieval
knows none of that. When a question names an entity (:mod:`graphmem.search.focus`)
and asks for one of the predicate registry's slots, the answer is that
entity's facts of the slot's family valid under the time view: one read of the
entity's facts, no ranking involved.

Questions are matched to slots by meaning, offline: each predicate's example
questions (``PredicateSpec.questions``, with ``X`` for the entity) are embedded
once with the same model as everything else, and the question, with the
entity's name replaced by ``X``, goes to the closest one if it is close enough.

The latest word on a slot answers, and that may be a retraction. When nothing
holds in the view and the slot's last value ended by a retraction ("I'm not
vegan anymore"), the retraction marker answers if it says the slot is empty
("Maya is no longer with anyone") or if the question asks about the value it
retracts ("Is Maya vegan?" -> "Maya no longer follows a vegan diet."). A
question for the current value ("Who does Kofi work for?") is not answered by
"Kofi no longer works at Cyberdyne": it names only a former value, which must
not stand as the answer (the history view shows it). A fact the user forgot
counts as an ended value of its slot: its turns do not answer for the slot.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from graphmem.embed.base import Embedder
from graphmem.models import Fact, FactStatus
from graphmem.predicates import PredicateRegistry, PredicateSpec
from graphmem.search.focus import Focus
from graphmem.search.overrides import overridden_across_scopes
from graphmem.store.base import GraphStore
from graphmem.temporal import TimeFilter

#: Cosine similarity from which a question is taken to ask for a slot. Chosen on the
#: dev temporal suite's questions and the LoCoMo dev questions (bench/temporal_suite.py,
#: bench/locomo_recall.py): its paraphrases score 0.75-0.95 against the examples, and
#: LoCoMo's open questions ("What did X paint?") stay below it.
MATCH_THRESHOLD = 0.72
#: How many of the entity's facts one slot read considers.
SLOT_READ_LIMIT = 200


@dataclass(frozen=True)
class SlotMatch:
    spec: PredicateSpec
    similarity: float


@dataclass(frozen=True)
class SlotAnswer:
    """What the graph says about a focus's slot under a time view.

    ``current`` holds the values valid in the view (best first: latest start);
    ``stale`` the slot's facts that had ended by then (superseded, retracted or
    forgotten), whose statements must not answer for it; ``retractions`` the
    markers of the retraction that emptied the slot, when nothing holds.
    """

    match: SlotMatch
    current: list[Fact]
    stale: list[Fact]
    known: bool
    """Whether the graph knows this slot of the focus at all (at any time): then the
    slot answers for it, even when the answer is "nothing at that time"."""
    retractions: list[Fact] = field(default_factory=list)

    def past(self, time: TimeFilter) -> list[Fact]:
        """The slot's ended values, newest first: what a history view of the slot shows
        after its current value (a forgotten one only if the view includes those; never a
        value that never held)."""
        shown = [f for f in self.stale if not time.never_held(f)
                 and (time.include_forgotten or f.status is not FactStatus.FORGOTTEN)]
        return sorted(shown, key=lambda f: (f.valid_from, f.recorded_at), reverse=True)

    def answers(self, question: str) -> list[Fact]:
        """What leads the results: the values in the view, else the retraction markers
        that say the slot is empty or name a value the question asks about."""
        if self.current:
            return self.current
        return [m for m in self.retractions if not m.object_name or names_value(m, question)]


class SlotMatcher:
    """Maps questions to registry slots by the meaning of their example questions."""

    def __init__(self, registry: PredicateRegistry, embedder: Embedder, *,
                 threshold: float = MATCH_THRESHOLD) -> None:
        self.registry = registry
        self.embedder = embedder
        self.threshold = threshold
        self._lock = threading.Lock()
        self._examples: tuple[list[PredicateSpec], np.ndarray] | None = None

    def match(self, blanked_question: str) -> SlotMatch | None:
        """The slot a question (its entity already replaced by ``X``) asks for, if any."""
        specs, vectors = self._example_vectors()
        if not specs:
            return None
        query = np.asarray(self.embedder.embed([blanked_question])[0], dtype=np.float32)
        scores = vectors @ query
        best = int(np.argmax(scores))
        if float(scores[best]) < self.threshold:
            return None
        return SlotMatch(specs[best], float(scores[best]))

    def _example_vectors(self) -> tuple[list[PredicateSpec], np.ndarray]:
        with self._lock:
            if self._examples is None:
                specs = [s for s in self.registry.specs.values() for _ in s.questions]
                texts = [q for s in self.registry.specs.values() for q in s.questions]
                vectors = (np.asarray(self.embedder.embed(texts), dtype=np.float32) if texts
                           else np.zeros((0, 1), dtype=np.float32))
                self._examples = (specs, vectors)
            return self._examples


def read_slot(store: GraphStore, tenant: str, scope_keys: list[str], focus: Focus,
              match: SlotMatch, registry: PredicateRegistry, time: TimeFilter,
              now: datetime) -> SlotAnswer:
    """The focus's facts of the slot's family (as known at ``as_known_at``): those valid in
    the view, and those that had started by the view's time but ended by then or were
    forgotten; with nothing valid, the markers of the retraction that ended the last one."""
    everything = TimeFilter(as_known_at=time.as_known_at, include_history=True,
                            include_forgotten=True)
    view = TimeFilter(as_of=time.as_of, as_known_at=time.as_known_at)
    family = match.spec.family
    facts = [f for f in store.facts_about(tenant, scope_keys, list(focus.ids), everything,
                                          SLOT_READ_LIMIT, embeddings=False)
             if f.subject_id in focus.ids and registry.spec(f.predicate).family == family]
    current = sorted((f for f in facts if view.matches(f, now)),
                     key=lambda f: (f.valid_from, f.recorded_at), reverse=True)
    overridden = overridden_across_scopes(current, registry)  # a member scope's two memories
    current = [f for f in current if f.id not in overridden]
    chosen = {f.id for f in current}
    at = view.at(now)
    stale = [f for f in facts if f.id not in chosen and f.valid_from <= at]
    retractions = [] if current else _retractions(store, tenant, focus, family, registry,
                                                  stale, at)
    return SlotAnswer(match, current, stale, known=bool(facts), retractions=retractions)


def names_value(marker: Fact, question: str) -> bool:
    """Whether the question names the value a retraction marker retracts ("Is Maya vegan?",
    "Do I drink coffee?"): every word of it."""
    value = set(re.findall(r"\w+", marker.object_name.lower()))
    return bool(value) and value <= set(re.findall(r"\w+", question.lower()))


def retractions_asked(said: Iterable[Fact], focus: Focus, question: str, time: TimeFilter,
                      now: datetime) -> list[Fact]:
    """Without a slot answer, the latest word on a value the question names, when that word
    was a retraction: "Do I drink coffee?" after "I don't drink coffee anymore" is answered
    by "Ravi no longer drinks coffee." (the turn that said so is stale, and the fact it
    ended is history, so nothing else would answer). ``said``: the facts of the turns the
    search found, where such a marker comes from. A value said again after it was retracted
    ("I'm back on coffee") is no longer retracted. The view's time rules as for any
    statement; a history view shows the retracted facts themselves."""
    if time.include_history:
        return []
    facts = list(said)
    markers = [m for m in facts if m.status is FactStatus.RETRACTION
               and m.subject_id in focus.ids and names_value(m, question)
               and time.sees_statement(m.valid_from, m.recorded_at)]
    again = [f for f in facts if f.status is not FactStatus.RETRACTION and time.matches(f, now)]
    latest: dict[str, Fact] = {}
    for marker in sorted(markers, key=lambda m: (m.valid_from, m.recorded_at)):
        if not any(f.timeline_key == marker.timeline_key and f.valid_from >= marker.valid_from
                   for f in again):
            latest[marker.timeline_key] = marker
    return sorted(latest.values(), key=lambda m: (m.valid_from, m.recorded_at), reverse=True)


def _retractions(store: GraphStore, tenant: str, focus: Focus, family: str,
                 registry: PredicateRegistry, stale: list[Fact], at: datetime) -> list[Fact]:
    """The markers of the retraction that ended the slot's latest value, if one did."""
    ended = [f for f in stale if f.status is not FactStatus.FORGOTTEN and f.valid_until]
    if not ended:
        return []
    last = max(ended, key=lambda f: (f.valid_until or at, f.valid_from))
    if last.retraction is None or last.retraction.episode_id is None or last.retraction.at > at:
        return []
    return [m for m in store.facts_of_episodes(tenant, [last.retraction.episode_id])
            if m.status is FactStatus.RETRACTION and m.subject_id in focus.ids
            and m.valid_from == last.retraction.at and registry.spec(m.predicate).family == family]
