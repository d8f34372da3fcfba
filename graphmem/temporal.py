"""Timeline rules: which fact holds when, and what superseded what.

Every fact belongs to one *timeline*: the facts of the same scope and subject
whose predicate family is functional (one value at a time), or, for
multi-valued predicates, the facts about the same object. Within a timeline,
facts are ordered by ``valid_from``; each one ends where the next one starts,
where it was retracted, or where its source said it ended. That makes a
timeline a pure function of its facts: out-of-order arrivals, deletions and
re-insertions all come down to calling :func:`rebuild_timeline` again, and
nothing outside the timeline is ever touched.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from graphmem.models import Cardinality, Fact, FactStatus, Retraction, UtcDateTime, utcnow


def timeline_key(scope_key: str, subject_id: str, family: str, cardinality: Cardinality,
                 object_id: str) -> str:
    """The key that groups facts which can supersede each other."""
    per_object = object_id if cardinality is Cardinality.MANY else "*"
    return f"{scope_key}|{subject_id}|{family}|{per_object}"


def name_key(scope_key: str, norm: str) -> str:
    """The timeline of a normalised name in a scope, versioned like a fact timeline.

    Resolution reads its version before looking the name up, and a batch that
    creates the entity carries it; so two processes that both found no entity of
    that name cannot both create one: the second write fails as stale and decides
    again, finding the first one's entity. The name is hashed (it may hold ``|``).
    """
    digest = hashlib.blake2b(norm.encode(), digest_size=10).hexdigest()
    return f"{scope_key}|name|{digest}|*"


def timeline_scope(key: str) -> str:
    """The scope key a timeline key starts with (ids and families hold no ``|``).

    >>> timeline_scope("member:g|1:u|ent_1|EMPLOYMENT|*")
    'member:g|1:u'
    """
    return key.rsplit("|", 3)[0]


def _order(fact: Fact) -> tuple[datetime, datetime, str]:
    return (fact.valid_from, fact.recorded_at, fact.id)


def _closing_marker(fact: Fact, markers: list[Fact], before: datetime | None) -> Fact | None:
    """The first retraction of this fact's value after it starts (and before ``before``)."""
    for marker in markers:
        if marker.valid_from <= fact.valid_from:
            continue
        if before is not None and marker.valid_from >= before:
            return None
        if not marker.object_id or marker.object_id == fact.object_id:
            return marker
    return None


def rebuild_timeline(facts: Iterable[Fact], now: datetime | None = None) -> list[Fact]:
    """Recompute the derived fields of one timeline's facts.

    ``valid_until``, ``expired_at``, ``retraction`` and the supersedes links
    follow from the facts and retraction markers alone, so the result does not
    depend on the order they arrived in. Returns the facts whose derived fields
    changed, as updated copies. Archived facts take no part.
    """
    now = now or utcnow()
    live = sorted((f for f in facts if f.status is not FactStatus.ARCHIVED), key=_order)
    markers = [f for f in live if f.status is FactStatus.RETRACTION]
    ordered = [f for f in live if f.status is not FactStatus.RETRACTION]
    update: dict[str, dict[str, object]] = {
        f.id: {"valid_until": None, "superseded_by": None, "supersedes": [], "retraction": None}
        for f in ordered
    }
    for current, nxt in zip(ordered, [*ordered[1:], None][: len(ordered)], strict=True):
        end = current.stated_until
        marker = _closing_marker(current, markers, nxt.valid_from if nxt else None)
        if marker is not None and (end is None or marker.valid_from < end):
            end = marker.valid_from
            update[current.id]["retraction"] = Retraction(
                at=marker.valid_from, episode_id=marker.episode_ids[0] if marker.episode_ids else None,
                message_ids=marker.message_ids)
        elif nxt is not None and (end is None or nxt.valid_from < end):
            end = max(nxt.valid_from, current.valid_from)
            if (nxt.predicate, nxt.object_id) != (current.predicate, current.object_id):
                update[current.id]["superseded_by"] = nxt.id
                update[nxt.id]["supersedes"] = [current.id]
        update[current.id]["valid_until"] = end

    changed: list[Fact] = []
    for fact in ordered:
        new = update[fact.id]
        expired_at = fact.expired_at
        if new["valid_until"] is None:
            expired_at = None
        elif fact.valid_until is None or expired_at is None:
            expired_at = now
        new["expired_at"] = expired_at
        if any(getattr(fact, k) != v for k, v in new.items()):
            changed.append(fact.model_copy(update=new))
    return changed


class TimeFilter(BaseModel):
    """Which facts a read sees, in world time and in system time.

    * default: facts valid now;
    * ``as_of``: facts valid at that world time;
    * ``as_known_at``: what graphmem believed at that system time (facts
      recorded by then; an end learned later is ignored), valid at ``as_of``
      or, if not given, at ``as_known_at``;
    * ``include_history``: superseded and retracted facts too (those that had
      started by ``as_of``), still subject to ``as_known_at``.
    """

    model_config = ConfigDict(frozen=True)

    as_of: UtcDateTime | None = None
    as_known_at: UtcDateTime | None = None
    include_history: bool = False
    include_forgotten: bool = False

    def at(self, now: datetime) -> datetime:
        return self.as_of or self.as_known_at or now

    def matches(self, fact: Fact, now: datetime) -> bool:
        """The reference semantics; the stores translate them to queries."""
        if fact.status in (FactStatus.ARCHIVED, FactStatus.RETRACTION):
            return False
        if fact.status is FactStatus.FORGOTTEN and not self.include_forgotten:
            return False
        return self.matches_time(fact, now)

    def sees_statement(self, stated_at: datetime | None, recorded_at: datetime | None) -> bool:
        """Whether a raw statement (a conversation turn) is visible in this view.

        A time-travel read never shows what was said after its ``as_of``, nor
        what graphmem recorded after its ``as_known_at``. The current view shows
        every turn: a turn has no end, only the facts drawn from it do.
        """
        at = self.as_of or self.as_known_at
        if at is not None and stated_at is not None and stated_at > at:
            return False
        known = self.as_known_at
        return known is None or recorded_at is None or recorded_at <= known

    def never_held(self, fact: Fact) -> bool:
        """Whether ``fact``'s interval, as this view knows it, is empty: a value corrected
        as wrong from its start ends where it starts. The stores' history listings keep it
        (a record of what was believed; ``as_known_at`` an instant before the end was learned
        sees it hold); a search of what was true leaves it out of history."""
        if fact.valid_until is None or fact.valid_until > fact.valid_from:
            return False
        known = self.as_known_at
        return known is None or (fact.expired_at is not None and fact.expired_at <= known)

    def matches_time(self, fact: Fact, now: datetime) -> bool:
        """The time part alone (for listings that choose statuses explicitly)."""
        until = fact.valid_until
        if self.as_known_at is not None:
            if fact.recorded_at > self.as_known_at:
                return False
            if fact.expired_at is None or fact.expired_at > self.as_known_at:
                until = None
        at = self.at(now)
        if fact.valid_from > at:
            return False
        return self.include_history or until is None or at < until


def known_end(fact: Fact, time: TimeFilter, now: datetime) -> datetime | None:
    """A fact's end as the view knows it: a view of the past (``as_of``, ``as_known_at``)
    does not know an end learned after its instant, nor one that lies ahead of it, unless
    the statement itself said when it would end ("until June")."""
    end = fact.valid_until
    if end is None or (time.as_of is None and time.as_known_at is None):
        return end
    if time.as_known_at is not None and (fact.expired_at is None
                                         or fact.expired_at > time.as_known_at):
        return None
    if end > time.at(now) and end != fact.stated_until:
        return None
    return end


def as_viewed(fact: Fact, time: TimeFilter, now: datetime) -> Fact:
    """``fact`` as a view of the past knew it: an end it did not know (:func:`known_end`)
    is left out, and with it what superseded or retracted the fact, and when the end was
    recorded. So a listing ``as_of`` a date shows nothing dated after it, as search does."""
    end = known_end(fact, time, now)
    if end == fact.valid_until:
        return fact
    return fact.model_copy(update={"valid_until": end, "superseded_by": None,
                                   "retraction": None, "expired_at": None})
