"""What one message's facts say together, settled once the message is read.

A sentence's rules see one sentence; a message may say a thing in two ("adopted a dog!!
shes a greyhound named Luna", "I handed in my notice. My last day is March 31.", "Accepted
an offer from Stripe, I start there next month"). These passes go over a message's facts
after every sentence is read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from graphmem.extract.base import CandidateFact, ExtractedFact
from graphmem.extract.rules.corrections import said_by
from graphmem.extract.rules.parties import PETS
from graphmem.extract.rules.render import stated
from graphmem.extract.rules.timeexpr import DAY_RE, MONTH_RE, ORDINAL_DAY, resolve

#: The slots a notice is served in: the job, and its title.
JOBS = frozenset({"WORKS_AT", "JOB_TITLE"})


def named_pets(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One message's pet, named in one sentence and not in another ("adopted a dog!! shes
    a greyhound named Luna"): one pet, Luna, not a second called "dog"."""
    named = {(f.subject.lower(), f.message_id, word) for f in facts
             if f.predicate == "HAS_PET" and f.action == "assert" and f.object.lower() not in PETS
             for word in re.findall(r"[a-z]+", f.text.lower()) if word in PETS}
    return [f for f in facts if not (
        f.predicate == "HAS_PET" and f.action == "assert"
        and (f.subject.lower(), f.message_id, f.object.lower()) in named)]


def latest_endings(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One message's endings of the same thing: the one dated latest. "I handed in my
    notice. My last day is March 31.": the job ends on March 31, not when it was said. An
    ending of whichever value ("my notice") gives way to one that names it, not the
    reverse."""
    def same(a: ExtractedFact, b: ExtractedFact) -> bool:
        return (a.subject.lower(), a.predicate, a.message_id) == (
            b.subject.lower(), b.predicate, b.message_id) and (
            not a.object or a.object.lower() == b.object.lower())

    endings = [f for f in facts if f.action == "retract" and f.valid_from is not None]
    dropped = {id(f) for f in endings for g in endings if g is not f and same(f, g)
               and g.valid_from is not None and f.valid_from is not None
               and g.valid_from > f.valid_from}
    # "Handed in my notice. Starting at Crumbs on 1 July.": the job said to start later ends
    # the one held (a notice is served), so an ending of whichever job it is gives way to it
    dropped |= {id(f) for f in endings if not f.object and f.predicate in JOBS and any(
        g.action == "assert" and (g.subject.lower(), g.predicate, g.message_id) == (
            f.subject.lower(), f.predicate, f.message_id)
        and g.valid_from is not None and f.valid_from is not None and g.valid_from > f.valid_from
        for g in facts)}
    return [f for f in facts if id(f) not in dropped]


#: When a job got is said to start, by the speaker: "I start (there) next month", "...,
#: starting in August", "first day is 10 June" (not "My sister starts in May").
_MONTH = MONTH_RE + r"\b"
_STARTS_WHEN = re.compile(
    r"(?:(?:^|[.!?,;:]\s*|\b(?:I|I'm|I'll|I\s+will|I\s+am)\s+)(?:just\s+)?(?:start|begin)"
    r"|\b(?:starting|beginning)"
    # "first day is 10 June", "my first day there will be Monday"
    r"|\b(?<!\bher\s)(?<!\bhis\s)(?<!\btheir\s)(?<!'s\s)(?:my\s+)?first\s+day"
    r"(?:\s+(?:there|at\s+work))?\s+(?:is|will\s+be))"
    r"(?:\s+(?:there|work|it|the\s+job))?\s+"
    r"(?P<when>(?:(?:on|in|next|this|from|at\s+the\s+(?:start|beginning)\s+of)\b"
    # "starting 2 February", "starting Feb 2nd", "starting Monday", "starting tomorrow"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH
    + r"|" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|" + DAY_RE + r"\b|tomorrow\b"
    r"|the\s+" + ORDINAL_DAY + r"\b)[^.,;!?]*?)"
    r"(?=\s+(?:and|but|so|i|i'm|i'll)\b|[.,;!?]|$)",  # "starting Monday and I'm starting..."
    re.IGNORECASE)
#: How a new job is said to be taken: "got", "accepted", "landed", "an offer".
_TAKEN = re.compile(r"\b(?:got|get|accepted|accept|landed|offer|offered|hired|signed|new\s+job|"
                    r"joining|join)\b", re.IGNORECASE)


def starts_ahead(facts: list[ExtractedFact],
                 messages: Mapping[str | None, tuple[str, datetime]]) -> list[ExtractedFact]:
    """A job got or accepted that the speaker says starts later holds from then: "Accepted an
    offer from Stripe, I start there next month" (the job, and the one it replaces, changed
    when it was said), "I accepted a job at Stripe starting in August" (last August, read
    with the past tense of "accepted"). Only a message's one new employer, and its title.
    ``messages`` gives each message's text and time by its id."""
    out = list(facts)
    for subject in {f.subject.lower() for f in facts}:
        jobs = [f for f in facts if f.subject.lower() == subject and f.action == "assert"
                and f.predicate == "WORKS_AT"]
        if len(jobs) != 1 or jobs[0].message_id not in messages:
            continue
        job = jobs[0]
        text, when = messages[job.message_id]
        said = _STARTS_WHEN.search(text)
        if said is None or not _TAKEN.search(text):
            continue  # "I work at Stripe, starting Monday I'm on nights": no new job
        # a bare day reads as one ahead, as after "on" ("starting Monday", "... is the 20th")
        day = re.sub(r"^(?=\w+day\b|the\s+" + ORDINAL_DAY + ")", "on ", said["when"])
        span = resolve(day, when, prefer="future")
        past = resolve(day, when, prefer="past")
        if span is None or span.start <= when or job.valid_from not in (
                when, past.start if past else None):
            continue  # a job dated by another time: "I got a job at Stripe in January, ..."
        out = [f.model_copy(update={"valid_from": span.start})
               if f.subject.lower() == subject and f.action == "assert" and f.predicate in JOBS
               and f.message_id == job.message_id and f.valid_from == job.valid_from else f
               for f in out]
    return out


#: "same role though", "kept my title", "still the same position": a move to another employer
#: that keeps the job title held.
_SAME_ROLE = re.compile(r"\b(?:same|kept\s+my|keeping\s+my|still\s+the\s+same)\s+(?:role|title|"
                        r"job\s+title|position)\b", re.IGNORECASE)
#: "not the same role", "didn't keep my title": the words before deny it.
_DENIED_BEFORE = re.compile(r"\b(?:not|n't|no)\s+(?:\w+\s+)?$", re.IGNORECASE)


def kept_titles(facts: list[ExtractedFact], candidates: list[CandidateFact],
                messages: Mapping[str | None, tuple[str, str]]) -> tuple[list[ExtractedFact], bool]:
    """A new employer said with "same role though" keeps the title: the speaker's one stored
    title is said again when the job changes, so it does not end with the old job
    (:mod:`graphmem.ingest.held_with`). ``messages`` gives each message's text and speaker by
    its id. Also returns whether the stored facts are needed to know the title (none given)."""
    out, wanted = list(facts), False
    for job in facts:
        text, speaker = messages.get(job.message_id, ("", ""))
        same = _SAME_ROLE.search(text)
        if job.predicate != "WORKS_AT" or job.action != "assert" or same is None \
                or _DENIED_BEFORE.search(text[:same.start()]) or job.subject != speaker \
                or any(f.predicate == "JOB_TITLE" and f.message_id == job.message_id
                       and f.subject == job.subject for f in facts):
            continue  # "not the same role", "my sister ..., same role": none of the speaker's
        wanted = wanted or not candidates
        titles = {c.object for c in candidates if c.predicate == "JOB_TITLE"
                  and said_by(c, speaker)}
        if len(titles) == 1:
            title = titles.pop()
            out.append(job.model_copy(update={
                "predicate": "JOB_TITLE", "object": title, "object_type": "role",
                "text": stated(job.subject, "JOB_TITLE", title)}))
    return out, wanted


def dedupe(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    seen: dict[tuple[str, str, str, str, str | None], ExtractedFact] = {}
    for f in facts:
        key = (f.subject.lower(), f.predicate, f.object.lower(), f.action, f.message_id)
        if key not in seen:
            seen[key] = f
    return list(seen.values())
