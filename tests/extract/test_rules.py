"""RuleExtractor on the real spaCy model: product examples, each rule family, time, provenance."""

from __future__ import annotations

import json
import re
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.errors import ExtractionError
from graphmem.extract.base import SELF, CandidateFact, Extraction
from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.language import guess_language
from graphmem.models import Category, Episode, Message

REF = datetime(2024, 6, 12, 10, 0, tzinfo=UTC)  # a Wednesday
GOLD = Path(__file__).resolve().parents[1] / "data" / "extraction_gold.jsonl"

Triple = tuple[str, str, str, str]


@pytest.fixture(scope="module")
def extractor() -> RuleExtractor:
    rules = RuleExtractor()
    rules.load()
    return rules


def episode(*messages: Message, content: str = "") -> Episode:
    return Episode(tenant="t", scope_key="user:u", reference_time=REF, messages=list(messages),
                   source="messages" if messages else "text", content=content)


def run(extractor: RuleExtractor, text: str, speaker: str | None = "Alice") -> Extraction:
    return extractor.extract(episode(Message(id="m1", speaker=speaker, content=text)), [])


def triples(extraction: Extraction) -> set[Triple]:
    return {(f.subject, f.predicate, f.object, f.action) for f in extraction.facts}


# ---------------------------------------------------------------- the product's own examples

PRODUCT_EXAMPLES: list[tuple[str, str | None, set[Triple]]] = [
    ("I prefer TypeScript and a functional style.", "Alice",
     {("Alice", "PREFERS", "TypeScript", "assert"),
      ("Alice", "PREFERS", "functional style", "assert")}),
    ("I favour composition over inheritance.", "Alice",
     {("Alice", "PREFERS", "composition", "assert")}),
    ("The Docker build failed because of the network; use proxy-env.", "Alice",
     {("Docker", "LESSON", "use proxy-env", "assert")}),
    ("The project uses Nuxt 4 with SQLite and Drizzle ORM.", "Alice",
     {("project", "PROJECT_USES", "Nuxt 4", "assert"),
      ("project", "PROJECT_USES", "SQLite", "assert"),
      ("project", "PROJECT_USES", "Drizzle ORM", "assert")}),
    ("I have a business trip to Tokyo next week.", "Alice",
     {("Alice", "TRAVELS_TO", "Tokyo", "assert")}),
    ("We switched from Vue 3 to React last month.", "Alice",
     {("Alice", "USES_FRAMEWORK", "React", "assert")}),
    ("Don't call me Xiao Wang, call me Wang Zong.", "Wang Wei",
     {("Wang Wei", "PREFERRED_NAME", "Xiao Wang", "retract"),
      ("Wang Wei", "PREFERRED_NAME", "Wang Zong", "assert")}),
    ("I cancelled the hiking trip next week.", "Alice",
     {("Alice", "PLANS", "hiking trip", "retract")}),
]


@pytest.mark.parametrize(("text", "speaker", "expected"), PRODUCT_EXAMPLES)
def test_product_examples(extractor: RuleExtractor, text: str, speaker: str | None,
                          expected: set[Triple]) -> None:
    assert triples(run(extractor, text, speaker)) == expected


# ---------------------------------------------------------------- one table row per rule family

FAMILIES: list[tuple[str, str, Triple]] = [
    # preferences and dislikes; a negated liking is a dislike
    ("likes", "I enjoy reading sci-fi novels.", ("Bob", "LIKES", "reading sci-fi novels", "assert")),
    ("loves", "I love hiking.", ("Bob", "LOVES", "hiking", "assert")),
    ("hates", "I hate mornings.", ("Bob", "DISLIKES", "mornings", "assert")),
    ("negated like", "I don't like coffee.", ("Bob", "DISLIKES", "coffee", "assert")),
    ("can't stand", "I can't stand loud restaurants.",
     ("Bob", "DISLIKES", "loud restaurants", "assert")),
    ("fan of", "I'm a huge fan of jazz.", ("Bob", "LIKES", "jazz", "assert")),
    ("favourite", "My favourite band is Coldplay.", ("Bob", "FAVORITE_BAND", "Coldplay", "assert")),
    ("rather", "I'd rather use Postgres than MongoDB.", ("Bob", "PREFERS", "PostgreSQL", "assert")),
    # tools, switches, stopping
    ("uses", "I mostly code in Python and TypeScript.", ("Bob", "USES", "Python", "assert")),
    ("framework", "I've been using Django for five years.",
     ("Bob", "USES_FRAMEWORK", "Django", "assert")),
    ("switch multi", "I switched from Vim to VS Code.", ("Bob", "USES", "Vim", "retract")),
    ("stopped using", "I stopped using Jira.", ("Bob", "USES", "Jira", "retract")),
    ("anymore", "I don't use Vue anymore.", ("Bob", "USES_FRAMEWORK", "Vue", "retract")),
    ("project stack", "Our backend is written in Go.", ("project", "PROJECT_USES", "Go", "assert")),
    # work
    ("works at", "I work at Acme as a data engineer.", ("Bob", "WORKS_AT", "Acme", "assert")),
    ("job title", "I work at Acme as a data engineer.",
     ("Bob", "JOB_TITLE", "data engineer", "assert")),
    ("joined", "I just joined Google.", ("Bob", "WORKS_AT", "Google", "assert")),
    ("quit", "I quit Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("third person work", "Alice works at Acme.", ("Alice", "WORKS_AT", "Acme", "assert")),
    # home
    ("moved", "I moved to Berlin two years ago.", ("Bob", "LIVES_IN", "Berlin", "assert")),
    ("third person move", "Caroline moved to Boston last summer.",
     ("Caroline", "LIVES_IN", "Boston", "assert")),
    ("from", "I'm originally from Sweden.", ("Bob", "IS_FROM", "Sweden", "assert")),
    # people
    ("sister", "My sister Anna lives in Paris.", ("Bob", "HAS_SISTER", "Anna", "assert")),
    ("sister's home", "My sister Anna lives in Paris.", ("Anna", "LIVES_IN", "Paris", "assert")),
    ("married", "I'm married to Tom.", ("Bob", "MARRIED_TO", "Tom", "assert")),
    ("friend", "My friend Jake is a nurse.", ("Bob", "HAS_FRIEND", "Jake", "assert")),
    ("kids", "Melanie has two kids.", ("Melanie", "HAS_CHILD", "two kids", "assert")),
    # possessions and pets
    ("pet", "I have a dog named Max.", ("Bob", "HAS_PET", "Max", "assert")),
    ("bought", "I bought a Tesla last week.", ("Bob", "DRIVES", "Tesla", "assert")),
    ("sold", "I sold my old car.", ("Bob", "OWNS", "car", "retract")),
    # hobbies, skills, goals
    ("hobby", "I play the guitar in my free time.", ("Bob", "HOBBY", "guitar", "assert")),
    ("my hobby", "My hobby is painting.", ("Bob", "HOBBY", "painting", "assert")),
    ("skill", "I'm good at Python.", ("Bob", "SKILLED_IN", "Python", "assert")),
    ("learning", "I'm learning Spanish.", ("Bob", "LEARNING", "Spanish", "assert")),
    ("goal", "I want to learn Rust.", ("Bob", "GOAL", "learn Rust", "assert")),
    ("would love", "I'd love to visit Japan someday.", ("Bob", "GOAL", "visit Japan", "assert")),
    # events and plans
    ("attended", "I went to a pottery class yesterday.",
     ("Bob", "ATTENDED", "pottery class", "assert")),
    ("visited", "I visited Rome last year.", ("Bob", "HAS_VISITED", "Rome", "assert")),
    ("plans", "I'm planning a hiking trip next week.", ("Bob", "PLANS", "hiking trip", "assert")),
    ("cancelled trip", "I cancelled my trip to Paris.", ("Bob", "TRAVELS_TO", "Paris", "retract")),
    # todos
    ("remind me", "Remind me to call mom tomorrow.", ("Bob", "TODO", "call mom", "assert")),
    ("deadline", "I need to send the report by Friday.",
     ("Bob", "TODO", "send the report", "assert")),
    # names and age
    ("my name", "My name is Priya.", ("Bob", "IS_NAMED", "Priya", "assert")),
    ("call me", "Everyone calls me Bobby.", ("Bob", "PREFERRED_NAME", "Bobby", "assert")),
    ("age", "I'm 34 years old.", ("Bob", "AGE", "34", "assert")),
    ("allergy", "I'm allergic to peanuts.", ("Bob", "ALLERGIC_TO", "peanuts", "assert")),
    ("call me instead", "Please don't call me Robert, just Bob.",
     ("Bob", "PREFERRED_NAME", "Bob", "assert")),
    ("moved off", "We moved off Heroku to Vercel.", ("Bob", "USES", "Heroku", "retract")),
    ("team tools", "My team switched to Linear from Jira.", ("Bob", "USES", "Jira", "retract")),
    ("project verbs", "The service caches sessions in Redis.",
     ("project", "PROJECT_USES", "Redis", "assert")),
    ("named thing", "I work for a startup called Ramp.", ("Bob", "WORKS_AT", "Ramp", "assert")),
    ("quoted title", 'I loved "Becoming Nicole" by Amy Ellis Nutt.',
     ("Bob", "LOVES", "Becoming Nicole", "assert")),
    ("someone's kin", "Emma's brother Jack lives in Glasgow.",
     ("Emma", "HAS_BROTHER", "Jack", "assert")),
    ("back from", "I just got back from a week in Lisbon.",
     ("Bob", "HAS_VISITED", "Lisbon", "assert")),
    ("purpose", "I quit my job at the bank to start my own company.",
     ("Bob", "GOAL", "start company", "assert")),
]


@pytest.mark.parametrize(("family", "text", "expected"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_rule_families(extractor: RuleExtractor, family: str, text: str, expected: Triple) -> None:
    assert expected in triples(run(extractor, text, "Bob"))


NO_FACTS = [
    "Hey Mel! How have you been?", "That sounds amazing!", "Thanks so much, see you later!",
    "Do you like coffee?", "You should try React.", "If I moved to Berlin, I would learn German.",
    "I love it!", "I think so too.", "I'm feeling a bit overwhelmed with everything lately.",
    "Take care and talk soon!", "Keep at it and don't give up!", "I have a question about the API.",
    "They motivate me and remind me why I'm doing this.", "I love his paintings.",
    "Whenever I run out of things to watch, I call you.",
    "My sister is getting married in October.", "I'm no writer like you.",
    "I love the thought, Nate!", "I'd love to join in!", "Don't forget to bring the tent!",
]


@pytest.mark.parametrize("text", NO_FACTS)
def test_small_talk_states_nothing(extractor: RuleExtractor, text: str) -> None:
    assert run(extractor, text).facts == []


# ---------------------------------------------------------------- time, wording and scores


def fact(extraction: Extraction, predicate: str):  # type: ignore[no-untyped-def]
    found = [f for f in extraction.facts if f.predicate == predicate]
    assert len(found) == 1, extraction.facts
    return found[0]


def test_trip_next_week_is_an_event_in_that_week(extractor: RuleExtractor) -> None:
    trip = fact(run(extractor, "I have a business trip to Tokyo next week."), "TRAVELS_TO")
    assert trip.category is Category.EVENT
    assert trip.valid_from == datetime(2024, 6, 17, tzinfo=UTC)
    assert trip.valid_until == datetime(2024, 6, 24, tzinfo=UTC)
    assert trip.text == "Alice has a business trip to Tokyo in the week of 17 June 2024."


def test_switch_starts_at_the_stated_time(extractor: RuleExtractor) -> None:
    react = fact(run(extractor, "We switched from Vue 3 to React last month."), "USES_FRAMEWORK")
    assert react.valid_from == datetime(2024, 5, 1, tzinfo=UTC)
    assert react.text == "Alice switched from Vue 3 to React in May 2024."


def test_switch_of_a_multi_valued_tool_retracts_the_old_one(extractor: RuleExtractor) -> None:
    got = triples(run(extractor, "I switched from Vim to VS Code."))
    assert got == {("Alice", "USES", "Vim", "retract"), ("Alice", "USES", "VS Code", "assert")}


def test_todo_due_date_goes_to_valid_until(extractor: RuleExtractor) -> None:
    todo = fact(run(extractor, "I need to send the report by Friday."), "TODO")
    assert todo.category is Category.TODO
    assert todo.valid_from == REF
    assert todo.valid_until == datetime(2024, 6, 15, tzinfo=UTC)
    assert todo.text == "Alice needs to send the report by 14 June 2024."


def test_move_in_the_past_sets_valid_from(extractor: RuleExtractor) -> None:
    lives = fact(run(extractor, "I moved to Berlin two years ago."), "LIVES_IN")
    assert lives.valid_from == datetime(2022, 1, 1, tzinfo=UTC)
    assert lives.text == "Alice moved to Berlin in 2022."


def test_without_a_time_the_message_timestamp_is_used(extractor: RuleExtractor) -> None:
    at = datetime(2024, 6, 1, 8, tzinfo=UTC)
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Alice", content="I live in Seattle.", timestamp=at)), [])
    assert fact(extraction, "LIVES_IN").valid_from == at


def test_lesson_keeps_the_advice(extractor: RuleExtractor) -> None:
    lesson = fact(run(extractor, "The Docker build failed because of the network; use proxy-env."),
                  "LESSON")
    assert lesson.category is Category.LESSON
    assert lesson.importance >= 0.8
    assert "use proxy-env" in lesson.text and lesson.text.startswith("Lesson for Docker:")


def test_categories_and_importance(extractor: RuleExtractor) -> None:
    work = fact(run(extractor, "I work at Acme."), "WORKS_AT")
    hobby = fact(run(extractor, "I love hiking."), "LOVES")
    goal = fact(run(extractor, "I want to learn Rust."), "GOAL")
    skill = fact(run(extractor, "I'm good at Python."), "SKILLED_IN")
    assert work.category is Category.FACT and hobby.category is Category.PREFERENCE
    assert goal.category is Category.GOAL and skill.category is Category.SKILL
    assert work.importance > hobby.importance


def test_hedging_lowers_confidence(extractor: RuleExtractor) -> None:
    sure = fact(run(extractor, "I'm moving to Denver next month."), "LIVES_IN")
    hedged = fact(run(extractor, "I think I might move to Denver."), "PLANS")
    assert hedged.confidence < sure.confidence
    assert hedged.object == "move to Denver"


def test_texts_are_third_person_sentences(extractor: RuleExtractor) -> None:
    extraction = run(extractor, "I prefer TypeScript and a functional style. My sister Anna lives "
                                "in Paris. I'm allergic to peanuts.")
    for f in extraction.facts:
        assert f.text.endswith(".") and f.text[0].isupper()
        assert not re.search(r"\b(I|my|me)\b", f.text), f.text


def test_entities_have_types(extractor: RuleExtractor) -> None:
    extraction = run(extractor, "I moved to Berlin and I use Kubernetes. My sister Anna is a nurse.")
    types = {e.name: e.type for e in extraction.entities}
    assert types["Alice"] == "person" and types["Anna"] == "person"
    assert types["Berlin"] == "place" and types["Kubernetes"] == "technology"


# ---------------------------------------------------------------- speakers and provenance


def test_message_ids_and_speakers(extractor: RuleExtractor) -> None:
    extraction = extractor.extract(episode(
        Message(id="a1", speaker="Caroline", content="I went to a support group yesterday."),
        Message(id="b1", speaker="Melanie", content="I'm swamped. I have two kids and a dog."),
        Message(id="a2", speaker="Caroline", content="I love painting."),
    ), [])
    by_message = {(f.message_id, f.subject, f.predicate) for f in extraction.facts}
    assert ("a1", "Caroline", "ATTENDED") in by_message
    assert ("b1", "Melanie", "HAS_CHILD") in by_message
    assert ("a2", "Caroline", "LOVES") in by_message


def test_unknown_speaker_is_self(extractor: RuleExtractor) -> None:
    assert ("SELF", "LIVES_IN", "Seattle", "assert") in triples(
        run(extractor, "I live in Seattle.", speaker=None))
    assert SELF == "SELF"


def test_assistant_first_person_is_not_the_user(extractor: RuleExtractor) -> None:
    extraction = extractor.extract(episode(
        Message(id="u", role="user", content="Which editor should I use?"),
        Message(id="a", role="assistant", content="I love Neovim, and I live in the cloud."),
    ), [])
    assert extraction.facts == []


def test_text_episode(extractor: RuleExtractor) -> None:
    extraction = extractor.extract(episode(content="I work at Acme. I have a cat named Luna."), [])
    assert {("SELF", "WORKS_AT", "Acme", "assert"),
            ("SELF", "HAS_PET", "Luna", "assert")} <= triples(extraction)
    assert all(f.message_id is None for f in extraction.facts)


def test_empty_episode(extractor: RuleExtractor) -> None:
    assert extractor.extract(episode(), []) == Extraction()
    assert extractor.extract(episode(content="   "), []) == Extraction()


def test_candidates_name_what_a_bare_retraction_ends(extractor: RuleExtractor) -> None:
    candidate = CandidateFact(id="fact_1", text="Alice works at Acme.", subject="Alice",
                              predicate="WORKS_AT", object="Acme", valid_from=REF)
    extraction = extractor.extract(
        episode(Message(id="m", speaker="Alice", content="I quit my job last week.")), [candidate])
    retract = fact(extraction, "WORKS_AT")
    assert (retract.action, retract.object) == ("retract", "Acme")
    # a departure "last week" is dated by the sentence, at the end of that week: the
    # person still worked there during it (see rules._interval)
    assert retract.valid_from == datetime(2024, 6, 10, tzinfo=UTC)


# ---------------------------------------------------------------- language


@pytest.mark.parametrize(("text", "language"), [
    ("我今天很开心，我们明天去公园散步吧", "zh"),
    ("今日はとても楽しかったです、ありがとう", "ja"),
    ("Ich habe heute keine Zeit, weil ich arbeiten muss.", "de"),
    ("Hola, me llamo Juan y vivo en Madrid con mi familia.", "es"),
    ("Привет, как дела? Я живу в Москве.", "ru"),
])
def test_non_english_episode_has_no_facts(extractor: RuleExtractor, text: str,
                                          language: str) -> None:
    extraction = run(extractor, text)
    assert extraction.language == language
    assert extraction.facts == [] and extraction.entities == []
    assert extraction.warnings == [
        f"1 non-English message(s) ({language}) stored without rule extraction"]


@pytest.mark.parametrize("text", ["I love hiking!", "ok", "Café au lait is my favourite drink.",
                                  "We moved to São Paulo last year."])
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


# ---------------------------------------------------------------- loading and the gate


def test_missing_model_is_an_extraction_error() -> None:
    broken = RuleExtractor(model="no_such_spacy_model")
    with pytest.raises(ExtractionError, match="not installed"):
        broken.extract(episode(Message(id="m", content="I love hiking.")), [])


def test_pipeline_loads_once_across_threads() -> None:
    rules = RuleExtractor()
    loaded = []
    threads = [threading.Thread(target=lambda: loaded.append(rules.load())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(nlp) for nlp in loaded}) == 1


def gold_rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in GOLD.read_text().splitlines() if line.strip()]


def test_gold_set_shape() -> None:
    rows = gold_rows()
    assert len(rows) >= 100
    assert sum(r["split"] == "test" for r in rows) >= 0.2 * len(rows)
    assert sum(not r["facts"] for r in rows) >= 20
    for r in rows:
        for f in r["facts"]:  # type: ignore[attr-defined]
            assert set(f) - {"valid_from"} == {"subject", "predicate", "object", "action"}
            assert re.match(r"^[A-Z][A-Z0-9_]*$", f["predicate"])


def test_gate_changes_nothing_on_the_gold_set(extractor: RuleExtractor) -> None:
    """Skipping sentences before parsing is an optimisation only."""
    ungated = RuleExtractor(prefilter=False)
    for r in gold_rows():
        ep = episode(Message(id="m", speaker=r["speaker"], content=str(r["text"])))  # type: ignore[arg-type]
        assert triples(extractor.extract(ep, [])) == triples(ungated.extract(ep, [])), r["text"]


def test_gold_set_quality_floor(extractor: RuleExtractor) -> None:
    """Exact-match floor, well under the measured figures, to catch regressions."""
    tp = fp = fn = 0
    for r in gold_rows():
        got = triples(run(extractor, str(r["text"]), r["speaker"]))  # type: ignore[arg-type]
        want = {(f["subject"], f["predicate"], f["object"], f["action"])
                for f in r["facts"]}  # type: ignore[attr-defined]
        tp += len(got & want)
        fp += len(got - want)
        fn += len(want - got)
    assert tp / (tp + fp) >= 0.85 and tp / (tp + fn) >= 0.8
