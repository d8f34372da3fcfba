"""Work said in chat shorthand: an employer ("accepted an offer from X", "just signed with
Mercado Libre, first day was today", "X made me an offer... so i took it"), one left ("Infosys
and I parted ways"), a title ("they made me head of data", "still nursing tho"), a manager
("Currently managed by Grace Kim") or one no longer ("not under Gunnar anymore")."""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.families.chat.people import NAME
from graphmem.extract.rules.lexicon import clean_name
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.parties import Party, Speech

if TYPE_CHECKING:
    from spacy.tokens import Span

#: "they made me head of data", "they appointed me team lead": a title given.
_MADE_ME = re.compile(r"\b(?i:made|named|appointed|make)\s+(?i:me)\s+(?:(?i:the|a|an)\s+)?"
                      r"([a-z][a-z-]*(?:\s+(?:of\s+)?[a-z][a-z-]*){0,3}?)(?=\s*(?:[!.,;]|$|\s+at\b|"
                      r"\s+(?:now|today|last|this)\b))")
#: "officially a data scientist now": a title said without a verb.
_TITLE_NOW = re.compile(r"^\s*(?i:officially|finally|now)\s+(?i:an?|the)\s+([a-z][a-z -]{2,40}?)"
                        r"\s+(?i:now|as\s+of\s+today)\b")
#: "..., still nursing tho", "still a nurse": a title kept, said as a fragment.
_STILL = re.compile(r"(?:^|[,;]\s*|\b(?i:but|and)\s+)(?i:still)\s+(?:(?i:an?)\s+)?([a-z][a-z-]+)"
                    r"(?=\s*(?:[!.,;]|$|\s+(?i:tho|though|too|there|at|for|full[- ]time|part[- ]time)\b))")
#: Trades said by their work: "still nursing" is still a nurse (not "still driving", "still
#: coding": those are as often a car or a hobby).
_TRADES = MappingProxyType({
    "nursing": "nurse", "teaching": "teacher", "lecturing": "lecturer", "tutoring": "tutor",
    "waitressing": "waitress", "waitering": "waiter", "freelancing": "freelancer",
    "consulting": "consultant", "plumbing": "plumber", "cheffing": "chef"})
#: "just signed with Mercado Libre, first day was today": an employer, when the message says
#: the job began or the title it is signed as ("signed with Quillbrook Media as a staff
#: photographer").
_SIGNED_WITH = re.compile(r"(?:^\W*|\b(?i:i|i've|i\s+have)\s+)(?:(?i:just|finally|officially)\s+)?"
                          r"(?i:signed)\s+(?i:on\s+)?(?i:with)\s+" + NAME
                          + r"(?:\s+(?i:as)\s+(?:(?i:an?|the)\s+)?((?:[a-z-]+\s+){0,2}[a-z]+)\b)?")
#: Words that say a job began: "first day was today", "new badge", "starting in september".
JOB_BEGUN = re.compile(r"\b(?:first\s+(?:day|week)|badge|onboard\w*|started\s+today|"
                        r"start(?:ing)?\s+(?:on\s+|in\s+|next\s+)?(?:monday|january|february|"
                        r"march|april|may|june|july|august|september|october|november|december"
                        r"|week|month))\b", re.IGNORECASE)
#: "Infosys and I parted ways", "parted ways with Globex": the job ends; "Cian and I called
#: it quits", "Ana and I went our separate ways": the couple (without a word of work).
_PARTED = re.compile(r"(?:([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3})\s+and\s+(?i:i)\s+"
                     r"(?:(?i:have|'ve)\s+)?(?i:parted\s+ways|called\s+it\s+quits|went\s+our\s+"
                     r"separate\s+ways)"
                     r"|(?i:parted\s+ways\s+with)\s+([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3}))")
#: "Currently managed by Grace Kim", "The person I report to is Anneke de Vries".
_MANAGED_BY = re.compile(r"(?:^\s*(?i:i\s+)?(?i:currently\s+|now\s+)?|\b(?i:i'm|i\s+am)\s+(?:(?i:currently|now)\s+)?)"
                         r"(?i:managed\s+by)\s+" + NAME + r"|\b(?i:the\s+(?:person|one)\s+i\s+"
                         r"(?:report|answer)\s+to\s+is)\s+" + NAME)
#: Words that say a message is about a job.
_JOB_TALK = re.compile(r"\b(?:job|employ|work|company|employer|career|hired|redundan|laid\s+off"
                       r"|contract|boss|team)\w*", re.IGNORECASE)
#: "X made me an offer i couldn't refuse so i took it", "accepted an offer from X", "officially
#: an employee of X", "on the payroll at X": the employer now.
_ORG = r"([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3})"
_HIRED_BY = re.compile(
    r"\b(?i:accepted|took|signed)\s+(?i:an|the|their)\s+(?:(?i:job)\s+)?(?i:offer)\s+"
    r"(?i:from|at|with)\s+" + _ORG +
    r"|(?:^\W*|\b(?i:i'm|i\s+am|now)\s+)(?:(?i:officially|now|finally)\s+)?(?:(?i:an?)\s+)?"
    r"(?i:employee|staff\s+member)\s+(?i:of|at)\s+" + _ORG +
    # "I'm on the payroll at X now"
    r"|\b(?i:i'm|i\s+am|now|been)\s+(?:(?i:officially|now|finally)\s+)?(?i:on\s+(?:the|their)"
    r"\s+payroll)\s+(?i:at|of|with)\s+" + _ORG)
#: "Deloitte is where I work", "Halcyon Health is where I'm employed now": the employer.
_WHERE_I_WORK = re.compile(r"(?:^\W*(?:(?i:so|and|but|well|ok|okay|honestly|anyway)\W+)?|[,:;]\s*)"
                           r"(?!(?i:that|this|it|here|there)\b)" + _ORG
                           + r"\s+(?i:is)\s+(?i:where\s+(?:i\s+(?:work|am\s+employed|do\s+my\s+job)"
                           r"|i'm\s+employed))\b")
#: "Tessellate. That's where I work now": the firm said alone, then pointed at.
_POINTING = r"(?i:that's|that\s+is|this\s+is)\s+(?i:where\s+i\s+work)\b"
_THATS_WHERE = re.compile(r"^\W*" + _ORG + r"\s*[.!]+\s*" + _POINTING)
#: The pointing sentence alone, for the gate: the firm is in the sentence before it.
_POINTED_AT = re.compile(r"^\W*" + _POINTING)
#: "X made me an offer", taken when the message says so after it ("so i took it").
_OFFERED = re.compile(r"^\W*(?:[\w']+\W+){0,2}?" + _ORG + r"\s+(?i:made|gave|offered)\s+(?i:me)\s+"
                      r"(?i:an?)\s+(?:(?i:job)\s+)?(?i:offer)\b")
_TOOK_IT = re.compile(r"\b(?i:took\s+it|accepted(?:\s+it)?|said\s+yes|signed|already\s+onboarded|"
                      r"i\s+start\s+on)\b")
#: "not under Gunnar anymore", "no longer under Tobias": a manager no longer.
_NOT_UNDER = re.compile(r"\b(?i:not\s+under|no\s+longer\s+under|no\s+longer\s+reporting\s+to|"
                        r"not\s+reporting\s+to)\s+" + NAME + r"(?=\s+(?i:anymore|any\s+more)\b|"
                        r"\s*[.,;!?]|\s*$)")


def work_facts(sent: Span, speech: Speech, me: Party) -> list[Finding]:
    """The speaker's employer, title and manager, taken or left."""
    text = sent.text
    message = speech.message or sent.doc.text
    out = _made_me(text, me) + _still_title(text, me)
    if _JOB_TALK.search(message):  # a job is spoken of in the message
        out += [Finding(me, "WORKS_AT", org, "organization", "retract", confidence=0.8)
                for m in _PARTED.finditer(text)
                if (org := (m.group(1) or m.group(2)).rstrip(".'"))]
    else:  # "Geoffrey and I have parted ways, quite amicably": a couple no longer
        out += [Finding(me, "HAS_PARTNER", name, "person", "retract", confidence=0.8)
                for m in _PARTED.finditer(text) if (name := clean_name(m.group(1) or m.group(2)))]
    out += [Finding(me, "WORKS_AT", org, "organization", confidence=0.8)
            for m in [*_HIRED_BY.finditer(text), *_WHERE_I_WORK.finditer(text)]
            if (org := (m.group(1) or m.group(2) or m.group(3)).rstrip(".'"))]
    for m in _SIGNED_WITH.finditer(text):
        title = m.group(2) if m.group(2) and m.group(2).split()[-1] in OCCUPATIONS else None
        if (org := clean_name(m.group(1))) and (title or JOB_BEGUN.search(message)):
            out.append(Finding(me, "WORKS_AT", org, "organization", confidence=0.8))
            out += [Finding(me, "JOB_TITLE", title, "role", confidence=0.8)] if title else []
    # read in the sentence that points, whether or not the message was split there
    pointed = _THATS_WHERE.match(message)
    if pointed and (_POINTED_AT.match(text) or _THATS_WHERE.match(text)):
        out.append(Finding(me, "WORKS_AT", pointed.group(1), "organization", confidence=0.8))
    offered = _OFFERED.search(text)
    if offered and _TOOK_IT.search(sent.doc.text, sent.start_char + offered.end()):
        out.append(Finding(me, "WORKS_AT", offered.group(1), "organization", confidence=0.8))
    out += [Finding(me, "REPORTS_TO", name, "person", "retract", confidence=0.8)
            for m in _NOT_UNDER.finditer(text) if (name := clean_name(m.group(1)))]
    out += [Finding(me, "REPORTS_TO", n, "person", confidence=0.85)
            for m in _MANAGED_BY.finditer(text)
            if (n := clean_name(m.group(1) or m.group(2) or ""))]
    return out


def _still_title(text: str, me: Party) -> list[Finding]:
    """"new job at Asda, still nursing tho", "still a nurse": the title holds through the
    change of employer (which would otherwise end it)."""
    out = []
    for m in _STILL.finditer(text):
        word = m.group(1).lower()
        title = _TRADES.get(word, word)
        if title in OCCUPATIONS:
            out.append(Finding(me, "JOB_TITLE", title, "role", confidence=0.8))
    return out


def _made_me(text: str, me: Party) -> list[Finding]:
    """"They made me head of data!", "officially a data scientist now": the title, when it
    reads as one (an occupation last, or a head, director or lead of something)."""
    out = []
    for m in [*_MADE_ME.finditer(text), *_TITLE_NOW.finditer(text)]:
        title = m.group(1).strip()
        words = title.split()
        if words[-1] in OCCUPATIONS or words[0] in ("head", "director", "vp", "chief") \
                or words[-1] == "lead":
            out.append(Finding(me, "JOB_TITLE", title, "role", confidence=0.8))
    return out


PATTERNS: tuple[re.Pattern[str], ...] = (_MADE_ME, _TITLE_NOW, _PARTED, _MANAGED_BY, _HIRED_BY,
                                         _OFFERED, _NOT_UNDER, _SIGNED_WITH, _WHERE_I_WORK,
                                         _POINTED_AT)
