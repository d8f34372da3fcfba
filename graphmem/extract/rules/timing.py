"""When a finding holds: the time expression of its own clause, and the interval it makes.

A sentence may name several times ("I quit Tesco last week, starting at Crumbs on 1 July");
a finding takes the one in its own clause, read in the direction its kind of time looks
(an event is past, a plan or a trip ahead), and turns it into ``valid_from`` and
``valid_until`` by its :data:`~graphmem.extract.rules.clause.Timing`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.timeexpr import (SINCE_AN_EVENT, TimeSpan, has_time_cue, resolve,
                                             resolve_range)

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: Durations too vague to date a state by ("for a few weeks", "for a while").
_VAGUE = re.compile(r"\b(?:few|several|couple|some|while|ages)\b", re.IGNORECASE)


def time_of(finding: Finding, sent: Span, when: datetime) -> TimeSpan | None:
    """Resolve the time expression of the finding's own clause, not of its neighbours."""
    if finding.timing == "none" or not has_time_cue(sent.text):
        return None
    if finding.timing == "span":
        stretch = resolve_range(sent.text, when)
        return stretch if stretch is not None and stretch.end <= when else None
    text = sent.text
    if finding.anchor is not None:
        verb = sent.doc[finding.anchor]
        skip = {t.i for c in verb.children if c.dep_ in ("conj", "ccomp", "parataxis", "relcl")
                or _another_event(c) for t in c.subtree}
        text = "".join(t.text_with_ws for t in verb.subtree if t.i not in skip)
        if not has_time_cue(text):
            return None
    head = sent.doc[finding.anchor] if finding.anchor is not None else None
    while head is not None and head.dep_ == "xcomp" and head.head is not head:
        head = head.head  # "started working at Apple in May": the tense is "started"'s
    said_done = head is not None and (head.tag_ == "VBD" or any(
        a.tag_ == "VBD" or a.lower_ in ("have", "'ve", "has", "'s") for a in head.children
        if a.dep_ in ("aux", "auxpass")))
    # "Starting at Ledgerly on 1 July", "I'm starting there on 1 July": an arrangement ahead
    arranged = head is not None and head.tag_ == "VBG" and finding.timing == "start" and all(
        a.lemma_ == "be" for a in head.children if a.dep_ in ("aux", "auxpass"))
    prefer = "past" if (finding.timing == "event" or said_done and finding.timing == "start") \
        and finding.predicate != "TRAVELS_TO" else (
        "future" if finding.timing in ("trip", "due", "plan", "last") or arranged else "auto")
    span = resolve(text, when, prefer=prefer)  # type: ignore[arg-type]
    if span is not None and finding.timing == "start" and _VAGUE.search(span.text):
        return None  # "for a few weeks now" does not say when it began
    if span is not None and span.relation == "at" and SINCE_AN_EVENT.search(
            text[:max(text.find(span.text), 0)]):
        # "I eat meat again since my trip to Argentina in May": since then, not until its end
        return replace(span, relation="since")
    return span


def validity(finding: Finding, span: TimeSpan | None, when: datetime
              ) -> tuple[datetime, datetime | None]:
    start, end = _interval(finding, span, when)
    return (start, end) if end is None or end > start else (start, None)


def _interval(finding: Finding, span: TimeSpan | None, when: datetime
              ) -> tuple[datetime, datetime | None]:
    if span is None:
        return when, None
    if finding.timing == "span":
        return span.start, span.end
    if finding.timing == "last":  # held through its last day
        return span.end, None
    if finding.action == "retract" and finding.timing == "start" and span.relation in ("at",
                                                                                      "until"):
        # "left last month", "worked there until 2020": still there until it was over;
        # "leaving Acme on Friday": still there until Friday, which is ahead
        return (span.start if span.start > when else min(span.end, when)), None
    if finding.timing == "start":
        if span.relation == "until":
            return when, span.end
        if span.relation == "by" or span.relation != "since" and span.start <= when < span.end:
            return when, None  # "this year", "these days" say it holds now, not since when
        return span.start, None
    if finding.timing == "event":
        return span.start, None
    if finding.timing == "trip":
        return span.start, span.end
    if finding.timing in ("due", "plan"):
        return when, span.start if span.granularity == "hour" else span.end
    return when, None


def _another_event(clause: Token) -> bool:
    """A participle clause hung on a verb that tells an event of its own: "I quit Tesco,
    starting at Crumbs on 1 July" (the date is the start's, not the quitting's). Not one
    joined by a word of time ("after finishing school in 2019" dates the verb it hangs on)."""
    return clause.dep_ == "advcl" and clause.tag_ == "VBG" and not any(
        c.dep_ in ("mark", "advmod", "prep") and c.i < clause.i for c in clause.children)
