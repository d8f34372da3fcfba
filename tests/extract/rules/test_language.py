"""Language is decided per message (and per sentence), never for the whole episode."""

from __future__ import annotations

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import said


def test_a_chinese_line_does_not_cost_the_english_todo(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "我今天很开心，我们明天去公园散步吧",
                      "Remind me to call mom on Friday.")
    todos = [f for f in extraction.facts if f.predicate == "TODO"]
    assert [t.object for t in todos] == ["call mom"] and todos[0].message_id == "m1"
    assert extraction.language == "en"
    assert extraction.warnings == ["1 non-English message(s) (zh) stored without rule extraction"]


def test_mostly_chinese_episode_keeps_its_english_line(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "我今天很开心", "明天去公园散步吧", "我们一起吃饭吧",
                      "I live in Seattle.")
    assert {(f.predicate, f.object) for f in extraction.facts} == {("LIVES_IN", "Seattle")}


def test_english_sentence_in_a_mixed_message_is_read(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "我今天很开心。 I work at Siemens.")
    assert {(f.predicate, f.object) for f in extraction.facts} == {("WORKS_AT", "Siemens")}


def test_an_all_chinese_episode_reports_its_language(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "我今天很开心，我们明天去公园散步吧")
    assert extraction.facts == [] and extraction.language == "zh"
