"""Entity focus: the people a question names, by full name or part of it."""

from __future__ import annotations

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import FactInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Entity, Scope
from graphmem.search.focus import find_focus, speaks_of_self, speaks_of_them, stranger_focus
from graphmem.store.base import GraphStore, TurnHit
from tests.ingest.helpers import ScriptedExtractor, day

TEAM = Scope(group_id="team")


def seed(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(tenant, [
        FactInput(scope=TEAM, subject="Maya Lee", predicate="WORKS_AT", object="Globex",
                  valid_from=day(1)),
        FactInput(scope=TEAM, subject="Diego Ruiz", predicate="WORKS_AT", object="Initech",
                  valid_from=day(1)),
        FactInput(scope=TEAM, subject="project", subject_type="project", predicate="USES",
                  object="Nuxt", valid_from=day(1)),
    ])


def test_a_given_name_finds_the_person(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    seed(store, embedder, tenant)
    focus = find_focus(store, tenant, TEAM.visible_keys, "Where does Maya work?")
    assert [e.name for e in focus.entities] == ["Maya Lee"]
    assert focus.blank("Where does Maya work? And Maya's boss?") == "Where does X work? And X's boss?"
    turn = TurnHit(episode_id="e", message_index=0, message_id=None, speaker="Maya Lee",
                   content="I love it there.", timestamp=None, score=1.0)
    assert focus.covers_turn(turn)
    assert not focus.covers_turn(turn.model_copy(update={"speaker": "Diego Ruiz"}))
    assert focus.covers_turn(turn.model_copy(update={"speaker": "Diego", "content": "Maya, hi!"}))


def test_things_and_unknown_names_are_no_focus(store: GraphStore, embedder: Embedder,
                                               tenant: str) -> None:
    seed(store, embedder, tenant)
    assert not find_focus(store, tenant, TEAM.visible_keys, "what does the project use")
    assert not find_focus(store, tenant, TEAM.visible_keys, "Where does Priya work?")


@pytest.mark.parametrize(("question", "names"), [
    ("Where does Priya work?", {"priya"}), ("Priya's job?", {"priya"}),
    ("Priya works where?", {"priya"}), ("Marco and Priya live where?", {"marco", "priya"}),
    # a request's first word is capitalised as a first word; pronouns name no one
    ("Recommend a place to live", set()), ("Any health problems?", set()),
    ("It's Priya's birthday, what does she like?", {"priya"}), ("Let's plan a trip", set()),
    ("Where does Maya Lee work?", set())])
def test_a_stranger_is_a_capitalised_name_no_one_known_has(question: str,
                                                          names: set[str]) -> None:
    maya = Entity(tenant="t", scope_key=TEAM.key, name="Maya Lee", type="person")
    assert set(stranger_focus(question, [maya]).names) == names


def test_the_user_and_their_kin_are_told_apart() -> None:
    # "my" before a kin word names the kin; any other first-person word names the user
    assert not speaks_of_self("Where does my sister work?")
    assert not speaks_of_self("Where does my boss live?")
    assert speaks_of_self("Can you suggest a dinner recipe for me and my partner?")
    assert speaks_of_self("What should I buy my sisters?")
    assert speaks_of_self("Where do I work?")


@pytest.mark.parametrize(("question", "expected"), [
    ("What is her job title?", True), ("Does she have pets?", True),
    ("Where does he live now?", True), ("Does Priya have pets, or does she?", False),
    ("Where does her sister live?", False), ("Where do I live?", False),
    ("Who likes jazz?", False),
])
def test_she_or_he_naming_no_one(question: str, expected: bool) -> None:
    assert speaks_of_them(question) is expected
