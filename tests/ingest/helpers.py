"""Small builders shared by the ingestion tests."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.extract.base import CandidateFact, ExtractedFact, Extraction
from graphmem.ingest.inputs import FactInput
from graphmem.models import Category, Episode, Scope

ALICE = Scope(user_id="alice")


def day(month: int, d: int = 1, year: int = 2024) -> datetime:
    return datetime(year, month, d, tzinfo=UTC)


def fact(predicate: str, obj: str, month: int, *, subject: str = "Alice",
         scope: Scope = ALICE, until: int | None = None, **kw: object) -> FactInput:
    fields: dict[str, object] = {"text": f"{subject} {predicate.lower()} {obj}.", **kw}
    return FactInput(scope=scope, subject=subject, predicate=predicate, object=obj,
                     valid_from=day(month), valid_until=day(until) if until else None,
                     **fields)  # type: ignore[arg-type]


class ScriptedExtractor:
    """Returns the facts it was given for each episode, by episode text.

    The rules under test here are the timeline rules, which run after any
    extractor; a scripted one keeps each test's input explicit.
    """

    name = "scripted"
    uses_candidates = False

    def __init__(self, script: dict[str, list[ExtractedFact]]) -> None:
        self.script = script

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        facts = self.script.get(episode.content.split(": ", 1)[-1], [])
        return Extraction(facts=facts)


def said(predicate: str, obj: str, *, action: str = "assert", subject: str = "Alice",
         category: Category = Category.FACT) -> ExtractedFact:
    return ExtractedFact(subject=subject, predicate=predicate, object=obj,
                         text=f"{subject} {predicate.lower()} {obj}.", action=action,  # type: ignore[arg-type]
                         category=category)
