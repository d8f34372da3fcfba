"""Language is decided per message (and per sentence), never for the whole episode."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.language import guess_language
from graphmem.models import Message
from tests.extract.rules.conftest import episode, said


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


@pytest.mark.parametrize(("text", "language"), [
    ("我今天很开心，我们明天去公园散步吧", "zh"),
    ("今日はとても楽しかったです、ありがとう", "ja"),
    ("Ich habe heute keine Zeit, weil ich arbeiten muss.", "de"),
    ("Hola, me llamo Juan y vivo en Madrid con mi familia.", "es"),
    ("Eu estou muito feliz com você e com a minha família.", "pt"),
    ("Привет, как дела? Я живу в Москве.", "ru"),
])
def test_non_english_episode_has_no_facts(extractor: RuleExtractor, text: str,
                                          language: str) -> None:
    extraction = said(extractor, text, speaker="Alice")
    assert extraction.language == language
    assert extraction.facts == [] and extraction.entities == []
    assert extraction.warnings == [
        f"1 non-English message(s) ({language}) stored without rule extraction"]


@pytest.mark.parametrize("text", ["I love hiking!", "ok", "Café au lait is my favourite drink.",
                                  "We moved to São Paulo last year.",
                                  # "as" and "a" are Portuguese stopwords too
                                  "starting there as a test automation engineer",
                                  "as a matter of fact, a role as a tester"])
def test_english_is_english(text: str) -> None:
    assert guess_language(text) == "en"


def test_a_foreign_message_in_an_english_episode_is_skipped(extractor: RuleExtractor) -> None:
    extraction = extractor.extract(episode(
        Message(id="1", speaker="Alice", content="I live in Seattle and I love hiking a lot."),
        Message(id="2", speaker="Bob", content="Ich wohne in Berlin und ich arbeite bei Siemens."),
        Message(id="3", speaker="Alice", content="My sister Anna is a nurse in Portland."),
    ), [])
    assert {f.message_id for f in extraction.facts} == {"1", "3"}
    assert extraction.warnings == ["1 non-English message(s) (de) stored without rule extraction"]


def test_a_telling_sentence_that_ends_in_a_question_is_read_without_it(
        extractor: RuleExtractor) -> None:
    found = {(f.subject, f.predicate, f.object) for f in said(
        extractor, "my girlfriend Siobhan and I are planning a weekend in the Lakes, "
        "any walking routes you'd recommend?", speaker="Alice").facts}
    assert ("Alice", "HAS_PARTNER", "Siobhan") in found
    assert not {f for f in found if f[1] == "PLANS" and "routes" in f[2]}
    assert said(extractor, "Do you live in Paris?", speaker="Alice").facts == []
