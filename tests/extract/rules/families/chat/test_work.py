"""Work said in chat shorthand: employer, title and manager (families.chat.work)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


def test_a_title_said_without_a_verb(extractor: RuleExtractor) -> None:
    assert ("Bob", "JOB_TITLE", "data scientist", "assert") in triples(
        said(extractor, "officially a data scientist now, the new title kicked in on Monday"))
    assert ("Bob", "JOB_TITLE", "head of data", "assert") in triples(
        said(extractor, "they made me head of data! team of six"))
    for text in ("finally a homeowner now", "that made me happy", "they made me an offer"):
        assert not {t for t in triples(said(extractor, text)) if t[1] == "JOB_TITLE"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Infosys and I parted ways; I'm not employed at the moment.",
     ("Bob", "WORKS_AT", "Infosys", "retract")),
])
def test_an_employer_parted_with_in_shorthand(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Currently managed by Grace Kim — great mentor, honestly.",
     ("Bob", "REPORTS_TO", "Grace Kim", "assert")),
    ("The person I report to is Anneke de Vries.",
     ("Bob", "REPORTS_TO", "Anneke de Vries", "assert")),
])
def test_a_manager_said_in_passing(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_parting_ways_ends_a_job_only_when_a_job_is_spoken_of(extractor: RuleExtractor) -> None:
    assert ("Bob", "WORKS_AT", "Globex", "retract") in triples(
        said(extractor, "I parted ways with Globex, job hunting now."))
    assert not {t for t in triples(said(extractor, "Tom and I parted ways last month."))
                if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Vantor Labs made me an offer too good to pass up, so I took it. first week done",
     ("Bob", "WORKS_AT", "Vantor Labs", "assert")),
    ("accepted the offer from Pellucid!", ("Bob", "WORKS_AT", "Pellucid", "assert")),
    ("just signed with Norrvik Energy, first day was today", ("Bob", "WORKS_AT", "Norrvik Energy",
                                                               "assert")),
    ("I'm on the payroll at Norrvik Energy now, finally",
     ("Bob", "WORKS_AT", "Norrvik Energy", "assert")),
    ("Officially an employee of Norrvik Energy since Monday",
     ("Bob", "WORKS_AT", "Norrvik Energy", "assert")),
    ("not under Ottilie anymore, contracting now", ("Bob", "REPORTS_TO", "Ottilie", "retract")),
    # the title signed as says the job began
    ("finally signed with Marlow Audio as a sound engineer!!", ("Bob", "JOB_TITLE",
                                                                "sound engineer", "assert")),
    ("finally signed with Marlow Audio as a sound engineer!!", ("Bob", "WORKS_AT",
                                                                "Marlow Audio", "assert")),
])
def test_jobs_and_bosses_said_in_chat(extractor: RuleExtractor, text: str,
                                      expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Vantor Labs made me an offer but I turned it down",
                                  "my sister is an employee of Norrvik Energy",
                                  "my cousin signed with Norrvik Energy, first day on monday",
                                  "we signed with Norrvik Energy for our electricity",
                                  "signed with Norrvik Energy as a customer last year"])
def test_an_offer_declined_or_someone_elses_job_is_no_employer(extractor: RuleExtractor,
                                                               text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "expected"), [
    ("signed with Ledgerline!!! starting in march", ("Bob", "WORKS_AT", "Ledgerline", "assert")),
])
def test_a_job_signed_ahead(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Deloitte is where I work, in case that matters for the advice",
     ("Bob", "WORKS_AT", "Deloitte", "assert")),
    ("So Halcyon Health is where I'm employed now.",
     ("Bob", "WORKS_AT", "Halcyon Health", "assert")),
    ("Tessellate. That's where I work now, signed and everything.",
     ("Bob", "WORKS_AT", "Tessellate", "assert")),  # the firm said alone, then pointed at
    ("Quillfeather! This is where I work.", ("Bob", "WORKS_AT", "Quillfeather", "assert")),
    ("Norrow Labs. That's where I work these days.",
     ("Bob", "WORKS_AT", "Norrow Labs", "assert")),  # no other word of work lets it through
])
def test_a_firm_said_to_be_where_one_works(extractor: RuleExtractor, text: str,
                                          expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
    assert not {t for t in triples(said(extractor, "The library is where I work best."))
                if t[1] == "WORKS_AT"}
    assert ("Bob", "WORKS_AT", "That", "assert") not in triples(
        said(extractor, "Deloitte! That is where I work."))
