"""How a finding reads and how much it matters: category, importance, fact text.

The fact text is what users see and what BM25 and vector search index, so it
is a plain third-person sentence with absolute dates ("Alice has a business
trip to Tokyo in the week of 17 June 2024."): relative words like "next week"
would be wrong the day after they were said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from graphmem.extract.base import SELF
from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.timeexpr import TimeSpan
from graphmem.models import Cardinality, Category


@dataclass(frozen=True)
class Style:
    category: Category
    importance: float
    asserted: str
    retracted: str


_C = Category
_STYLES = MappingProxyType({
    "WORKS_AT": Style(_C.FACT, 0.8, "{s} works at {o}", "{s} no longer works at {o}"),
    "JOB_TITLE": Style(_C.FACT, 0.75, "{s} works as {a_o}", "{s} no longer works as {a_o}"),
    "LIVES_IN": Style(_C.FACT, 0.8, "{s} lives in {o}", "{s} no longer lives in {o}"),
    "IS_FROM": Style(_C.PERSON, 0.6, "{s} is from {o}", "{s} is not from {o}"),
    "LEARNING": Style(_C.SKILL, 0.5, "{s} is learning {o}", "{s} is no longer learning {o}"),
    "STUDIES_AT": Style(_C.FACT, 0.7, "{s} studies at {o}", "{s} no longer studies at {o}"),
    "MARRIED_TO": Style(_C.PERSON, 0.85, "{s} is married to {o}",
                        "{s} is no longer married to {o}"),
    "HAS_PARTNER": Style(_C.PERSON, 0.8, "{s} is in a relationship with {o}",
                         "{s} is no longer with {o}"),
    "RELATIONSHIP_STATUS": Style(_C.PERSON, 0.7, "{s} is {o}", "{s} is no longer {o}"),
    "HAS_SISTER": Style(_C.PERSON, 0.75, "{s} has a sister, {o}", "{s} no longer has {a_o}"),
    "HAS_BROTHER": Style(_C.PERSON, 0.75, "{s} has a brother, {o}", "{s} no longer has {a_o}"),
    "HAS_CHILD": Style(_C.PERSON, 0.8, "{s} has {a_o}", "{s} no longer has {a_o}"),
    "HAS_PARENT": Style(_C.PERSON, 0.75, "{o} is a parent of {s}", "{o} is no longer {s's} parent"),
    "HAS_RELATIVE": Style(_C.PERSON, 0.65, "{o} is a relative of {s}",
                          "{o} is no longer {s's} relative"),
    "HAS_FRIEND": Style(_C.PERSON, 0.65, "{o} is {s's} friend", "{o} is no longer {s's} friend"),
    "KNOWS": Style(_C.PERSON, 0.4, "{s} knows {o}", "{s} no longer knows {o}"),
    "HAS_PET": Style(_C.FACT, 0.6, "{s} has {a_o}", "{s} no longer has {a_o}"),
    "OWNS": Style(_C.FACT, 0.45, "{s} owns {a_o}", "{s} no longer owns {a_o}"),
    "IS_NAMED": Style(_C.PERSON, 0.9, "{s's} name is {o}", "{s's} name is not {o}"),
    "PREFERRED_NAME": Style(_C.PERSON, 0.9, "{s} prefers to be called {o}",
                            "{s} does not want to be called {o}"),
    "AGE": Style(_C.PERSON, 0.6, "{s} is {o} years old", "{s} is not {o} years old"),
    "ALLERGIC_TO": Style(_C.FACT, 0.8, "{s} is allergic to {o}", "{s} is not allergic to {o}"),
    "HAS_CONDITION": Style(_C.FACT, 0.8, "{s} has {o}", "{s} no longer has {o}"),
    "LIKES": Style(_C.PREFERENCE, 0.5, "{s} likes {o}", "{s} no longer likes {o}"),
    "LOVES": Style(_C.PREFERENCE, 0.55, "{s} loves {o}", "{s} no longer loves {o}"),
    "PREFERS": Style(_C.PREFERENCE, 0.65, "{s} prefers {o}", "{s} no longer prefers {o}"),
    "DISLIKES": Style(_C.PREFERENCE, 0.55, "{s} dislikes {o}", "{s} no longer dislikes {o}"),
    "USES": Style(_C.CONTEXT, 0.6, "{s} uses {o}", "{s} no longer uses {o}"),
    "USES_FRAMEWORK": Style(_C.CONTEXT, 0.65, "{s} uses {o}", "{s} no longer uses {o}"),
    "PROJECT_USES": Style(_C.CONTEXT, 0.7, "{s} uses {o}", "{s} no longer uses {o}"),
    "HOBBY": Style(_C.PREFERENCE, 0.5, "{s} enjoys {o} as a hobby", "{s} no longer does {o}"),
    "SKILLED_IN": Style(_C.SKILL, 0.6, "{s} is skilled in {o}", "{s} is not skilled in {o}"),
    "GOAL": Style(_C.GOAL, 0.6, "{s} wants to {o}", "{s} no longer wants to {o}"),
    "PLANS": Style(_C.EVENT, 0.55, "{s} is planning {a_o}", "{s} cancelled {a_o}"),
    "TRAVELS_TO": Style(_C.EVENT, 0.6, "{s} is travelling to {o}",
                        "{s} is no longer travelling to {o}"),
    "HAS_VISITED": Style(_C.EVENT, 0.4, "{s} visited {o}", "{s} did not visit {o}"),
    "ATTENDED": Style(_C.EVENT, 0.4, "{s} attended {a_o}", "{s} did not attend {a_o}"),
    "TODO": Style(_C.TODO, 0.7, "{s} needs to {o}", "{s} no longer needs to {o}"),
    "DRIVES": Style(_C.FACT, 0.6, "{s} drives {a_o}", "{s} no longer drives {a_o}"),
    "HAS_PHONE": Style(_C.FACT, 0.55, "{s} uses {a_o} as their phone",
                       "{s} no longer uses {a_o} as their phone"),
    "DIET": Style(_C.PREFERENCE, 0.7, "{s} follows {a_o} diet", "{s} no longer follows {a_o} diet"),
    "MAIN_LANGUAGE": Style(_C.SKILL, 0.65, "{s} mainly programs in {o}",
                           "{s} no longer mainly programs in {o}"),
    "PLAYS_SPORT": Style(_C.PREFERENCE, 0.6, "{s} does {o} as their sport",
                         "{s} no longer does {o}"),
    "REPORTS_TO": Style(_C.FACT, 0.7, "{s} reports to {o}", "{s} no longer reports to {o}"),
    "LESSON": Style(_C.LESSON, 0.85, "Lesson for {s}: {o}", "Lesson for {s} no longer holds: {o}"),
})
_FALLBACK = Style(_C.FACT, 0.5, "{s} {p} {o}", "{s} no longer {p} {o}")
_FAVORITE = Style(_C.PREFERENCE, 0.55, "{s's} favourite is {o}", "{s's} favourite is not {o}")
_NUMBER_WORDS = re.compile(r"^(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a|an|"
                           r"some|several|many|few)\b", re.IGNORECASE)
_EMPTY_RETRACT = MappingProxyType({
    "WORKS_AT": "{s} left their job", "MARRIED_TO": "{s} is no longer married",
    "LIVES_IN": "{s} moved away", "USES_FRAMEWORK": "{s} stopped using their framework",
    "DRIVES": "{s} no longer has a car", "HAS_PHONE": "{s} no longer has that phone",
    "DIET": "{s} no longer follows a special diet", "PLAYS_SPORT": "{s} does no sport any more",
    "REPORTS_TO": "{s} no longer has that manager", "HAS_PARTNER": "{s} is no longer with anyone",
    "MAIN_LANGUAGE": "{s} no longer has a main programming language",
    "JOB_TITLE": "{s} no longer has that job title"})


#: Predicates this extractor adds to the registry's vocabulary, with their cardinality.
#: ``FAVORITE_<THING>`` (``FAVORITE_BAND``, ``FAVORITE_BOOK``...) is functional too.
NEW_PREDICATES = MappingProxyType({
    "IS_FROM": Cardinality.ONE, "HAS_PARTNER": Cardinality.ONE,
    "ALLERGIC_TO": Cardinality.MANY, "LEARNING": Cardinality.MANY,
    "HAS_CONDITION": Cardinality.MANY})


def cardinality(predicate: str) -> Cardinality | None:
    """The cardinality to state for a predicate the default registry does not know."""
    if predicate.startswith("FAVORITE_"):
        return Cardinality.ONE
    return NEW_PREDICATES.get(predicate)


def style(predicate: str) -> Style:
    if predicate.startswith("FAVORITE"):
        return _FAVORITE
    return _STYLES.get(predicate, _FALLBACK)


def display(subject: str) -> str:
    """How a subject is written inside a sentence (:func:`_sentence` capitalises a first
    word): "Melanie is the user's sister", "The user lives in Berlin"."""
    if subject == SELF:
        return "the user"
    if subject.startswith(f"{SELF}'s "):  # an unnamed user's relative: "the user's dad"
        return "the user" + subject.removeprefix(SELF)
    if subject == "project":
        return "The project"
    return subject


def possessive(name: str) -> str:
    return f"{name}'s"


def with_article(obj: str) -> str:
    """"hiking trip" -> "a hiking trip"; names, plurals and counted phrases stay as they are."""
    if not obj or obj[:1].isupper() or _NUMBER_WORDS.match(obj):
        return obj
    last = obj.split()[-1]
    if last.endswith("s") and not last.endswith(("ss", "us", "is")):
        return obj
    return f"{'an' if obj[:1].lower() in 'aeiou' else 'a'} {obj}"


def statement(finding: Finding, span: TimeSpan | None, when: datetime | None = None) -> str:
    """One third-person sentence for the finding, with its time made absolute."""
    subject = display(finding.subject.name)
    spec = style(finding.predicate)
    if finding.statement is not None:
        template = finding.statement
    elif finding.action == "retract" and not finding.obj:
        template = _EMPTY_RETRACT.get(finding.predicate, "{s} no longer " +
                                      finding.predicate.lower().replace("_", " "))
    else:
        template = spec.asserted if finding.action == "assert" else spec.retracted
    text = _filled(template, subject, finding.predicate, finding.obj)
    phrase = _time_phrase(finding, span, when)
    return _sentence(f"{text} {phrase}" if phrase else text)


def stated(subject: str, predicate: str, obj: str) -> str:
    """A fact as the rules word it, without its time: ``stated("Omar", "JOB_TITLE",
    "chef")`` is "Omar works as a chef." (for a value typed in by hand)."""
    return _sentence(_filled(style(predicate).asserted, display(subject), predicate, obj))


def ended(subject: str, predicate: str, obj: str) -> str:
    """A fact's ending as the rules word it: ``ended("Omar", "JOB_TITLE", "chef")`` is
    "Omar no longer works as a chef." (the text of a retraction made from a fact)."""
    return _sentence(_filled(style(predicate).retracted, display(subject), predicate, obj))


def _filled(template: str, subject: str, predicate: str, obj: str) -> str:
    return (template.replace("{s's}", possessive(subject)).replace("{s}", subject)
            .replace("{a_o}", with_article(obj)).replace("{o}", obj)
            .replace("{p}", predicate.lower().replace("_", " ")))


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


#: States whose start, said as an event, reads as "since": "works at Etsy since May 2024".
_STATES_SINCE = frozenset({"WORKS_AT", "LIVES_IN", "JOB_TITLE"})


def _time_phrase(finding: Finding, span: TimeSpan | None, when: datetime | None) -> str:
    if span is None or finding.timing == "none":
        return ""
    if finding.timing == "span":
        return span.text  # "from 2015 to 2020"
    started = finding.timing == "event" and finding.predicate in _STATES_SINCE and \
        finding.action == "assert"  # "started at Etsy in February": works there since
    if (finding.timing == "start" or started) and finding.statement is None and \
            span.relation == "at":
        ahead = when is not None and span.start > when
        return ("from " if ahead else "since ") + span.describe().split(" ", 1)[1]
    if finding.timing == "due" and span.relation == "at" and span.granularity != "hour":
        return "by " + span.describe().split(" ", 1)[1]
    return span.describe()
