"""Hybrid, time-aware search: channels -> fuse -> (rerank, MMR) -> explained results.

The template is fixed and backend-free: the store supplies candidates for
each channel (BM25, vector, graph walk, raw turns); fusion is reciprocal rank
fusion; time is a :class:`~graphmem.temporal.TimeFilter` applied inside every
channel, optionally narrowed by a time expression found in the query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from graphmem.embed.base import Embedder
from graphmem.models import Fact, FactStatus, Scope, as_utc, utcnow
from graphmem.predicates import PredicateRegistry
from graphmem.search.access import AccessRecorder
from graphmem.search import fuse
from graphmem.search.evidence import (Source, absorb_turns, contradicted, facts_by_turn, is_stale,
                                      lost_values, names_only_lost, only_asks_or_muses,
                                      said_later, sources_of, turn_source)
from graphmem.search.focus import (Focus, choose_focus, relative_focus, stranger_focus,
                                   user_focus)
from graphmem.search.models import SearchHit, SearchRequest, SearchResponse
from graphmem.search.overrides import overridden_across_scopes
from graphmem.search.plan import PlannedSearch, planned
from graphmem.search.slots import (SlotAnswer, SlotMatch, SlotMatcher, read_slot,
                                   retractions_asked)
from graphmem.search.timeq import Window, overlaps, without_time_words
from graphmem.search.traverse import hop_weights, rank_by_query
from graphmem.search.turns import bm25_prior, named_speakers, prefer_speakers, vector_prior
from graphmem.store.base import GraphStore, TurnHit
from graphmem.names import normalize_name
from graphmem.temporal import TimeFilter, as_viewed

T = TypeVar("T")

#: Threads that run searches' channels side by side (shared by concurrent searches: each
#: uses up to five, so sixteen keep three searches in flight without queueing).
CHANNEL_WORKERS = 16
#: Candidates each channel contributes before fusion.
CHANNEL_DEPTH = 40
#: How many of the best fused candidates become results (and may absorb their turns).
POOL = 50
#: Channel weights in RRF, measured on the LoCoMo dev conversations (bench/locomo_recall.py;
#: chosen there, so no held-out figure). Raw turns, found with their neighbours'
#: words, carry most of the evidence a question needs; BM25 ranks them best, and the
#: dense turn channel, at equal weight, pulled recall down by 2-3 points. The fact
#: channels each return a full list whatever the query, and would otherwise crowd the
#: turns out of the top ten; facts still rank where they agree, and a fact absorbs the
#: turns it came from, so current, clean statements take those turns' places.
WEIGHTS = {"bm25": 0.2, "vector": 0.2, "graph": 0.2, "turns": 1.0, "turns_vector": 0.3}
#: What an assistant said is what the user was told, not what the user said: a wrong guess
#: ("Since you live in Dallas...") must not stand beside the user's own words as evidence.
#: Its turns count this much of their score (and are labelled in a context). Not tuned:
#: the benchmarks' conversations have no assistant turns.
ASSISTANT_TURN_WEIGHT = 0.5
#: When a question names someone, a fact about someone else stays only if its cosine
#: similarity to the question reaches this floor, and other people's turns below it count
#: this much of their score. When the question asks for a slot the graph knows for the
#: focus, nothing about anyone else answers at all: the slot does. The floor was chosen on the
#: dev temporal suite; the factor on LoCoMo dev (0.5, 0.75 and 1.0 gave frac@10 75.8, 76.2
#: and 75.8: within noise of each other), so neither has a held-out figure.
FOCUS_FLOOR = 0.6
OTHERS_TURN_FACTOR = 0.75


class SearchEngine:
    def __init__(self, store: GraphStore, embedder: Embedder, *,
                 registry: PredicateRegistry | None = None,
                 clock: Callable[[], datetime] = utcnow, channel_depth: int = CHANNEL_DEPTH) -> None:
        self.store = store
        self.embedder = embedder
        self.registry = registry or PredicateRegistry()
        self.slots = SlotMatcher(self.registry, embedder)
        self.clock = clock
        self.channel_depth = channel_depth
        self._channel_pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._access = AccessRecorder(store)

    def close(self) -> None:
        if self._channel_pool is not None:
            self._channel_pool.shutdown(wait=True)
            self._channel_pool = None
        self._access.close()

    def prepare(self, tenant: str, requests: list[SearchRequest], *, parallel: int = 1) -> None:
        """Have the store ready to answer ``requests``' shapes of search at once
        (:meth:`GraphStore.prepare_searches`, ``parallel`` at a time); their results are
        not read. ``tenant`` should hold nothing (see :mod:`graphmem.warm_up`)."""
        now = self.clock()
        plans = [self._planned(request, now)[0] for request in requests]
        self.store.prepare_searches(tenant, plans, parallel=parallel)

    def _planned(self, request: SearchRequest, now: datetime) -> PlannedSearch:
        return planned(request, now, self.embedder, self.channel_depth)

    def search(self, tenant: str, request: SearchRequest) -> SearchResponse:
        now = self.clock()
        keys = request.scope.visible_keys
        plan, time, window, depth, vector = self._planned(request, now)
        # One store call for every channel: on a server store, one round trip.
        found = self.store.search_channels(tenant, plan)
        focus = relative_focus(self.store, tenant, request.scope, request.query,
                               [*found.entities, *found.named])
        if focus is None:
            focus = (choose_focus(request.query, found.entities, found.named)
                     or user_focus(self.store, tenant, request.scope, request.query))
            if not focus and not focus.stranger:
                focus = stranger_focus(request.query, [*found.entities, *found.named])
        walked = hop_weights(found.walked)
        ranked: dict[str, list[str]] = {
            "bm25": ["f:" + s.id for s in found.bm25],
            "vector": ["f:" + s.id for s in found.vector],
            "graph": ["f:" + f.id for f in rank_by_query(walked, found.similarity)[:depth]],
        }
        # Cosine similarity to the query, where a vector channel measured it.
        relevance = {"f:" + s.id: s.score for s in found.vector}
        turns: dict[str, TurnHit] = {}
        if request.include_turns:
            # Deeper than the other channels: the speaker prior re-ranks within them.
            by_text, by_vector = (said_by_window_end(found.turns, window),
                                  said_by_window_end(found.turns_vector, window))
            named = named_speakers(request.query, by_text + by_vector) | {
                normalize_name(h.speaker) for h in by_text + by_vector
                if h.speaker and focus.said_by(h.speaker)}
            for channel, hits_found in (
                ("turns", prefer_speakers(by_text, named, bm25_prior)[:depth]),
                ("turns_vector", prefer_speakers(by_vector, named, vector_prior)[:depth]),
            ):
                ranked[channel] = []
                for hit in hits_found:
                    key = f"t:{hit.episode_id}:{hit.message_index}"
                    turns.setdefault(key, hit)
                    ranked[channel].append(key)
            relevance.update({f"t:{h.episode_id}:{h.message_index}": h.score for h in by_vector})

        scores, ranks = fuse.reciprocal_rank_fusion(ranked, weights=WEIGHTS)
        # Only the best candidates become results; the rest cost nothing more.
        best = sorted(scores, key=scores.__getitem__, reverse=True)[: max(POOL, request.limit * 5)]
        facts = {f.id: f for f in [*found.facts, *(f for f, _ in walked)]}
        found_turns = [turns[i] for i in best if i in turns]
        # The reads that depend on fusion (or on the focus), side by side on a server store.
        pool = self._channels()
        # asked as of a moment, "Where did Dave work in March 2025?" asks for the slot then
        asked = without_time_words(request.query) if request.as_of else request.query
        match = self.slots.match(focus.blank(asked)) if focus or focus.stranger else None
        slot_read = pool.submit(self._slot, tenant, keys, focus, match if focus else None, time,
                                now)
        saying = pool.submit(self.store.facts_of_episodes, tenant, list(dict.fromkeys(
            t.episode_id for t in found_turns))) if found_turns else None
        vectors = pool.submit(self.store.get_facts, tenant, [
            i[2:] for i in best if i.startswith("f:")]) if request.mmr or request.rerank else None
        if vectors is not None:  # MMR and the reranker need the facts' vectors
            facts.update((f.id, f) for f in vectors.result())
        said = facts_by_turn(saying.result() if saying is not None else [])
        slot = slot_read.result()
        hidden = _answered_elsewhere(slot, said, time)
        if match is not None and slot is None:
            hidden = _others_slot(match, focus, facts.values(), said, self.registry, time)
        if match is not None and focus and not time.include_history:
            hidden.turns |= _naming_lost_values(match, slot, found_turns, said, focus,
                                                self.registry, time.at(now))
        hits: dict[str, SearchHit] = {}
        for item in best:
            score = scores[item]
            if item.startswith("f:"):
                fact = facts.get(item[2:])
                if fact is None or not self._keep(fact, request, window, time, now):
                    continue
                if fact.id in hidden.facts:
                    continue
                hits[item] = _fact_hit(fact, score, ranks[item], now, time)
            elif item in turns and not request.categories:
                turn = turns[item]
                if is_stale(turn, said, time, now) or said_later(turn, time, now) \
                        or turn_source(turn) in hidden.turns:
                    continue
                if turn.role == "assistant":
                    score *= ASSISTANT_TURN_WEIGHT
                if match is not None and only_asks_or_muses(
                        turn.content, or_recalls=not time.include_history
                        and not said.get(turn_source(turn))):
                    # "what are the rules of badminton?", "did rowing in high school, ages
                    # ago" name a value without saying it is the speaker's now: they never
                    # answer a slot question (chosen on blind5_tune and blind8_tune); a
                    # history view shows the past
                    continue
                hits[item] = _turn_hit(turn, score, ranks[item])
        _drop_contradicted(hits, turns, facts, slot, time, now, self.registry)
        _drop_overridden(hits, facts, slot, self.registry, time)
        # a question for a slot is answered by the slot's facts (and ruled by them): only
        # a question no slot answers may keep a turn its facts do not cover
        absorb_turns(hits, turns, request.query if match is None else "", said, self.registry,
                     (lambda t: focus.said_by(t.speaker or "")) if focus else None)
        if focus or (focus.stranger and match is not None):
            # a slot asked of someone the scope does not know ("Where does Priya work?") is
            # about her alone as well: no one's value answers (above), and the rest of
            # what others said gives way as it does to a known person
            _apply_focus(hits, focus, facts, turns, relevance, strict=slot is not None)
        similarity = _similarities(hits, relevance, facts, vector) if request.rerank else {}
        ordered = self._order(hits, request, facts, now, similarity)
        lead = slot.answers(request.query) if slot is not None else _after_replacements(
            retractions_asked((f for fs in said.values() for f in fs), focus, request.query,
                              time, now), ordered, facts, self.registry) if focus else []
        if slot is not None and time.include_history:  # then the slot's past, newest first
            lead = [*lead, *(f for f in slot.past(time) if f not in lead)]
        if window is not None:
            # "Where did Maya live in January?": the values that held then lead, not today's
            lead = [f for f in lead if overlaps(f.valid_from, f.valid_until, window)]
        if lead and not request.categories:
            ordered = _slot_first(ordered, lead, now, time)
        if request.min_score is not None:
            ordered = [h for h in ordered if h.score >= request.min_score]
        results = ordered[: request.limit]
        self._access.record(tenant, [h.id for h in results if h.kind == "fact"], now)
        return SearchResponse(results=results, as_of=time.as_of, window=window)

    def _slot(self, tenant: str, keys: list[str], focus: Focus, match: SlotMatch | None,
              time: TimeFilter, now: datetime) -> SlotAnswer | None:
        """The graph's own answer when the question asks for one of the focus's slots."""
        if match is None:
            return None
        answer = read_slot(self.store, tenant, keys, focus, match, self.registry, time, now)
        return answer if answer.known else None

    def _channels(self) -> ThreadPoolExecutor | _Inline:
        if not self.store.parallel_reads:
            return _Inline()
        with self._pool_lock:
            if self._channel_pool is None:
                self._channel_pool = ThreadPoolExecutor(max_workers=CHANNEL_WORKERS,
                                                        thread_name_prefix="graphmem-channel")
            return self._channel_pool

    def _keep(self, fact: Fact, request: SearchRequest, window: tuple[datetime | None,
              datetime | None] | None, time: TimeFilter, now: datetime) -> bool:
        if request.categories and fact.category not in request.categories:
            return False
        if not time.matches(fact, now) or time.never_held(fact):
            return False
        if window is not None:  # the question's own time narrows either view
            return overlaps(fact.valid_from, fact.valid_until, window)
        return True

    def _order(self, hits: dict[str, SearchHit], request: SearchRequest, facts: dict[str, Fact],
               now: datetime, similarity: dict[str, float]) -> list[SearchHit]:
        ordered = sorted(hits.values(), key=lambda h: h.score, reverse=True)
        if request.rerank and ordered:
            for hit in ordered:
                when = hit.valid_from or now
                hit.score = fuse.rerank_score(similarity.get(hit.id, 0.0),
                                              fuse.recency_factor(when, now),
                                              hit.importance if hit.importance is not None else 0.5)
            ordered.sort(key=lambda h: h.score, reverse=True)
        if request.mmr:
            relevance = {h.id: h.score for h in ordered}
            by_id = {h.id: h for h in ordered}
            chosen = fuse.mmr([h.id for h in ordered], relevance,
                              lambda i: facts[i].embedding if i in facts else None,
                              limit=request.limit)
            ordered = [by_id[i] for i in chosen]
        return ordered

    def flush(self) -> None:
        """Write queued access statistics now (tests, shutdown)."""
        self._access.flush()

def said_by_window_end(hits: list[TurnHit], window: Window | None) -> list[TurnHit]:
    """The turns said before the end of the window the question names.

    "Where did Maya work in August 2023?" is not answered by what she said in
    2024, just as a search ``as_of`` August 2023 never sees it; what she said
    before the window may still hold in it, so the start does not bound turns.
    The history view is bounded the same way: its facts, too, are those of the window.
    Undated turns stay.
    """
    end = window[1] if window is not None else None
    if end is None:
        return hits
    return [h for h in hits if h.timestamp is None or as_utc(h.timestamp) < end]


class _Inline:
    """``submit`` that runs at once: channels in turn, for stores that gain nothing from threads."""

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        done: Future[T] = Future()
        try:
            done.set_result(fn(*args))
        except BaseException as err:  # re-raised by result(), as a thread pool would
            done.set_exception(err)
        return done


def _fact_hit(fact: Fact, score: float, ranks: dict[str, int], now: datetime,
              time: TimeFilter) -> SearchHit:
    viewed = as_viewed(fact, time, now)
    ended = viewed.ended_by(time.at(now))
    return SearchHit(
        kind="fact", id=fact.id, text=fact.text, score=score, channels=ranks,
        subject=fact.subject_name, predicate=fact.predicate, object=fact.object_name,
        category=fact.category, valid_from=fact.valid_from, valid_until=viewed.valid_until,
        superseded=ended, superseded_by=viewed.superseded_by if ended else None,
        retraction=fact.status is FactStatus.RETRACTION,
        sources=fact.message_ids, episode_ids=fact.episode_ids, importance=fact.importance,
    )


def _turn_hit(turn: TurnHit, score: float, ranks: dict[str, int]) -> SearchHit:
    return SearchHit(
        kind="turn", id=f"{turn.episode_id}:{turn.message_index}", text=turn.content, score=score,
        channels=ranks, valid_from=turn.timestamp, sources=[turn.message_id] if turn.message_id else [],
        episode_ids=[turn.episode_id], speaker=turn.speaker, role=turn.role,
    )


class _Hidden:
    """What a slot answer rules out: the slot's ended facts, and the turns that said them."""

    def __init__(self, facts: set[str] | None = None, turns: set[Source] | None = None) -> None:
        self.facts = facts or set()
        self.turns = turns or set()


def _answered_elsewhere(slot: SlotAnswer | None, said: dict[Source, list[Fact]],
                        time: TimeFilter) -> _Hidden:
    """In a view without history, the slot's ended values and the turns that stated only
    them cannot answer for it (the slot answer, or its absence, does)."""
    if slot is None or time.include_history:
        return _Hidden()
    stale = {f.id for f in slot.stale}
    current = {f.id for f in slot.current}
    turns = {source for f in slot.stale for source in sources_of(f)
             if not any(g.id in current for g in said.get(source, []))}
    return _Hidden(stale, turns)


def _naming_lost_values(match: SlotMatch, slot: SlotAnswer | None, turns: list[TurnHit],
                        said: dict[Source, list[Fact]], focus: Focus, registry: PredicateRegistry,
                        at: datetime) -> set[Source]:
    """The turns found that name only values the focus's slot had lost by the view's time
    (:func:`~graphmem.search.evidence.names_only_lost`). The retractions are read from the
    turns found (no read is added), so a slot known only by a retraction ("stopped playing
    hockey", hockey never stated) counts too."""
    family = match.spec.family
    markers = [m for found in said.values() for m in found if m.status is FactStatus.RETRACTION
               and m.subject_id in focus.ids and registry.spec(m.predicate).family == family]
    lost = lost_values(slot.stale if slot else [], markers, at)
    held = [f.object_name for f in slot.current if f.object_name] if slot else []
    return {turn_source(t) for t in turns if lost and names_only_lost(t, lost, held)}


def _others_slot(match: SlotMatch, focus: Focus, facts: Iterable[Fact],
                 said: dict[Source, list[Fact]], registry: PredicateRegistry,
                 time: TimeFilter) -> _Hidden:
    """A slot asked of someone whose value the graph does not know ("Where do I work?" of a
    user who never said, "Where does Priya work?" of a stranger): other people's values of
    the slot, and the turns that stated only theirs, do not answer it (the history view
    keeps them)."""
    if time.include_history:
        return _Hidden()
    family = match.spec.family

    def others(found: Iterable[Fact]) -> set[str]:
        return {f.id for f in found
                if registry.spec(f.predicate).family == family and f.subject_id not in focus.ids}

    def ours(found: list[Fact]) -> bool:
        return any(registry.spec(f.predicate).family == family and f.subject_id in focus.ids
                   for f in found)

    turns = {source for source, found in said.items() if others(found) and not ours(found)}
    return _Hidden(others([*facts, *(f for found in said.values() for f in found)]), turns)


def _drop_contradicted(hits: dict[str, SearchHit], turns: dict[str, TurnHit],
                       facts: dict[str, Fact], slot: SlotAnswer | None, time: TimeFilter,
                       now: datetime, registry: PredicateRegistry) -> None:
    """Turns a later fact among the results (or the slot's value) overtook."""
    later = [facts[h.id] for h in hits.values() if h.kind == "fact" and h.id in facts]
    later += slot.current if slot is not None else []
    for key in [k for k, h in hits.items() if h.kind == "turn"]:
        if key in turns and contradicted(turns[key], later, time, now, registry):
            del hits[key]


def _drop_overridden(hits: dict[str, SearchHit], facts: dict[str, Fact], slot: SlotAnswer | None,
                     registry: PredicateRegistry, time: TimeFilter) -> None:
    """Without history, a one-valued fact another scope of the view states anew
    (:mod:`graphmem.search.overrides`)."""
    if time.include_history:
        return
    found = [facts[h.id] for h in hits.values() if h.kind == "fact" and h.id in facts]
    gone = overridden_across_scopes([*found, *(slot.current if slot is not None else [])],
                                    registry)
    for key in [k for k, h in hits.items() if h.kind == "fact" and h.id in gone]:
        del hits[key]


def _about(hit: SearchHit, focus: Focus, facts: dict[str, Fact],
           turns: dict[str, TurnHit]) -> bool:
    key = ("f:" if hit.kind == "fact" else "t:") + hit.id
    if hit.kind == "fact":
        fact = facts.get(hit.id)
        return fact is not None and focus.covers_fact(fact)
    turn = turns.get(key)
    return turn is not None and focus.covers_turn(turn)


def _after_replacements(markers: list[Fact], ordered: list[SearchHit], facts: dict[str, Fact],
                        registry: PredicateRegistry) -> list[Fact]:
    """The retractions a question named (:func:`retractions_asked`), each after what the
    results hold of its subject in its slot now: "Does Bob drink coffee?" after "I prefer
    tea now; I gave up coffee" is answered by tea first, then by the coffee given up."""
    lead: list[Fact] = []
    for marker in markers:
        family = registry.spec(marker.predicate).family
        lead += [f for h in ordered if h.kind == "fact" and (f := facts.get(h.id)) is not None
                 and f.subject_id == marker.subject_id and f not in lead
                 and registry.spec(f.predicate).family == family]
        lead.append(marker)
    return lead


def _slot_first(ordered: list[SearchHit], answers: list[Fact], now: datetime,
                time: TimeFilter) -> list[SearchHit]:
    """The slot's answers (:meth:`SlotAnswer.answers`) lead, in order, then everything else."""
    lead_ids = [f.id for f in answers]
    by_id = {h.id: h for h in ordered if h.kind == "fact"}
    top = ordered[0].score if ordered else 0.0
    lead: list[SearchHit] = []
    for rank, fact in enumerate(answers, start=1):
        hit = by_id.get(fact.id) or _fact_hit(fact, 0.0, {}, now, time)
        hit.channels["slot"] = rank
        hit.score = max(hit.score, top) + 1.0 / (rank + 1)
        lead.append(hit)
    return lead + [h for h in ordered if h.id not in lead_ids]


def _similarities(hits: dict[str, SearchHit], relevance: dict[str, float],
                  facts: dict[str, Fact], query: list[float]) -> dict[str, float]:
    """Each hit's cosine similarity to the query: as a vector channel measured it, else from
    the fact's own vector; a turn no vector channel found counts as unrelated (0)."""
    q = np.asarray(query, dtype=np.float32)
    found: dict[str, float] = {}
    for key, hit in hits.items():
        if key in relevance:
            found[hit.id] = relevance[key]
        elif hit.kind == "fact" and (fact := facts.get(hit.id)) is not None and fact.embedding:
            found[hit.id] = float(np.asarray(fact.embedding, dtype=np.float32) @ q)
    return found


def _apply_focus(hits: dict[str, SearchHit], focus: Focus, facts: dict[str, Fact],
                 turns: dict[str, TurnHit], relevance: dict[str, float], *, strict: bool) -> None:
    """Results about someone other than the focus give way (see FOCUS_FLOOR); ``strict``
    (a known slot was asked for) drops them all."""
    for key, hit in list(hits.items()):
        if _about(hit, focus, facts, turns):
            continue
        if strict or (hit.kind == "fact" and relevance.get(key, 0.0) < FOCUS_FLOOR):
            del hits[key]
        elif relevance.get(key, 0.0) < FOCUS_FLOOR:
            hit.score *= OTHERS_TURN_FACTOR
