"""The ingestion pipeline: episode -> extract -> resolve -> timeline rules -> one store batch.

:class:`Ingestor` owns no state between calls: reads, decisions and the
batch write of one call happen in one edit of the write path
(:mod:`graphmem.edit.unit`), so two concurrent ingestions into one store
cannot interleave their read-decide-write steps, a failure anywhere leaves
the store unchanged, and the changes reach the event and audit sinks.
Across processes the store keeps timelines whole: each batch carries the
versions of the timelines it was decided on, a stale one fails the write, and
the step is decided again (:meth:`graphmem.edit.unit.WritePath.committed`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from graphmem.edit.changes import Change, fact_changes
from graphmem.edit.unit import Edit, WritePath
from graphmem.embed.base import Embedder
from graphmem.embed.turns import turn_vectors
from graphmem.errors import ExtractionError, NotFoundError, ValidationError
from graphmem.extract.base import CandidateFact, ExtractedFact, Extraction, Extractor
from graphmem.ingest.apply import Outcome, Statement, TimelineEditor
from graphmem.ingest.candidates import stored_candidates
from graphmem.ingest.normalise import with_evidence
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.ingest.people import contexts
from graphmem.ingest.resolve import NameRequest, Resolution
from graphmem.ingest.voices import (
    as_told,
    introduced_as,
    keep_the_account,
    name_the_owner,
    own_name,
    speaker_of,
)
from graphmem.models import (
    Category,
    Entity,
    Episode,
    Fact,
    FactStatus,
    Message,
    Scope,
    iso_utc,
    utcnow,
)
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import GraphStore, Mention, Reminder, WriteBatch
from graphmem.names import normalize_name

class IngestResult(BaseModel):
    """What one ingestion did to memory."""

    episode_id: str | None = None
    duplicate: bool = False
    created: list[Fact] = Field(default_factory=list)
    confirmed: list[Fact] = Field(default_factory=list)
    superseded: list[Fact] = Field(default_factory=list)
    retracted: list[Fact] = Field(default_factory=list)
    deleted: list[Fact] = Field(default_factory=list)
    reopened: list[Fact] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    language: str = "en"
    warnings: list[str] = Field(default_factory=list)


def due_reminders(facts: list[Fact], now: datetime) -> list[Reminder]:
    """A reminder at the due time of each new pending todo that is due in the future.

    A todo from an imported conversation that was due long ago is history, not
    something to remind anyone of now.
    """
    return [Reminder(tenant=f.tenant, scope_key=f.scope_key, todo_id=f.id, remind_at=f.stated_until)
            for f in facts if f.predicate == "TODO" and f.category is Category.TODO
            and f.status is FactStatus.ACTIVE and f.stated_until is not None
            and f.stated_until > now]


class Ingestor:
    def __init__(self, store: GraphStore, extractor: Extractor, embedder: Embedder,
                 registry: PredicateRegistry | None = None, *,
                 episode_retention: timedelta | None = None,
                 clock: Callable[[], datetime] = utcnow,
                 lock: threading.RLock | None = None, embed_turns: bool = True,
                 writes: WritePath | None = None) -> None:
        self.store = store
        self.extractor = extractor
        self.embedder = embedder
        self.writes = writes or WritePath(store, embedder, registry or PredicateRegistry(),
                                          clock=clock, lock=lock, embed_turns=embed_turns)
        self.registry = self.writes.registry
        self.episode_retention = episode_retention
        self.clock = clock

    # -- episodes -------------------------------------------------------------
    def ingest(self, tenant: str, data: EpisodeInput) -> IngestResult:
        return self.ingest_many(tenant, [data])[0]

    def ingest_many(self, tenant: str, inputs: list[EpisodeInput]) -> list[IngestResult]:
        """Ingest several episodes (in order) with one store transaction.

        Extraction, the slow part (an LLM call), runs outside the lock, so
        concurrent ingestions overlap their extractions; resolution, the
        timeline rules and the write run under it, with the idempotency check
        repeated there.
        """
        now = self.clock()
        episodes = [None if (key := data.idempotency_key()) and self.store.find_episode(
                        tenant, data.scope.key, key)
                    else self._episode(tenant, data, now) for data in inputs]
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-turns") as pool:
            # The turns are embedded while the extractor reads them: both are CPU-bound,
            # and on two cores they overlap.
            turn_vectors = pool.submit(self.turn_vectors, [e for e in episodes if e is not None])
            prepared: list[_Prepared | None] = []
            heard: dict[str, str] = {}  # the name each scope's user gave earlier in the batch
            for data, episode in zip(inputs, episodes, strict=True):
                item = None if episode is None else self._prepare(
                    tenant, data, episode, heard.get(data.scope.key))
                if item is not None and item.named:
                    heard[data.scope.key] = item.own_name
                prepared.append(item)
            vectors = turn_vectors.result()
        return self.writes.committed(
            lambda: self._commit(tenant, inputs, prepared, now, vectors))

    def turn_vectors(self, episodes: list[Episode]) -> dict[str, list[list[float]]]:
        """Each episode's turn vectors (see :func:`graphmem.embed.turns.turn_vectors`)."""
        return turn_vectors(self.embedder, episodes) if self.writes.embed_turns else {}

    def rehearse(self, tenant: str, data: EpisodeInput, extraction: Extraction) -> None:
        """Ingest ``data`` as if its extractor had found ``extraction``, through every read
        and decision of :meth:`ingest`, and write nothing (the edit is a dry run). A server
        store plans the ingestion's queries on their first run (seconds together on Neo4j);
        a process rehearses before it says it is ready, so no user waits for that. The
        extractor is not asked (an LLM's call at each start would cost), but the stored
        candidates it would be shown are read."""
        now = self.clock()
        if key := data.idempotency_key():  # sent before, as ingest_many asks first
            self.store.find_episode(tenant, data.scope.key, key)
        episode = self._episode(tenant, data, now)
        own, known = own_name(self.store, tenant, data.scope, episode)
        if self.extractor.uses_candidates:
            stored_candidates(self.store, tenant, data.scope, episode, own)
        self._commit(tenant, [data], [_Prepared(episode, extraction, own, known)], now, {},
                     dry_run=True)

    def _commit(self, tenant: str, inputs: list[EpisodeInput],
                prepared: list[_Prepared | None], now: datetime,
                turn_vectors: dict[str, list[list[float]]], *,
                dry_run: bool = False) -> list[IngestResult]:
        """Resolve, apply the timeline rules and write, in one edit (with ``dry_run``, one
        that writes nothing)."""
        with self.writes.edit(tenant, now=now, dry_run=dry_run) as edit:
            editor = edit.timeline()
            batch = WriteBatch()
            pending: dict[tuple[str, str], Entity] = {}
            results: list[IngestResult] = []
            seen_clients: set[tuple[str, str]] = set()
            for data, item in zip(inputs, prepared, strict=True):
                key = data.idempotency_key()
                client = (data.scope.key, key) if key else None
                existing = self.store.find_episode(tenant, data.scope.key, key) if key else None
                if item is None or existing is not None or (client and client in seen_clients):
                    results.append(IngestResult(episode_id=existing.id if existing else None,
                                                duplicate=True))
                    continue
                if client is not None:
                    seen_clients.add(client)
                episode, extraction, own = item.episode, item.extraction, item.own_name
                if item.named:
                    name_the_owner(self.store, edit, data.scope, own, pending)
                resolution = self._resolve(edit, data.scope, episode, extraction, pending, own)
                if item.introduced:
                    keep_the_account(data.scope, resolution.get(own), pending)
                statements = self._statements(data.scope, episode, extraction, resolution, own)
                editor.load(statements)
                # a corrected slip is undone before the right value is stated
                for st in sorted(statements, key=lambda st: not (st.retract and st.corrects)):
                    editor.apply(st)
                self._apply_decisions(editor, extraction, episode)
                batch.episodes.append(episode)
                batch.mentions += [Mention(episode_id=episode.id, entity_id=e.id)
                                   for e in {e.id: e for e in resolution.by_name.values()}.values()]
                results.append(IngestResult(episode_id=episode.id, language=extraction.language,
                                            warnings=[*extraction.warnings,
                                                      *_dated_ahead(episode, now),
                                                      *_unread_document(episode, extraction)],
                                            entities=list(resolution.created)))
            outcome = editor.finish()
            batch.turn_vectors = {e.id: turn_vectors[e.id] for e in batch.episodes
                                  if e.id in turn_vectors}
            self._finish_batch(batch, outcome, pending, now)
            edit.write(batch)
            done = [self._result(r, outcome) for r in results]
            edit.record([c for r in done for c in changes_of(r)])
        return done

    def _episode(self, tenant: str, data: EpisodeInput, now: datetime) -> Episode:
        return data.to_episode(tenant, now, retention=self.episode_retention)

    def preview(self, tenant: str, data: EpisodeInput) -> Extraction:
        """What the extractor finds in an episode, storing nothing (a dry run)."""
        with self.writes.lock:  # the extractor is not known to be thread-safe
            return self.extractor.extract(self._episode(tenant, data, self.clock()), [])

    def _prepare(self, tenant: str, data: EpisodeInput, episode: Episode,
                 heard: str | None = None) -> _Prepared:
        """Extract an episode, knowing who "I" is in it (:mod:`graphmem.ingest.voices`);
        ``heard`` is the name the user gave in an episode before it in the same batch,
        which the store does not hold yet."""
        own, known = own_name(self.store, tenant, data.scope, episode, heard)
        extraction = self._extract(tenant, data.scope, as_told(episode, own, known), own)
        name = None if known else introduced_as(extraction, own)
        if name is None:
            return _Prepared(episode, extraction, own, known)
        # "Hi, I'm Priya": read again with "I" as Priya (a rare second read)
        told = as_told(episode, name, True)
        return _Prepared(episode, self._extract(tenant, data.scope, told, name), name, True,
                         introduced=True)

    def _extract(self, tenant: str, scope: Scope, episode: Episode, own: str) -> Extraction:
        candidates: list[CandidateFact] = []
        if self.extractor.uses_candidates:
            candidates = stored_candidates(self.store, tenant, scope, episode, own)
        try:
            extraction = self.extractor.extract(episode, candidates)
            if extraction.wants_candidates and not candidates:
                candidates = stored_candidates(self.store, tenant, scope, episode, own)
                if candidates:
                    extraction = self.extractor.extract(episode, candidates)
            return extraction
        except ExtractionError as err:
            return Extraction(warnings=[f"extraction failed, episode stored without facts: {err}"])

    def _resolve(self, edit: Edit, scope: Scope, episode: Episode, extraction: Extraction,
                 pending: dict[tuple[str, str], Entity], own: str) -> Resolution:
        types = {normalize_name(e.name): e.type for e in extraction.entities}
        spoken = contexts(episode, extraction, own)
        requests: list[NameRequest] = [NameRequest(e.name, e.type, e.aliases,
                                                   spoken.get(normalize_name(e.name)))
                                       for e in extraction.entities]
        for f in extraction.facts:
            subject = speaker_of(own, f.subject)
            requests.append(NameRequest(subject, types.get(normalize_name(subject), "person"),
                                        context=spoken.get(normalize_name(subject))))
            if f.object:  # retracted objects too: the marker must outlive arrival order
                requests.append(NameRequest(f.object, types.get(normalize_name(f.object),
                                                                 f.object_type),
                                            context=spoken.get(normalize_name(f.object))))
        known = [r for r in requests if (scope.key, normalize_name(r.name)) in pending]
        fresh = [r for r in requests if (scope.key, normalize_name(r.name)) not in pending]
        resolution = edit.resolve(scope, fresh)
        for req in known:
            resolution.by_name[normalize_name(req.name)] = pending[(scope.key, normalize_name(req.name))]
        for ent in [*resolution.created, *resolution.updated]:
            for alias in [ent.name, *ent.aliases]:
                pending[(scope.key, normalize_name(alias))] = ent
        return resolution

    def _statements(self, scope: Scope, episode: Episode, extraction: Extraction,
                    resolution: Resolution, own: str) -> list[Statement]:
        stamps = {m.id: m.timestamp for m in episode.messages}
        out: list[Statement] = []
        for f in extraction.facts:
            subject = resolution.get(speaker_of(own, f.subject))
            obj = resolution.get(f.object) if f.object else None
            if subject is None or (obj is None and f.action == "assert"):
                continue
            if obj is None and self.registry.spec(f.predicate, f.cardinality).cardinality.value == "many":
                continue  # "stopped liking" with no object names no timeline
            when = f.valid_from or stamps.get(f.message_id) or episode.reference_time
            out.append(_statement(scope, subject, obj, f, when, episode))
        return out

    def _apply_decisions(self, editor: TimelineEditor, extraction: Extraction,
                         episode: Episode) -> None:
        """An LLM's verdicts on candidate facts: duplicates confirm, superseded ones are
        replaced (closed by the new value's timeline, or by a marker), retracted ones end."""
        ids = [d.fact_id for d in extraction.decisions if d.decision != "keep"]
        facts = {f.id: f for f in self.store.get_facts(editor.tenant, ids)}
        for decision in extraction.decisions:
            fact = facts.get(decision.fact_id)
            if fact is None or decision.decision == "keep":
                continue
            editor.load_facts([fact])
            if decision.decision == "duplicate":
                editor.confirm(fact.id, episode.id, episode.reference_time)
            elif decision.decision == "superseded":
                editor.supersede_fact(fact.id, episode.reference_time, episode.id)
            else:
                editor.retract_fact(fact.id, episode.reference_time, episode.id)

    def _finish_batch(self, batch: WriteBatch, outcome: Outcome,
                      pending: dict[tuple[str, str], Entity], now: datetime) -> None:
        """The batch's entities, facts and reminders (the edit embeds the new facts when it
        commits; the turns were embedded during extraction)."""
        batch.entities = list({e.id: e for e in pending.values()}.values())
        deleted = set(outcome.deleted_ids)
        batch.facts = [f for f in outcome.changed if f.id not in deleted]
        batch.delete_fact_ids = [*batch.delete_fact_ids, *outcome.deleted_ids]
        batch.reminders = [*batch.reminders, *due_reminders(batch.facts, now)]

    def _result(self, result: IngestResult, outcome: Outcome) -> IngestResult:
        if result.duplicate or result.episode_id is None:
            return result
        mine = result.episode_id

        def ours(facts: list[Fact]) -> list[Fact]:
            return [f.public() for f in facts
                    if mine in f.episode_ids or (f.retraction and f.retraction.episode_id == mine)]

        result.created = ours(outcome.created)
        result.confirmed = ours(outcome.confirmed)
        superseding = {f.id for f in outcome.created if mine in f.episode_ids}
        result.superseded = [f.public() for f in outcome.superseded if f.superseded_by in superseding]
        result.retracted = ours(outcome.retracted)
        return result

    # -- structured facts -----------------------------------------------------
    def add_facts(self, tenant: str, facts: list[FactInput]) -> IngestResult:
        """Add facts directly, with no extraction; one transaction for all of them.

        Names are resolved once per scope for the whole list (one embedding
        call for all new names) and the touched timelines are loaded in one
        query, so a batch of thousands costs a handful of store round trips.
        """
        return self.writes.committed(lambda: self._add_facts(tenant, facts))

    def _add_facts(self, tenant: str, facts: list[FactInput]) -> IngestResult:
        with self.writes.edit(tenant, now=self.clock()) as edit:
            now = edit.now
            _check_starts(facts, now)
            editor = edit.timeline()
            entities: dict[tuple[str, str], Entity] = {}
            created: dict[str, Entity] = {}
            new_entities: list[Entity] = []
            by_scope: dict[str, list[FactInput]] = {}
            for item in facts:
                by_scope.setdefault(item.scope.key, []).append(item)
            asks = [(items[0].scope, [r for item in items for r in (
                NameRequest(item.subject, item.subject_type),
                NameRequest(item.object, item.object_type))]) for items in by_scope.values()]
            for (scope, _), resolution in zip(asks, edit.resolve_many(asks), strict=True):
                created.update({e.id: e for e in [*resolution.created, *resolution.updated]})
                new_entities += resolution.created
                for norm, ent in resolution.by_name.items():
                    entities[(scope.key, norm)] = ent
            statements = [self._fact_statement(item, entities, now) for item in facts]
            editor.load(statements)
            for st in statements:
                editor.apply(st)
            outcome = editor.finish()
            batch = WriteBatch()
            self._finish_batch(batch, outcome, {(e.scope_key, e.id): e for e in created.values()},
                               now)
            edit.write(batch)
            result = IngestResult(
                created=[f.public() for f in outcome.created],
                confirmed=[f.public() for f in outcome.confirmed],
                superseded=[f.public() for f in outcome.superseded],
                entities=new_entities,
            )
            edit.record(changes_of(result))
        return result

    @staticmethod
    def _fact_statement(item: FactInput, entities: dict[tuple[str, str], Entity],
                        now: datetime) -> Statement:
        subject = entities[(item.scope.key, normalize_name(item.subject))]
        obj = entities[(item.scope.key, normalize_name(item.object))]
        verb = item.predicate.lower().replace("_", " ")
        return Statement(
            scope_key=item.scope.key, subject_id=subject.id, subject_name=subject.name,
            predicate=item.predicate, object_id=obj.id, object_name=obj.name,
            text=item.text or f"{subject.name} {verb} {obj.name}.", category=item.category,
            importance=item.importance, confidence=item.confidence,
            cardinality=item.cardinality.value if item.cardinality else None,
            valid_from=item.valid_from or now, stated_until=item.valid_until, episode_id=None,
            message_ids=[item.source_id] if item.source_id else [])

    # -- deletion -------------------------------------------------------------
    def delete_episode(self, tenant: str, episode_id: str) -> IngestResult:
        """Delete an episode, the facts only it asserted, and its retractions.

        Facts those had closed reopen (their timelines are rebuilt without them),
        all in one transaction.
        """
        return self.writes.committed(lambda: self._delete_episode(tenant, episode_id))

    def _delete_episode(self, tenant: str, episode_id: str) -> IngestResult:
        with self.writes.edit(tenant, now=self.clock()) as edit:
            episode = self.store.get_episode(tenant, episode_id)
            if episode is None:
                raise NotFoundError(f"episode {episode_id!r} not found")
            editor = edit.timeline()
            affected = self.store.facts_of_episode(tenant, episode_id)
            editor.load_facts(affected)
            # the copies read after the versions (one read before may be stale already)
            affected = [f for a in affected if (f := editor.find(a.id)) is not None]
            deleted: list[Fact] = []
            for fact in affected:
                remaining = [e for e in fact.evidence if e.episode_id != episode_id]
                if not remaining and (fact.evidence or fact.episode_ids == [episode_id]):
                    editor.drop(fact.id)
                    if fact.status is not FactStatus.RETRACTION:
                        deleted.append(fact)
                else:
                    editor.replace(with_evidence(fact, remaining))
            outcome = editor.finish()
            deleted_ids = {f.id for f in affected if editor.find(f.id) is None}
            deleted_ids |= set(outcome.deleted_ids)
            batch = WriteBatch(delete_fact_ids=sorted(deleted_ids), delete_episode_ids=[episode_id],
                               facts=[f for f in outcome.changed if f.id not in deleted_ids])
            edit.write(batch)
            result = IngestResult(episode_id=episode_id, deleted=[f.public() for f in deleted],
                                  reopened=[f.public() for f in outcome.reopened])
            edit.record([*changes_of(result),
                         Change(target=episode_id, audit="delete_episode",
                                scope_key=episode.scope_key)])
        return result


#: How far ahead of its arrival a message may be dated before the caller is warned: clocks
#: and time zones disagree by hours, not days.
AHEAD_WARNING = timedelta(days=1)


def _dated_ahead(episode: Episode, now: datetime) -> list[str]:
    """A warning for each message dated well after it arrived (a client's clock or a typo,
    "2099"): it is stored as sent, but its facts hold only from then, so no view of today
    shows them."""
    return [f"message {m.id or i} is dated {iso_utc(m.timestamp)}, after it was received "
            f"({iso_utc(now.replace(microsecond=0))}): its facts hold only from then"
            for i, m in enumerate(episode.messages)
            if m.timestamp is not None and m.timestamp > now + AHEAD_WARNING]


def _unread_document(episode: Episode, extraction: Extraction) -> list[str]:
    """A warning when a JSON document gave no facts: it is kept and its text is searched,
    but its values are in no timeline, which a client that sent structured data expects."""
    if episode.source != "json" or extraction.facts or extraction.warnings:
        return []  # an extractor that failed or fell back has said why
    return ["no facts were extracted from the document: it is stored and search finds its "
            "text, but none of its values is a fact; send them as structured facts "
            "(subject, predicate, object) to put them in the graph"]


@dataclass
class _Prepared:
    """An episode to store, what was extracted from it, and who "I" is in it."""

    episode: Episode
    extraction: Extraction
    own_name: str
    named: bool  # own_name is a name the user gave, not the account id
    introduced: bool = False  # ...in the episode's words ("Hi, I'm Priya"), not as speaker


def _statement(scope: Scope, subject: Entity, obj: Entity | None, f: ExtractedFact,
               when: datetime, episode: Episode) -> Statement:
    return Statement(
        scope_key=scope.key, subject_id=subject.id, subject_name=subject.name,
        predicate=f.predicate, object_id=obj.id if obj else "", object_name=obj.name if obj else "",
        text=f.text, category=f.category, importance=f.importance, confidence=f.confidence,
        cardinality=f.cardinality.value if f.cardinality else None, valid_from=when,
        stated_until=f.valid_until, episode_id=episode.id,
        message_ids=[f.message_id] if f.message_id else [], retract=f.action == "retract",
        corrects=f.corrects,
    )


def changes_of(result: IngestResult) -> list[Change]:
    """The changes an ingestion (or an episode deletion) made, in a stable order: what it
    created, then what it confirmed, ended or reopened, superseded and deleted."""
    ep = result.episode_id
    return [*fact_changes("memory.created", result.created, episode_id=ep),
            *fact_changes("memory.updated", [*result.confirmed, *result.retracted,
                                             *result.reopened], episode_id=ep),
            *fact_changes("memory.superseded", result.superseded, episode_id=ep),
            *fact_changes("memory.deleted", result.deleted, episode_id=ep)]


__all__ = ["IngestResult", "Ingestor", "Message"]


def _check_starts(facts: list[FactInput], now: datetime) -> None:
    """A fact without ``valid_from`` starts now, so its ``valid_until`` must lie ahead.

    Otherwise the fact would end before it began: stored, but never true.
    """
    for item in facts:
        if item.valid_from is None and item.valid_until is not None and item.valid_until <= now:
            raise ValidationError(
                f"valid_until: {iso_utc(item.valid_until)} is not in the future, and a memory "
                "without valid_from starts now; send valid_from too")
