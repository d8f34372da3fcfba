"""Turn resolved statements into timeline changes.

A :class:`TimelineEditor` holds the timelines an episode touches, loaded from
the store once. Statements are applied one by one:

* an assertion adds :class:`~graphmem.models.Evidence` to the fact with the
  same value that holds at that time (a restatement: no duplicate, higher
  confidence), or starts a new fact;
* a retraction becomes a *marker* in the timeline ("X stopped at t"); one that
  names a kind of thing ("I don't have a dog anymore") also ends the subject's
  current named things of that kind ("has a dog named Rex"), as they stand
  when it is applied.

Then each touched timeline is normalised (:mod:`graphmem.ingest.normalise`: a fact whose evidence straddles a
different value is split in two; adjacent runs of one value are merged) and
rebuilt by :func:`graphmem.temporal.rebuild_timeline`. The result depends on
the statements only, not on the order they arrived in, and only the touched
timelines can change, so nothing unrelated is ever invalidated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from graphmem.extract.rules.render import ended
from graphmem.ingest import held_with
from graphmem.ingest.fulfilled import carried_out, planned_predicates
from graphmem.ingest.shortnames import begun_by, shortened
from graphmem.ingest.normalise import (merge_confidence, normalise, restated_by, value_of,
                                       with_evidence)
from graphmem.models import (
    Cardinality,
    Category,
    Evidence,
    Fact,
    FactStatus,
    new_id,
)
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter, rebuild_timeline, timeline_key

#: A kind of thing, not a name: "dog", "guinea pig".
_KIND = re.compile(r"[a-z]+(?: [a-z]+)?")


@dataclass
class Statement:
    """One resolved statement, ready to apply."""

    scope_key: str
    subject_id: str
    subject_name: str
    predicate: str
    object_id: str
    object_name: str
    text: str
    category: Category
    importance: float
    confidence: float
    cardinality: str | None
    valid_from: datetime
    stated_until: datetime | None
    episode_id: str | None
    message_ids: list[str]
    retract: bool = False
    corrects: bool = False  # see ExtractedFact.corrects

    @property
    def evidence(self) -> Evidence:
        return Evidence(at=self.valid_from, episode_id=self.episode_id,
                        message_ids=list(self.message_ids))


@dataclass
class Outcome:
    created: list[Fact] = field(default_factory=list)
    confirmed: list[Fact] = field(default_factory=list)
    superseded: list[Fact] = field(default_factory=list)
    retracted: list[Fact] = field(default_factory=list)
    reopened: list[Fact] = field(default_factory=list)
    changed: list[Fact] = field(default_factory=list)  # everything to write
    deleted_ids: list[str] = field(default_factory=list)  # facts merged away or emptied


class TimelineEditor:
    def __init__(self, store: GraphStore, tenant: str, registry: PredicateRegistry,
                 now: datetime) -> None:
        self.store = store
        self.tenant = tenant
        self.registry = registry
        self.now = now
        self._timelines: dict[str, dict[str, Fact]] = {}
        #: The version of each loaded timeline as read, for the batch's ``timeline_versions``.
        self.versions: dict[str, int] = {}
        self._before: dict[str, Fact] = {}
        self._created: set[str] = set()
        self._confirmed: set[str] = set()
        #: Slots whose value this edit corrected as a slip: the wrong value's timeline and
        #: facts (see :meth:`_never_held`).
        self._corrected: dict[tuple[str, str, str], tuple[str, list[Fact]]] = {}

    def key_of(self, st: Statement) -> str:
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        return timeline_key(st.scope_key, st.subject_id, spec.family, spec.cardinality,
                            st.object_id)

    def _load_keys(self, keys: Iterable[str]) -> None:
        missing = [k for k in dict.fromkeys(keys) if k not in self._timelines]
        for key in missing:
            self._timelines[key] = {}
        if not missing:
            return
        # versions first: a write landing in between then fails its check
        self.versions.update(self.store.timeline_versions(self.tenant, missing))
        for fact in self.store.facts_in_timelines(self.tenant, missing):
            self._timelines[fact.timeline_key][fact.id] = fact
            self._before[fact.id] = fact

    def load(self, statements: list[Statement]) -> None:
        """Load the timelines of many statements in one store query, with the timelines
        :meth:`_end_held_with` will read beside them (a job's title and manager), so
        finishing costs no second round trip."""
        keys = [self.key_of(st) for st in statements]
        held = held_with.slots(self.registry, keys)
        self._load_keys([*keys, *(k for own, inner in held.items() for k in [own, *inner])])

    def load_facts(self, facts: list[Fact]) -> None:
        """Load the whole timelines of these facts (used by deletions and edits)."""
        self._load_keys(f.timeline_key for f in facts)

    def find(self, fact_id: str) -> Fact | None:
        for timeline in self._timelines.values():
            if fact_id in timeline:
                return timeline[fact_id]
        return None

    def replace(self, fact: Fact) -> None:
        """Put an edited copy of a loaded fact back into its timeline."""
        self._timelines.setdefault(fact.timeline_key, {})[fact.id] = fact

    def drop(self, fact_id: str) -> None:
        for timeline in self._timelines.values():
            timeline.pop(fact_id, None)

    # -- statements -----------------------------------------------------------
    def apply(self, st: Statement) -> None:
        key = self.key_of(st)
        self._load_keys([key])
        if st.retract and st.corrects:
            self._never_held(key, st)
        elif st.corrects and self._slot(st) in self._corrected:
            self._assert(key, self._correcting(key, st))
        elif st.retract and (placed := self._left_where_held(key, st)) is not st:
            self.apply(placed)
        elif st.retract:
            st = self._by_short_name(key, st)
            also = self._also_ended(key, st)
            self._retract(key, st)
            for other in also:
                self._retract(self.key_of(other), other)
        else:
            st = self._firm_by_short_name(key, st)
            self._assert(key, st)
            for done in [*self._carried_out(st), *self._outgrown(st)]:
                self._retract(self.key_of(done), done)

    def _carried_out(self, st: Statement) -> list[Statement]:
        """The subject's plans this assertion carries out, ended when it starts."""
        if st.predicate not in planned_predicates():
            return []
        return [self._ending(st, f) for f in carried_out(
            st.predicate, st.object_name, st.valid_from, self._current_of(st, ["PLANS"]))]

    def _outgrown(self, st: Statement) -> list[Statement]:
        """The subject's states this assertion leaves behind (``PredicateSpec.ends_states``),
        ended when it starts: "Daniel and I got married" ends "engaged"."""
        states = dict(self.registry.spec(st.predicate, _cardinality(st.cardinality)).ends_states)
        if not states:
            return []
        return [self._ending(st, f) for f in self._current_of(st, list(states))
                if f.valid_from < st.valid_from and f.object_name.casefold() in states[f.predicate]]

    def _retract(self, key: str, st: Statement) -> None:
        self._load_keys([key])
        self._add_marker(key, st)
        for named in self._named_of_kind(key, st):
            of_named = replace(st, object_id=named.object_id, object_name=named.object_name)
            self._retract(self.key_of(of_named), of_named)

    def _never_held(self, key: str, st: Statement) -> None:
        """A corrected slip: the value's current facts never held (they stay as history,
        ended where they began), and the timeline remembers where the first began for
        the right value (:meth:`apply` of the correcting assertion, in the same key for a
        one-valued relation)."""
        wrong = [f for f in self._timelines[key].values()
                 if f.status is FactStatus.ACTIVE and f.object_id == st.object_id
                 and f.valid_from <= st.valid_from
                 and (f.valid_until is None or f.valid_until > st.valid_from)]
        if not wrong:
            self._add_marker(key, st)
            return
        for fact in wrong:
            self.replace(fact.model_copy(update={"stated_until": fact.valid_from}))
        self._corrected[self._slot(st)] = (key, wrong)

    def _correcting(self, key: str, st: Statement) -> Statement:
        """The right value of a corrected slip, holding from when the wrong one began. In
        the wrong value's own timeline (a one-valued relation) the right value supersedes
        it there, so the wrong one's stated end is lifted again and the link is kept."""
        wrong_key, wrong = self._corrected[self._slot(st)]
        if wrong_key == key:
            for fact in wrong:
                self.replace(fact)  # as it was before the slip was undone
        return replace(st, valid_from=min(st.valid_from, *(f.valid_from for f in wrong)))

    def _slot(self, st: Statement) -> tuple[str, str, str]:
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        return st.scope_key, st.subject_id, spec.family

    def _left_where_held(self, key: str, st: Statement) -> Statement:
        """"I left Acme", read as leaving a town, ends the job at Acme the subject holds
        (see ``PredicateSpec.left``): the retraction moves to the one other leavable
        slot whose current value it names. Otherwise it stays as it is."""
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        if not spec.left or any(f.object_id == st.object_id
                                for f in self._held(key, st.valid_from)):
            return st
        others = [p for p, s in self.registry.specs.items() if s.left and p != st.predicate]
        named = st.object_name.casefold()
        held = [f for f in self._current_of(st, others)
                if f.object_id == st.object_id or f.object_name.casefold() == named]
        if len({f.predicate for f in held}) != 1:
            return st
        return self._ending(st, held[0])

    def _by_short_name(self, key: str, st: Statement) -> Statement:
        """"I left Nimbus" ends "works at Nimbus Cloudworks": a retraction naming no current
        value of its timeline moves to the one current value whose name begins with its
        words (people shorten names when they end them). Otherwise it stays as it is."""
        named = self._named_by_start(key, st)
        return self._ending(st, named) if named is not None else st

    def _firm_by_short_name(self, key: str, st: Statement) -> Statement:
        """"first month at Halvorsen done" restates "works at Halvorsen Analytics": a firm or
        school named by the first words of the current one is that one, not a new employer
        (which would end the old one, and the title held there)."""
        if st.predicate not in ("WORKS_AT", "STUDIES_AT"):
            return st
        named = self._named_by_start(key, st)
        return st if named is None else replace(st, object_id=named.object_id,
                                                object_name=named.object_name)

    def _named_by_start(self, key: str, st: Statement) -> Fact | None:
        """The one current fact of the statement's timeline whose value's name begins with
        the words of the statement's value, when the statement names no current value."""
        held = self._held(key, st.valid_from)
        if any(f.object_id == st.object_id for f in held):
            return None
        begun = begun_by(st.object_name, [f.object_name for f in held])
        return None if begun is None else held[begun]

    def _held(self, key: str, at: datetime) -> list[Fact]:
        """The facts of timeline ``key`` that hold at ``at``, as this edit has them."""
        return [f for f in self._timelines[key].values()
                if f.status is FactStatus.ACTIVE and f.valid_at(at)]

    def _also_ended(self, key: str, st: Statement) -> list[Statement]:
        """The retractions a retraction brings with it (``PredicateSpec.also_ends``): of the
        subject's current facts of those predicates about what this one ends: its object,
        or, for "we got divorced", whoever its slot holds."""
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        others = [p for p in spec.also_ends if p != st.predicate]
        if not others or st.corrects:
            return []
        if st.object_id:
            objects = {st.object_id}
        else:
            objects = {f.object_id for f in self._held(key, st.valid_from)}
        current = [f for f in self._current_of(st, others) if f.valid_from < st.valid_from]
        ended = [f for f in current if f.object_id in objects]
        if not ended and st.object_name:  # "sold the Focus" ends driving the "Ford Focus"
            named = [f for f in current if shortened(st.object_name, f.object_name)]
            ended = named if len(named) == 1 else []
        return [self._ending(st, f) for f in ended]

    def _current_of(self, st: Statement, predicates: list[str]) -> list[Fact]:
        """The statement's subject's facts of these predicates that hold when it is said,
        as this edit has them (one store read)."""
        stored = self.store.list_facts(self.tenant, FactQuery(
            scope_keys=[st.scope_key], predicates=predicates, entity_id=st.subject_id,
            time=TimeFilter(as_of=st.valid_from), limit=200))
        loaded = [f for timeline in self._timelines.values() for f in timeline.values()]
        facts = {f.id: f for f in [*stored, *loaded]}  # the editor's copy wins
        return [f for f in facts.values()
                if f.status is FactStatus.ACTIVE and f.valid_at(st.valid_from)
                and f.predicate in predicates and f.scope_key == st.scope_key
                and f.subject_id == st.subject_id]

    @staticmethod
    def _ending(st: Statement, fact: Fact) -> Statement:
        """``st``, said of ``fact``'s value instead: its predicate, object and ending."""
        return replace(st, predicate=fact.predicate, object_id=fact.object_id,
                       object_name=fact.object_name, cardinality=None,
                       text=ended(fact.subject_name, fact.predicate, fact.object_name))

    def _named_of_kind(self, key: str, st: Statement) -> list[Fact]:
        """What a retraction by kind ends: "I don't have a dog anymore" ends the fact
        "Maya has a dog named Rex".

        Only a many-valued relation keyed on a common noun ("dog") that has no fact of
        its own then, and only the subject's current facts of that predicate whose object
        is a name and whose text names the kind.
        """
        kind = st.object_name
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        if spec.cardinality is not Cardinality.MANY or not _KIND.fullmatch(kind) \
                or self._held(key, st.valid_from):
            return []
        said = re.compile(rf"\b{re.escape(kind)}(?:s|es)?\b", re.IGNORECASE)
        return [f for f in self._current_of(st, [st.predicate])
                if f.object_name[:1].isupper() and f.object_id != st.object_id
                and said.search(f.text.replace(f.object_name, " ")) is not None]

    def _assert(self, key: str, st: Statement) -> None:
        timeline = self._timelines[key]
        same = _same_value_at(timeline.values(), st)
        if same is not None and restated_by(same, st.evidence):
            return  # the same source again (a client's retry) is no new confirmation
        if same is not None:
            merged = with_evidence(same, [*same.evidence, st.evidence]).model_copy(update={
                "confidence": merge_confidence(same.confidence, st.confidence),
                "importance": max(same.importance, st.importance),
                "status": FactStatus.ACTIVE if same.status is FactStatus.FORGOTTEN else same.status,
            })
            if merged.valid_from < same.valid_from and st.text:
                # "I've been at Initech for two years" after "started at Initech last week":
                # the text that names the start now held is the one that said it (and the
                # vector is remade from it when the edit commits)
                merged = merged.model_copy(update={"text": st.text, "embedding": None})
            timeline[same.id] = merged
            if same.id not in self._created:
                self._confirmed.add(same.id)
            return
        fact = self._new_fact(key, st, FactStatus.ACTIVE)
        timeline[fact.id] = fact
        self._created.add(fact.id)

    def _add_marker(self, key: str, st: Statement) -> None:
        same = next((f for f in self._timelines[key].values()
                     if f.status is FactStatus.RETRACTION and f.object_id == st.object_id
                     and f.valid_from == st.valid_from), None)
        if same is not None:  # one ending said twice ("sold my car": owned and driven)
            self.replace(with_evidence(same, [st.evidence]))
            return
        marker = self._new_fact(key, st, FactStatus.RETRACTION)
        self._timelines[key][marker.id] = marker

    def _new_fact(self, key: str, st: Statement, status: FactStatus) -> Fact:
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        fact = Fact(
            tenant=self.tenant, scope_key=st.scope_key, subject_id=st.subject_id,
            subject_name=st.subject_name, predicate=st.predicate, object_id=st.object_id,
            object_name=st.object_name, text=st.text, category=st.category,
            importance=st.importance, confidence=st.confidence, cardinality=spec.cardinality,
            timeline_key=key, valid_from=st.valid_from, stated_until=st.stated_until,
            recorded_at=self._recorded_now(key), status=status,
        )
        return with_evidence(fact, [st.evidence])

    def _recorded_now(self, key: str) -> datetime:
        """When a new record of timeline ``key`` is learnt: now, but always after the
        timeline's latest record.

        Two values said for the same moment are ordered by when each was learnt, so
        a correction in the same episode as its slip ("I moved to Porto. Actually it
        was Lisbon") or under a clock that has not moved must still come second.
        """
        latest = max((f.recorded_at for f in self._timelines[key].values()), default=None)
        if latest is None or latest < self.now:
            return self.now
        return latest + timedelta(microseconds=1)

    def confirm(self, fact_id: str, episode_id: str, at: datetime) -> None:
        """Record that an episode restated a loaded fact (an LLM's "duplicate" verdict)."""
        fact = self.find(fact_id)
        if fact is not None and fact.status is not FactStatus.RETRACTION:
            self.replace(with_evidence(fact, [*fact.evidence,
                                              Evidence(at=max(at, fact.valid_from),
                                                       episode_id=episode_id)]))
            self._confirmed.add(fact_id)

    def supersede_fact(self, fact_id: str, at: datetime, episode_id: str) -> None:
        """Close a loaded fact that a new value replaced (an LLM's "superseded" verdict).

        A new value created in the fact's own timeline closes it when the
        timeline is rebuilt, which also links the two; a value elsewhere (another
        predicate, or a many-valued relation) cannot, so a marker ends the fact.
        """
        fact = self.find(fact_id)
        if fact is None:
            return
        if any(f.id in self._created and f.valid_from > fact.valid_from and value_of(f) != value_of(fact)
               for f in self._timelines[fact.timeline_key].values()):
            return
        self.retract_fact(fact_id, at, episode_id)

    def retract_fact(self, fact_id: str, at: datetime, episode_id: str) -> None:
        """Close a loaded fact at ``at`` with no replacement."""
        fact = self.find(fact_id)
        if fact is None or fact.valid_from >= at:
            return
        self.replace(self._marker_ending(fact, Evidence(at=at, episode_id=episode_id)))

    def _marker_ending(self, fact: Fact, evidence: Evidence) -> Fact:
        """A retraction marker that ends ``fact``'s value when ``evidence`` says."""
        marker = fact.model_copy(update={
            "text": ended(fact.subject_name, fact.predicate, fact.object_name),
            "id": new_id("fact"), "status": FactStatus.RETRACTION, "valid_from": evidence.at,
            "recorded_at": self._recorded_now(fact.timeline_key), "embedding": None,
            "valid_until": None,
            "stated_until": None, "superseded_by": None, "supersedes": [], "retraction": None,
            "expired_at": None})
        return with_evidence(marker, [evidence])

    def _end_held_with(self) -> list[str]:
        """End the facts held within a value that changed (see :mod:`held_with`), in every
        subject whose holding or held timeline this edit loaded. Returns the timelines
        that got a marker."""
        slots = held_with.slots(self.registry, self._timelines)
        self._load_keys([k for own, held in slots.items() for k in [own, *held]])
        touched: list[str] = []
        for own, held in slots.items():
            for key in held:
                for fact, evidence in held_with.endings(self._timelines[own].values(),
                                                        self._timelines[key].values()):
                    self.replace(self._marker_ending(fact, evidence))
                    touched.append(key)
        return touched

    # -- finishing ------------------------------------------------------------
    def finish(self) -> Outcome:
        """Normalise and rebuild every touched timeline and say what changed."""
        out = Outcome()
        for key in list(self._timelines):
            out.deleted_ids += self._settle(key)
        for key in dict.fromkeys(self._end_held_with()):
            out.deleted_ids += self._settle(key)
        out.deleted_ids = [i for i in out.deleted_ids if i in self._before]
        latest = {f.id: f for timeline in self._timelines.values() for f in timeline.values()}
        for fid, fact in latest.items():
            before = self._before.get(fid)
            if before is None or before != fact:
                out.changed.append(fact)
            if fact.status is FactStatus.RETRACTION:
                continue
            if fid in self._created:
                out.created.append(fact)
            elif fid in self._confirmed:
                out.confirmed.append(fact)
            if fact.retraction and (before is None or before.retraction != fact.retraction):
                out.retracted.append(fact)
            elif fact.superseded_by and (before is None or before.superseded_by != fact.superseded_by):
                out.superseded.append(fact)
            if before is not None and before.valid_until is not None and fact.valid_until is None:
                out.reopened.append(fact)
        return out

    def _settle(self, key: str) -> list[str]:
        """Normalise and rebuild one timeline; returns the ids of facts merged away."""
        timeline = self._timelines[key]
        deleted = normalise(timeline)
        for fact in rebuild_timeline(timeline.values(), self.now):
            timeline[fact.id] = fact
        return deleted


def _cardinality(value: str | None) -> Cardinality | None:
    return None if value is None else Cardinality(value)


def _same_value_at(facts: Iterable[Fact], st: Statement) -> Fact | None:
    """The fact with the same value that holds at the statement's time, or starts next."""
    candidates = sorted((f for f in facts if f.status in (FactStatus.ACTIVE, FactStatus.FORGOTTEN)),
                        key=lambda f: (f.valid_from, f.recorded_at))
    holding = [f for f in candidates if f.valid_from <= st.valid_from
               and (f.valid_until is None or st.valid_from < f.valid_until)]
    if holding and value_of(holding[-1]) == (st.predicate, st.object_id):
        return holding[-1]
    later = [f for f in candidates if f.valid_from > st.valid_from]
    if later and value_of(later[0]) == (st.predicate, st.object_id):
        return later[0]
    return None
