"""The embedded store's in-memory side: parsed records, the graph, the vector indexes.

SQLite is the source of truth; this mirror is rebuilt from it on open and
updated after each committed batch. Reads that filter by scope and time run
here over parsed models instead of re-parsing JSON rows, which is what keeps
search fast. Embeddings live only in the per-scope vector indexes (a fact's
list of 384 Python floats would cost ~12 KB each); :meth:`with_embedding`
attaches one when a caller asks for whole facts.
"""

from __future__ import annotations

import heapq
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import TypeVar

import networkx as nx
import numpy as np
import numpy.typing as npt

from graphmem.models import Entity, Fact
from graphmem.store.base import WriteBatch
from graphmem.store.embedded import sql
from graphmem.store.embedded.changes import Changed
from graphmem.store.embedded.vectors import VectorIndex

ScopeKey = tuple[str, str]  # (tenant, scope_key)
Vector = list[float] | npt.NDArray[np.float32]
M = TypeVar("M", Fact, Entity)
#: Ids a statement when a mirror reads records by id (well under SQLite's variable limit).
_CHUNK = 500


def _row(blob: object) -> npt.NDArray[np.float32] | None:
    """A stored vector as a numpy row, not as a list of 384 Python floats made only to be
    copied into the index."""
    return np.frombuffer(blob, dtype=np.float32) if isinstance(blob, bytes) else None


#: Every field of a record, in one set all the mirror's records share: pydantic keeps a set
#: of the fields given per model (~1.2 KB a fact) and nothing reads it.
_FACT_FIELDS = set(Fact.model_fields)
_ENTITY_FIELDS = set(Entity.model_fields)
#: Fields whose values repeat across records (the same tenant, scope, person, predicate):
#: one string each, not one per record.
_FACT_SHARED = ("tenant", "scope_key", "subject_id", "subject_name", "predicate", "object_id",
                "object_name")
_ENTITY_SHARED = ("tenant", "scope_key", "type")


def _compact(record: M, fields: set[str], shared: tuple[str, ...]) -> M:
    """The record as the mirror keeps it: without its vector, sharing what repeats.

    A shallow copy made as pydantic's ``__copy__`` makes one, without copying the two
    things it would replace at once (the set of fields given, and the vector): where
    ``model_construct`` cost about 16 us a record, and ``copy.copy`` a fifth of a batch's
    mirror time. The models have no private attributes and no extra fields, the only other
    state a copy carries (a test holds them to it)."""
    cls = type(record)
    compact = cls.__new__(cls)
    values = dict(record.__dict__)
    values["embedding"] = None
    for name in shared:
        if type(values[name]) is str:
            values[name] = sys.intern(values[name])
    object.__setattr__(compact, "__dict__", values)
    object.__setattr__(compact, "__pydantic_fields_set__", fields)
    object.__setattr__(compact, "__pydantic_extra__", None)
    object.__setattr__(compact, "__pydantic_private__", None)
    return compact


class _Blocks:
    """Vectors on their way into the indexes, gathered per index: one block upsert per
    index and batch, where a row at a time cost a normalisation and an assignment each
    (about 0.09 ms, most of a batch's mirror time)."""

    def __init__(self, flush_every: int | None = None) -> None:
        self._pending: dict[int, tuple[VectorIndex, list[str], list[Vector]]] = {}
        self._count = 0
        self._flush_every = flush_every

    def add(self, index: VectorIndex, item_id: str, vector: Vector) -> None:
        entry = self._pending.setdefault(id(index), (index, [], []))
        entry[1].append(item_id)
        entry[2].append(vector)
        self._count += 1
        if self._flush_every is not None and self._count >= self._flush_every:
            self.flush()

    def flush(self) -> None:
        for index, ids, vectors in self._pending.values():
            index.upsert(ids, np.asarray(vectors, dtype=np.float32))
        self._pending.clear()
        self._count = 0


class EmbeddedIndex:
    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.facts: dict[str, Fact] = {}
        self.entities: dict[str, Entity] = {}
        self.graph: nx.MultiDiGraph = nx.MultiDiGraph()
        self._fact_vectors: dict[ScopeKey, VectorIndex] = {}
        self._entity_vectors: dict[ScopeKey, VectorIndex] = {}
        self._turn_vectors: dict[ScopeKey, VectorIndex] = {}
        self._turns_of: dict[str, tuple[ScopeKey, list[str]]] = {}  # episode id -> its turn keys
        # entity id -> the ids of the facts touching it, most important first (see
        # :meth:`facts_by_importance`); made when a walk asks, dropped when they change
        self._ranked: dict[str, list[str]] = {}

    def load(self, db: sqlite3.Connection) -> None:
        vectors = _Blocks(flush_every=2048)  # bounded: a large store's rows are not all held
        for doc, blob in db.execute(sql.LOAD_FACTS):  # docs are stored without the vector
            self._load_fact(doc, blob, vectors)
        for doc, blob in db.execute(sql.LOAD_ENTITIES):
            self._load_entity(doc, blob, vectors)
        vectors.flush()
        for tenant, scope_key, episode_id, idx, blob in db.execute(sql.LOAD_TURNS):
            if (row := _row(blob)) is not None:
                self._put_turns((tenant, scope_key), episode_id, {idx: row})

    def apply(self, batch: WriteBatch, rows: dict[str, npt.NDArray[np.float32]]) -> None:
        """Mirror a committed batch; ``rows``: its entities' and facts' vectors as float32
        rows, by id (converted once, for the file and here)."""
        for fid in batch.delete_fact_ids:
            self._drop_fact(fid)
        for eid in batch.delete_entity_ids:
            self._drop_entity(eid)
        for episode_id in batch.delete_episode_ids:
            self._drop_turns(episode_id)
        blocks = _Blocks()
        for entity in batch.entities:
            self._put_entity(entity, blocks, rows.get(entity.id))
        for fact in batch.facts:
            self._put_fact(fact, blocks, rows.get(fact.id))
        blocks.flush()
        for episode in batch.episodes:
            vectors = batch.turn_vectors.get(episode.id)
            if vectors:  # given vectors replace the episode's (it may have been rewritten)
                self._drop_turns(episode.id)
                self._put_turns((episode.tenant, episode.scope_key), episode.id,
                                dict(enumerate(vectors)))

    def refresh(self, db: sqlite3.Connection, changed: Changed) -> None:
        """Make the changed records (another process's writes) what the file holds now:
        reloaded where they are there, dropped where they are gone."""
        facts = _by_id(db, sql.facts_by_id, changed.facts)
        entities = _by_id(db, sql.entities_by_id, changed.entities)
        for fid in changed.facts - facts.keys():
            self._drop_fact(fid)
        for eid in changed.entities - entities.keys():
            self._drop_entity(eid)
        vectors = _Blocks()
        for doc, blob in entities.values():
            self._load_entity(doc, blob, vectors)
        for doc, blob in facts.values():
            self._load_fact(doc, blob, vectors)
        vectors.flush()
        episodes = sorted(changed.episodes)
        for episode_id in episodes:
            self._drop_turns(episode_id)
        turns: dict[tuple[ScopeKey, str], dict[int, npt.NDArray[np.float32]]] = {}
        for start in range(0, len(episodes), _CHUNK):
            chunk = episodes[start:start + _CHUNK]
            for tenant, scope_key, episode_id, idx, blob in db.execute(
                    sql.turns_of_episodes(len(chunk)), chunk):
                if (row := _row(blob)) is not None:
                    turns.setdefault(((tenant, scope_key), episode_id), {})[idx] = row
        for (scope, episode_id), rows in turns.items():
            self._put_turns(scope, episode_id, rows)

    # -- lookups --------------------------------------------------------------
    def fact(self, tenant: str, fact_id: str) -> Fact | None:
        fact = self.facts.get(fact_id)
        return fact if fact is not None and fact.tenant == tenant else None

    def entity(self, tenant: str, entity_id: str) -> Entity | None:
        entity = self.entities.get(entity_id)
        return entity if entity is not None and entity.tenant == tenant else None

    def replace_fact(self, fact: Fact) -> None:
        """Put a changed record of a fact whose vector is unchanged (access statistics)."""
        old = self.facts.get(fact.id)
        if _moves(old, fact):
            self._unrank(old)
            self._unrank(fact)
        self.facts[fact.id] = _compact(fact, _FACT_FIELDS, _FACT_SHARED)

    def with_embedding(self, fact: Fact) -> Fact:
        index = self._fact_vectors.get((fact.tenant, fact.scope_key))
        vector = index.vector(fact.id) if index is not None else None
        return fact.model_copy(update={"embedding": vector})

    def entity_with_embedding(self, entity: Entity) -> Entity:
        index = self._entity_vectors.get((entity.tenant, entity.scope_key))
        vector = index.vector(entity.id) if index is not None else None
        return entity.model_copy(update={"embedding": vector})

    def fact_ids_touching(self, entity_ids: Iterable[str]) -> list[str]:
        found: list[str] = []
        for eid in entity_ids:
            if self.graph.has_node(eid):
                found += [key for _, _, key in self.graph.out_edges(eid, keys=True)]
                found += [key for _, _, key in self.graph.in_edges(eid, keys=True)]
        return list(dict.fromkeys(found))

    def facts_by_importance(self, entity_ids: Iterable[str]) -> Iterator[Fact]:
        """The facts touching any of ``entity_ids``, most important first (importance, then
        the later ``valid_from``), each once, in the order a stable sort of
        :meth:`fact_ids_touching` by that key gives.

        A walk asks for the few most important facts of its seeds, and the asking user is
        the seed of most questions: sorting all of their facts (2,000 a user at 100k facts)
        was most of a search. Each entity's order is made once and kept until one of its
        facts changes, so a walk reads only as far as it needs.
        """
        ranked = [self._ranked_ids(e) for e in dict.fromkeys(entity_ids)]
        merged = heapq.merge(*ranked, key=lambda i: _rank_of(self.facts[i]), reverse=True)
        seen: set[str] = set()
        for fact_id in merged:  # ties: the earlier entity's first, as fact_ids_touching lists
            if fact_id not in seen:
                seen.add(fact_id)
                yield self.facts[fact_id]

    def _ranked_ids(self, entity_id: str) -> list[str]:
        ranked = self._ranked.get(entity_id)
        if ranked is None:
            ids = [i for i in self.fact_ids_touching([entity_id]) if i in self.facts]
            ranked = sorted(ids, key=lambda i: _rank_of(self.facts[i]), reverse=True)
            self._ranked[entity_id] = ranked
        return ranked

    def _unrank(self, fact: Fact | None) -> None:
        """Forget the order of the entities ``fact`` touches (it is changing)."""
        if fact is not None:
            self._ranked.pop(fact.subject_id, None)
            self._ranked.pop(fact.object_id, None)

    def nearest_facts(self, tenant: str, scope_keys: list[str], query: list[float],
                      k: int) -> list[tuple[str, float]]:
        return _nearest(self._fact_vectors, tenant, scope_keys, query, k)

    def fact_similarities(self, facts: list[Fact], query: list[float]) -> dict[str, float]:
        """Each fact's dot product with ``query``, from its scope's vectors; none without one."""
        ids_by_scope: dict[ScopeKey, list[str]] = {}
        for fact in facts:
            ids_by_scope.setdefault((fact.tenant, fact.scope_key), []).append(fact.id)
        found: dict[str, float] = {}
        for scope, ids in ids_by_scope.items():
            if (index := self._fact_vectors.get(scope)) is not None:
                found.update(index.scores(ids, query))
        return found

    def nearest_entities(self, tenant: str, scope_keys: list[str], query: list[float],
                         k: int) -> list[tuple[str, float]]:
        return _nearest(self._entity_vectors, tenant, scope_keys, query, k)

    def nearest_turns(self, tenant: str, scope_keys: list[str], query: list[float],
                      k: int) -> list[tuple[str, float]]:
        """Turn keys ("<episode id>:<index>") by cosine similarity."""
        return _nearest(self._turn_vectors, tenant, scope_keys, query, k)

    # -- maintenance ----------------------------------------------------------
    def _drop_turns(self, episode_id: str) -> None:
        scope, keys = self._turns_of.pop(episode_id, (("", ""), []))
        if keys:
            self._turn_vectors[scope].remove(keys)

    def _put_turns(self, scope: ScopeKey, episode_id: str,
                   vectors: dict[int, list[float]] | dict[int, npt.NDArray[np.float32]]) -> None:
        if scope not in self._turn_vectors:
            self._turn_vectors[scope] = VectorIndex(self.dimension)
        keys = [f"{episode_id}:{idx}" for idx in vectors]
        self._turn_vectors[scope].upsert(keys, np.asarray(list(vectors.values()), dtype=np.float32))
        known = self._turns_of.setdefault(episode_id, (scope, []))[1]
        known += keys

    def _index(self, indexes: dict[ScopeKey, VectorIndex], item: Fact | Entity) -> VectorIndex:
        key = (item.tenant, item.scope_key)
        if key not in indexes:
            indexes[key] = VectorIndex(self.dimension)
        return indexes[key]

    def _put_fact(self, fact: Fact, vectors: _Blocks, row: Vector | None) -> None:
        """Put ``fact``, and its vector ``row`` (the batch's or the file's: see
        ``writes.vector_rows``), if it has one."""
        old = self.facts.get(fact.id)
        # A fact that keeps its ends keeps its edge, and so its place among its entities'
        # facts: a change of status or validity (a supersession, another process's access
        # count) leaves their walk order as it is.
        kept = (old is not None and _ends(old) == _ends(fact)
                and self.graph.has_edge(*_ends(old), key=fact.id))
        if not kept or _moves(old, fact):
            self._unrank(old)
            self._unrank(fact)
        if not kept and old is not None and self.graph.has_edge(*_ends(old), key=fact.id):
            self.graph.remove_edge(*_ends(old), key=fact.id)
        if row is not None:
            vectors.add(self._index(self._fact_vectors, fact), fact.id, row)
        self.facts[fact.id] = _compact(fact, _FACT_FIELDS, _FACT_SHARED)
        if not kept:
            self.graph.add_edge(*_ends(fact), key=fact.id)

    def _drop_fact(self, fact_id: str) -> None:
        old = self.facts.pop(fact_id, None)
        if old is None:
            return
        self._unrank(old)
        self._index(self._fact_vectors, old).remove([fact_id])
        if self.graph.has_edge(old.subject_id, old.object_id, key=fact_id):
            self.graph.remove_edge(old.subject_id, old.object_id, key=fact_id)

    def _load_fact(self, doc: str, blob: object, vectors: _Blocks) -> None:
        """Put a fact read from the file (its doc and vector column), replacing the mirror's."""
        fact = Fact.model_validate_json(doc)
        self._forget_vector(self._fact_vectors, self.facts.get(fact.id), fact, blob)
        self._put_fact(fact, vectors, _row(blob))

    def _load_entity(self, doc: str, blob: object, vectors: _Blocks) -> None:
        entity = Entity.model_validate_json(doc)
        self._forget_vector(self._entity_vectors, self.entities.get(entity.id), entity, blob)
        self._put_entity(entity, vectors, _row(blob))

    def _drop_entity(self, entity_id: str) -> None:
        entity = self.entities.pop(entity_id, None)
        if entity is not None:
            self._index(self._entity_vectors, entity).remove([entity_id])
        if self.graph.has_node(entity_id):
            for fact_id in self.fact_ids_touching([entity_id]):
                self._unrank(self.facts.get(fact_id))
            self._ranked.pop(entity_id, None)
            self.graph.remove_node(entity_id)

    def _forget_vector(self, indexes: dict[ScopeKey, VectorIndex], old: Fact | Entity | None,
                       new: Fact | Entity, blob: object) -> None:
        """Drop ``old``'s vector before ``new`` (the same record, reloaded) is put, where
        the new one will not replace it in place: it has no vector now, or another scope."""
        if old is not None and (_row(blob) is None
                                or (old.tenant, old.scope_key) != (new.tenant, new.scope_key)):
            self._index(indexes, old).remove([old.id])

    def _put_entity(self, entity: Entity, vectors: _Blocks, row: Vector | None) -> None:
        """Put ``entity``, and its vector ``row``, if it has one (as :meth:`_put_fact`)."""
        if row is not None:
            vectors.add(self._index(self._entity_vectors, entity), entity.id, row)
        self.entities[entity.id] = _compact(entity, _ENTITY_FIELDS, _ENTITY_SHARED)
        self.graph.add_node(entity.id)


def _rank_of(fact: Fact) -> tuple[float, datetime]:
    """A walk's order of a fact: the more important first, then the later valid."""
    return fact.importance, fact.valid_from


def _ends(fact: Fact) -> tuple[str, str]:
    return fact.subject_id, fact.object_id


def _moves(old: Fact | None, new: Fact) -> bool:
    """Whether writing ``new`` over ``old`` changes the walk order of an entity it touches."""
    return old is None or _rank_of(old) != _rank_of(new) or _ends(old) != _ends(new)


def _by_id(db: sqlite3.Connection, statement: Callable[[int], str],
           ids: set[str]) -> dict[str, tuple[str, object]]:
    """Each found id's (doc, embedding) row, read ``_CHUNK`` ids a statement."""
    wanted = sorted(ids)
    found: dict[str, tuple[str, object]] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start:start + _CHUNK]
        found.update({str(i): (str(doc), blob)
                      for i, doc, blob in db.execute(statement(len(chunk)), chunk)})
    return found


def _nearest(indexes: dict[ScopeKey, VectorIndex], tenant: str, scope_keys: list[str],
             query: list[float], k: int) -> list[tuple[str, float]]:
    """Exact top k over the scopes' own indexes, so other users never crowd a scope out."""
    hits: list[tuple[str, float]] = []
    for key in scope_keys:
        index = indexes.get((tenant, key))
        if index is not None:
            hits += index.search(query, k)
    hits.sort(key=lambda pair: pair[1], reverse=True)
    return hits[:k]
