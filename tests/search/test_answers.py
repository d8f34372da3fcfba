"""What recall answers, end to end on both stores, with the rules extractor: whose facts
answer a question, which turns still speak, and the latest word on a slot.

Each case is one a new user met through ``POST /v1/memories/search`` (``limit: 3``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.manage.edits import forget_fact
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.search.context import ContextRequest
from graphmem.search.models import SearchHit, SearchRequest
from graphmem.store.base import GraphStore

NOW = datetime(2025, 6, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def extractor() -> Extractor:
    from graphmem.extract.rules import RuleExtractor

    return RuleExtractor()


@pytest.fixture
def memory(store: GraphStore, embedder: Embedder, extractor: Extractor) -> Iterator[Memory]:
    memory = Memory(store, extractor, embedder, clock=lambda: NOW)  # the fixture owns the store
    yield memory
    memory.engine.close()


def say(memory: Memory, tenant: str, user: str, when: str, text: str) -> None:
    memory.add_episode(tenant, EpisodeInput(scope=Scope(user_id=user), messages=[
        Message(speaker=user.capitalize(), content=text,
                timestamp=datetime.fromisoformat(when).replace(tzinfo=UTC))]))


def ask(memory: Memory, tenant: str, user: str, query: str, limit: int = 3,
        **view: object) -> list[SearchHit]:
    request = SearchRequest(scope=Scope(user_id=user), query=query, limit=limit, **view)  # type: ignore[arg-type]
    return memory.search(tenant, request).results


def texts(hits: list[SearchHit]) -> list[str]:
    return [h.text for h in hits]


def noah(memory: Memory, tenant: str) -> None:
    say(memory, tenant, "noah", "2024-03-01T10:00:00",
        "My sister Ana works at Google. My boss John lives in Paris. My wife Sara drives a Volvo.")


def test_first_person_questions_are_about_the_user(memory: Memory, tenant: str) -> None:
    noah(memory, tenant)
    for question, theirs in [("Where do I work?", "Google"), ("What car do I drive?", "Volvo"),
                             ("Who do I work for?", "Google"), ("What is my car?", "Volvo")]:
        assert not any(theirs in t for t in texts(ask(memory, tenant, "noah", question))), question
    # "my sister" is someone else, the one the user's facts name so: her job answers
    say(memory, tenant, "noah", "2024-03-15T10:00:00", "I work as a nurse at Initech.")
    assert texts(ask(memory, tenant, "noah", "Where does my sister work?"))[0] == \
        "Ana works at Google."
    assert texts(ask(memory, tenant, "noah", "What car does my wife drive?"))[0] == \
        "Sara drives Volvo."
    say(memory, tenant, "noah", "2024-04-01T10:00:00", "I work at Initech.")
    [first, *_] = ask(memory, tenant, "noah", "Where do I work?")
    assert first.text == "Noah works at Initech." and first.channels["slot"] == 1


def test_a_person_the_scope_does_not_know_is_answered_by_no_one_else(memory: Memory,
                                                                     tenant: str) -> None:
    noah(memory, tenant)
    # nothing answers for the slot; weaker results (Noah's family) may stay
    for question, slot, theirs in [("Where does Maya work?", "WORKS_AT", "Google"),
                                   ("Who does Maya work for?", "WORKS_AT", "Google"),
                                   ("What car does Priya drive?", "DRIVES", "Volvo")]:
        found = ask(memory, tenant, "noah", question)
        assert not any(h.predicate == slot or theirs in h.text for h in found), (question, found)
    assert texts(ask(memory, tenant, "noah", "Where does Ana work?"))[0] == "Ana works at Google."


def test_what_others_said_gives_way_to_a_slot_asked_of_a_stranger(memory: Memory,
                                                                  tenant: str) -> None:
    noah(memory, tenant)
    say(memory, tenant, "noah", "2024-03-02T10:00:00", "I love hiking in the Alps with Rex.")
    # about Maya, whom the scope does not know: nothing said of anyone else answers...
    for question in ("Where does Maya work?", "What car does Maya drive?"):
        assert not [h for h in ask(memory, tenant, "noah", question) if h.kind == "fact"], \
            question
    # ...while a request for advice names no one, and the scope's facts serve it
    assert "Sara drives Volvo." in texts(ask(memory, tenant, "noah", "Recommend a car to drive",
                                             limit=10))


def test_a_forgotten_fact_takes_its_turns_answer_with_it(memory: Memory, tenant: str) -> None:
    say(memory, tenant, "kai", "2024-03-01T10:00:00", "I live in Madrid and I drive a Fiat Panda.")
    say(memory, tenant, "kai", "2024-03-02T10:00:00", "I work at Initech.")
    [car] = [h for h in ask(memory, tenant, "kai", "What car does Kai drive?") if h.kind == "fact"
             and h.predicate == "DRIVES"]
    [job] = [h for h in ask(memory, tenant, "kai", "Where does Kai work?") if h.kind == "fact"
             and h.predicate == "WORKS_AT"]
    forget_fact(memory, tenant, car.id, Scope(user_id="kai"))
    forget_fact(memory, tenant, job.id, Scope(user_id="kai"))
    for question in ("What car does Kai drive?", "What car do I drive?"):
        found = ask(memory, tenant, "kai", question)
        assert not any("Panda" in t for t in texts(found)), question
        # nor does the turn lend its rank to the fact drawn beside it ("Kai lives in Madrid.")
        assert not any("turns" in h.channels for h in found), (question, found)
    # a turn whose every fact was forgotten is gone from every view
    for view in ({}, {"include_history": True}):
        found = texts(ask(memory, tenant, "kai", "Initech", **view))
        assert not any("Initech" in t for t in found), (view, found)
    # the turn's other fact still answers for itself
    assert "Kai lives in Madrid." in texts(ask(memory, tenant, "kai", "Where does Kai live?"))


def test_the_latest_word_on_a_slot_answers_even_a_retraction(memory: Memory, tenant: str) -> None:
    say(memory, tenant, "maya", "2023-01-10T10:00:00", "I'm vegan.")
    say(memory, tenant, "maya", "2023-02-10T10:00:00", "I'm dating Tom.")
    say(memory, tenant, "maya", "2024-01-10T10:00:00", "I'm not vegan anymore, I eat fish now.")
    say(memory, tenant, "maya", "2024-02-10T10:00:00", "Tom and I broke up.")
    [diet, *_] = ask(memory, tenant, "maya", "Is Maya vegan?")
    assert diet.text == "Maya no longer follows a vegan diet." and diet.retraction
    assert diet.channels == {"slot": 1} and not diet.superseded
    [dating, *_] = ask(memory, tenant, "maya", "Who is Maya dating?")
    assert dating.text == "Maya is no longer with anyone." and dating.retraction
    # a question for the current value is not answered by a former one
    assert not any("vegan" in t for t in texts(ask(memory, tenant, "maya",
                                                   "What diet does Maya follow?")))
    # before the retraction, the value held
    [then, *_] = ask(memory, tenant, "maya", "Is Maya vegan?", as_of=datetime(2023, 6, 1, tzinfo=UTC))
    assert then.text == "Maya follows a vegan diet." and not then.retraction


def test_a_retracted_value_the_question_names_is_answered_by_its_retraction(
        memory: Memory, tenant: str) -> None:
    """No slot asks "Do I drink coffee?", yet after "I don't drink coffee anymore" the latest
    word on coffee is that retraction: the turn that said so is stale and the fact it ended
    is history, so without it nothing answers (an assistant would suggest a coffee shop)."""
    say(memory, tenant, "ravi", "2024-02-01T09:00:00", "Hi, I'm Ravi. I drink coffee every morning.")
    say(memory, tenant, "ravi", "2024-05-01T09:00:00", "I don't drink coffee anymore.")
    [now, *_] = ask(memory, tenant, "ravi", "Do I drink coffee?")
    assert now.retraction and "no longer" in now.text and "coffee" in now.text
    # before it was said, the value held and nothing retracted it
    then = ask(memory, tenant, "ravi", "Do I drink coffee?", as_of=datetime(2024, 3, 1, tzinfo=UTC))
    assert then and not any(h.retraction for h in then)
    assert "Ravi drinks coffee." in texts(then)
    # a question that does not name the value is not answered by a former one
    assert not any(h.retraction for h in ask(memory, tenant, "ravi", "What does Ravi drink?"))
    # said again, the value holds: the retraction no longer answers
    say(memory, tenant, "ravi", "2024-08-01T09:00:00", "I drink coffee again.")
    assert not any(h.retraction for h in ask(memory, tenant, "ravi", "Do I drink coffee?"))


def test_a_replacement_answers_before_the_retraction_it_came_with(memory: Memory,
                                                                  tenant: str) -> None:
    say(memory, tenant, "bob", "2021-04-04T10:00:00", "I love coffee.")
    say(memory, tenant, "bob", "2022-04-04T10:00:00", "I prefer tea now; I gave up coffee.")
    found = ask(memory, tenant, "bob", "Does Bob drink coffee?")
    assert "tea" in found[0].text and not found[0].retraction
    assert any(h.retraction and "coffee" in h.text for h in found[1:])


def test_a_turn_keeps_its_place_for_what_its_facts_do_not_say(memory: Memory,
                                                              tenant: str) -> None:
    """Of "I do drink way too much coffee on shifts. Oh and our cat Miso..." the extractor
    reads the cat: the cat fact stands for the turn where the question is about the cat,
    not where it is about coffee (it would answer "Does Maria drink coffee?" with the cat)."""
    say(memory, tenant, "maria", "2024-01-12T09:00:00", "I do drink way too much coffee on "
        "shifts though. Oh and our cat Miso knocked over my mug again.")
    [first, *_] = ask(memory, tenant, "maria", "Does Maria drink coffee?")
    assert first.kind == "turn" and "coffee" in first.text
    found = ask(memory, tenant, "maria", "Does Maria have a cat?")
    assert found[0].text == "Maria has a cat named Miso."
    assert all(h.kind == "fact" for h in found)  # the turn gave way to its fact


def test_turns_overtaken_by_later_facts_leave_the_current_view(memory: Memory,
                                                               tenant: str) -> None:
    say(memory, tenant, "maya", "2023-03-10T10:00:00", "I don't have a dog.")
    say(memory, tenant, "maya", "2023-04-10T10:00:00", "I might move to Rome next year.")
    say(memory, tenant, "maya", "2024-03-10T10:00:00", "I have a dog named Rex.")
    for question in ("Does Maya have a dog?", "Where will Maya live?", "Is Maya moving?"):
        found = texts(ask(memory, tenant, "maya", question))
        assert "I don't have a dog." not in found, question
        assert "I might move to Rome next year." not in found, question
    assert texts(ask(memory, tenant, "maya", "Does Maya have a dog?"))[0] == \
        "Maya has a dog named Rex."
    # then, both turns still spoke; the history view keeps them
    then = texts(ask(memory, tenant, "maya", "Does Maya have a dog?",
                     as_of=datetime(2023, 6, 1, tzinfo=UTC)))
    assert "I don't have a dog." in then
    history = texts(ask(memory, tenant, "maya", "Does Maya have a dog?", include_history=True))
    assert "I don't have a dog." in history


def test_a_turn_naming_only_a_value_since_lost_leaves_its_slots_current_view(
        memory: Memory, tenant: str) -> None:
    """Nothing was read from the first turn, so no fact of it was overtaken; the later
    retraction names the sport it mentioned. Then, and in the history view, it still tells."""
    say(memory, tenant, "dima", "2022-06-30T10:00:00",
        "amateur hockey league season just finished, how do i keep my legs fresh over summer")
    say(memory, tenant, "dima", "2024-10-10T10:00:00",
        "stopped playing hockey, there's no rink near me here")
    now = texts(ask(memory, tenant, "dima", "What sport does Dima play?"))
    assert not [t for t in now if "hockey league" in t], now
    then = texts(ask(memory, tenant, "dima", "What sport does Dima play?",
                     as_of=datetime(2023, 1, 1, tzinfo=UTC)))
    assert any("hockey league" in t for t in then), then
    history = texts(ask(memory, tenant, "dima", "What sport does Dima play?",
                        include_history=True))
    assert any("hockey league" in t for t in history), history


def maya(memory: Memory, tenant: str) -> None:
    """Maya's own facts, her partner's, and other people's: what a dinner question meets."""
    for when, text in [("2022-03-10T10:00:00", "I live in Lisbon."),
                       ("2022-06-02T10:00:00", "I'm allergic to peanuts."),
                       ("2022-06-02T11:00:00", "My sister Melanie works at Microsoft."),
                       ("2022-11-15T10:00:00", "My partner Tom is divorced."),
                       ("2023-01-20T10:00:00", "I'm vegetarian."),
                       ("2023-05-05T10:00:00", "My friend Sam lives in Rome.")]:
        say(memory, tenant, "maya", when, text)


def test_a_question_about_the_user_and_their_kin_keeps_the_users_own_facts(
        memory: Memory, tenant: str) -> None:
    maya(memory, tenant)
    context = memory.context(tenant, ContextRequest(
        scope=Scope(user_id="maya"),
        message="Can you suggest a dinner recipe for me and my partner?"))
    found = [h.text for h in context.items]
    # "me and my partner" names both: her allergy and diet stay beside his facts
    assert {"Maya is allergic to peanuts.", "Maya follows a vegetarian diet.",
            "Tom is Maya's partner."} <= set(found), found
    # a question that names only the kin is about the kin: her job comes first
    assert texts(ask(memory, tenant, "maya", "Where does my sister work?"))[0] == \
        "Melanie works at Microsoft."


def test_a_window_in_the_question_bounds_the_turns_as_as_of_does(memory: Memory,
                                                                  tenant: str) -> None:
    say(memory, tenant, "maya", "2023-07-12T10:00:00", "I started working at Microsoft.")
    say(memory, tenant, "maya", "2024-02-20T10:00:00", "I started working at Amazon.")
    say(memory, tenant, "maya", "2024-03-01T10:00:00", "I work at Amazon now, it's great.")
    end = datetime(2023, 9, 1, tzinfo=UTC)
    for history in (False, True):  # the history view too (a new user saw 2024 answer it)
        response = memory.search(tenant, SearchRequest(
            scope=Scope(user_id="maya"), query="Where did Maya work in August 2023?", limit=5,
            include_history=history))
        assert response.window == (datetime(2023, 8, 1, tzinfo=UTC), end)
        # what she said in 2024 does not answer for August 2023; what she said before may
        assert [h for h in response.results if h.valid_from is None or h.valid_from >= end] == []
        assert "Maya works at Microsoft." in texts(response.results)


def test_a_month_without_a_year_is_the_last_one_before_the_moment_asked_about(
        memory: Memory, tenant: str) -> None:
    """"Where did Maya live in January?" asked as of May: that January, before her move in
    March (a new user saw the move answer it)."""
    say(memory, tenant, "maya", "2026-01-05T10:00:00", "I live in London.")
    say(memory, tenant, "maya", "2026-03-14T10:00:00", "I moved to Manchester today.")
    response = memory.search(tenant, SearchRequest(
        scope=Scope(user_id="maya"), query="Where did Maya live in January?", limit=5,
        as_of=datetime(2026, 5, 1)))
    assert response.window == (datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC))
    found = texts(response.results)
    assert found[0] == "Maya lives in London.", found
    assert not any("Manchester" in t for t in found), found


def test_a_named_persons_relative_is_who_the_question_is_about(memory: Memory,
                                                               tenant: str) -> None:
    """"Where does Maya's sister work?" is Lena's job, not Maya's; "Who is Maya's sister?"
    is answered by Maya's own fact about her (seen by a new user through REST)."""
    say(memory, tenant, "maya", "2025-01-10T09:00:00", "My sister Lena works at Google.")
    say(memory, tenant, "maya", "2025-01-11T09:00:00", "I work at Acme.")
    texts = [h.text for h in ask(memory, tenant, "maya", "Where does Maya's sister work?")]
    assert texts[0] == "Lena works at Google."
    assert not any("Acme" in t for t in texts)
    who = [h.text for h in ask(memory, tenant, "maya", "Who is Maya's sister?")]
    assert who[0] == "Lena is Maya's sister."


@pytest.mark.parametrize("question", ["where does maya's sister work?",
                                      "where does maya's sister live?",
                                      "what car does maya's sister drive?",
                                      "where does maya's brother work?"])
def test_a_relative_asked_in_lowercase_is_never_answered_by_the_users_own_value(
        memory: Memory, tenant: str, question: str) -> None:
    """Typed as people type ("maya's sister", seen by a new user through REST): the
    question is about the sister, or about a brother the graph does not know, so Maya's
    own city, car or employer is never the slot's answer for them."""
    say(memory, tenant, "maya", "2025-01-10T09:00:00", "I live in Lyon and I drive a Mazda.")
    say(memory, tenant, "maya", "2025-01-11T09:00:00", "I work at Acme.")
    say(memory, tenant, "maya", "2025-01-12T09:00:00",
        "My sister Priya works at Google as a software engineer.")
    hits = ask(memory, tenant, "maya", question)
    assert not [h.text for h in hits if "slot" in h.channels and h.text.startswith("Maya ")]
    if "sister" in question:  # a brother no one knows has no answer to rank first
        assert not hits[0].text.startswith("Maya "), [h.text for h in hits]
    if question == "where does maya's sister work?":
        assert hits[0].text == "Priya works at Google."


def test_my_boss_is_whom_i_report_to(memory: Memory, tenant: str) -> None:
    """"Who is my boss?" is answered from the graph like "Who is my manager?" (seen by a new
    user: no slot answer, the employer first); "Where does my boss live?" is the boss's
    home, which no one said, so the user's own is never the answer."""
    say(memory, tenant, "maya", "2025-01-10T09:00:00",
        "I live in Lyon and I work at Acme. My manager is Tom.")
    for question in ("who is my boss?", "Who's my boss", "who is my manager?"):
        hits = ask(memory, tenant, "maya", question)
        assert hits[0].text == "Maya reports to Tom." and "slot" in hits[0].channels, question
    assert not [h for h in ask(memory, tenant, "maya", "where does my boss live?")
                if "Lyon" in h.text]


def test_children_hobbies_and_learning_are_slots(memory: Memory, tenant: str) -> None:
    """A fourth trial: "Who are Dave's children?" matched the married-to slot and led with
    "Dave is no longer married"; "What is Dave learning?" ranked the fact, first on both
    fact channels, below unrelated turns. Each is now a slot of its own."""
    say(memory, tenant, "dave", "2025-01-06T09:00:00",
        "I'm married to Grace. My kids are Ella and Sam. I started to learn German.")
    say(memory, tenant, "dave", "2025-03-06T09:00:00", "Grace and I are separating.")
    children = ask(memory, tenant, "dave", "Who are Dave's children?")
    assert {h.text for h in children[:2]} == {"Ella is Dave's kid.", "Sam is Dave's kid."}
    assert all("slot" in h.channels for h in children[:2])
    learning = ask(memory, tenant, "dave", "What is Dave learning?")
    assert learning[0].text == "Dave is learning German." and "slot" in learning[0].channels


def test_a_slot_asked_with_its_time_in_words_and_as_of_is_the_slot_then(memory: Memory,
                                                                         tenant: str) -> None:
    """"Where did Dave work in March 2025?" asked as of 15 March 2025: the words of time kept
    the question from the slot, and a diet led (a fourth trial)."""
    say(memory, tenant, "dave", "2025-01-06T09:00:00", "I work at KPMG. I'm on a keto diet.")
    say(memory, tenant, "dave", "2025-07-01T09:00:00", "I started at Ledgerly today.")
    hits = ask(memory, tenant, "dave", "Where did Dave work in March 2025?",
               as_of=datetime(2025, 3, 15, tzinfo=UTC))
    assert hits[0].text == "Dave works at KPMG." and "slot" in hits[0].channels


def test_she_in_a_users_own_memory_naming_no_one_is_the_user(memory: Memory,
                                                              tenant: str) -> None:
    """A fourth trial asked Nadia's memory "What is her job title?" and "Does she have
    pets?": nothing was the focus, no slot answered, and her origin led."""
    say(memory, tenant, "nadia", "2025-01-06T09:00:00",
        "I'm from Brazil. I work as a tech lead. My brother Rafael is a dentist. "
        "We adopted a cat named Pipoca.")
    title = ask(memory, tenant, "nadia", "What is her job title?")
    assert title[0].text == "Nadia works as a tech lead." and "slot" in title[0].channels
    pets = ask(memory, tenant, "nadia", "Does she have pets?")
    assert pets[0].text == "Nadia has a cat named Pipoca." and "slot" in pets[0].channels
    # a name the scope does not know is someone else: Nadia's cat is not Priya's
    found = ask(memory, tenant, "nadia", "Does Priya have pets, or does she?")
    assert not any("Pipoca" in h.text or "slot" in h.channels for h in found), found


def test_a_health_condition_answers_a_health_question(memory: Memory, tenant: str) -> None:
    """"Any health problems?" had nothing to find (a fourth trial: "Nadia drives VW Golf." led)."""
    say(memory, tenant, "nadia", "2025-01-06T09:00:00",
        "I drive a VW Golf. Also I have asthma, nothing serious.")
    hits = ask(memory, tenant, "nadia", "Does Nadia have any health problems?")
    assert hits[0].text == "Nadia has asthma." and "slot" in hits[0].channels


# -- a member scope sees the user's memory and the group's ----------------------------
def _member_scope_seeded(memory: Memory, tenant: str) -> Scope:
    group, user = Scope(group_id="book-club"), Scope(user_id="maya")
    for scope, when, text in ((group, "2024-02-01T10:00:00", "I work at Hooli and I live in Denver."),
                              (user, "2024-03-01T10:00:00", "I live in Boulder now.")):
        memory.add_episode(tenant, EpisodeInput(scope=scope, messages=[Message(
            speaker="Maya", content=text,
            timestamp=datetime.fromisoformat(when).replace(tzinfo=UTC))]))
    return Scope(user_id="maya", group_id="book-club")


@pytest.mark.parametrize("question", ["Where does Maya live?", "Where do I live?"])
def test_in_a_member_scope_the_later_statement_of_a_slot_holds(
        memory: Memory, tenant: str, question: str) -> None:
    member = _member_scope_seeded(memory, tenant)

    found = memory.search(tenant, SearchRequest(scope=member, query=question, limit=5)).results

    facts = [h.text for h in found if h.kind == "fact"]
    assert facts[0] == "Maya lives in Boulder."
    assert "Maya lives in Denver." not in facts  # said in the group before; overridden here
    assert "Maya works at Hooli." in facts  # the group's other facts still hold


def test_in_a_member_scope_each_memory_keeps_its_own_timeline(memory: Memory,
                                                              tenant: str) -> None:
    member = _member_scope_seeded(memory, tenant)

    def lives(scope: Scope, **view: object) -> list[str]:
        request = SearchRequest(scope=scope, query="Where does Maya live?", limit=5, **view)  # type: ignore[arg-type]
        return [h.text for h in memory.search(tenant, request).results
                if h.kind == "fact" and "lives" in h.text]

    assert lives(Scope(group_id="book-club")) == ["Maya lives in Denver."]  # the group's own
    assert lives(member, as_of=datetime(2024, 2, 15, tzinfo=UTC)) == ["Maya lives in Denver."]
    assert set(lives(member, include_history=True)) == {"Maya lives in Boulder.",
                                                        "Maya lives in Denver."}


# -- what the assistant said is not what the user said ---------------------------------
def test_an_assistant_turn_counts_less_and_is_labelled(memory: Memory, tenant: str) -> None:
    memory.add_episode(tenant, EpisodeInput(scope=Scope(user_id="priya"), messages=[
        Message(role="user", content="Hi, I'm Priya.",
                timestamp=datetime(2024, 1, 5, 10, tzinfo=UTC)),
        Message(role="assistant", content="Nice to meet you Priya! Since you live in Dallas,"
                " have you tried the barbecue there?", timestamp=datetime(2024, 1, 5, 10, 1,
                                                                          tzinfo=UTC)),
        Message(role="user", content="Actually I live in Austin, and I love barbecue.",
                timestamp=datetime(2024, 1, 5, 10, 2, tzinfo=UTC))]))

    found = memory.search(tenant, SearchRequest(scope=Scope(user_id="priya"),
                                                query="Where does Priya live? barbecue",
                                                limit=10)).results
    turns = {h.text: h for h in found if h.kind == "turn"}
    said = next(h for text, h in turns.items() if "Dallas" in text)
    assert said.role == "assistant"
    assert texts(found).index(said.text) > texts(found).index("Priya lives in Austin.")

    context = memory.context(tenant, ContextRequest(scope=Scope(user_id="priya"),
                                                    message="barbecue in Dallas"))
    lines = [line for line in context.prompt.splitlines() if "Dallas" in line]
    assert lines and all("Assistant: Nice to meet you" in line for line in lines)


@pytest.mark.parametrize(("denial", "later", "question"), [
    ("I don't have any pets.", "I got a dog named Rex!", "Tell me about my pets"),
    ("I don't have a car.", "I drive a Toyota Corolla now.", "What car do I drive?"),
])
def test_a_denial_of_a_slot_is_overtaken_by_a_later_value_of_it(
        memory: Memory, tenant: str, denial: str, later: str, question: str) -> None:
    say(memory, tenant, "maya", "2023-01-10T10:00:00", denial)
    say(memory, tenant, "maya", "2023-06-10T10:00:00", later)

    context = memory.context(tenant, ContextRequest(scope=Scope(user_id="maya"), message=question))
    then = memory.context(tenant, ContextRequest(scope=Scope(user_id="maya"), message=question,
                                                 as_of=datetime(2023, 3, 1, tzinfo=UTC)))

    assert denial not in context.prompt  # a later fact of that slot overtook it
    assert denial in then.prompt or not then.items  # before it, no later word hid it


def test_a_denial_of_something_else_stays(memory: Memory, tenant: str) -> None:
    say(memory, tenant, "maya", "2023-01-10T10:00:00", "I don't have any siblings.")
    say(memory, tenant, "maya", "2023-06-10T10:00:00", "I got a dog named Rex!")

    context = memory.context(tenant, ContextRequest(scope=Scope(user_id="maya"),
                                                    message="Do I have siblings?"))
    assert "I don't have any siblings." in context.prompt


def test_a_history_view_of_a_slot_leads_with_its_values_newest_first(memory: Memory,
                                                                    tenant: str) -> None:
    for when, text in [("2021-01-10T10:00:00", "I work at Acme Corp."),
                       ("2021-02-01T10:00:00", "I have an iPhone 12."),
                       ("2021-03-01T10:00:00", "I live in Boston."),
                       ("2022-05-10T10:00:00", "I started a new job at Globex."),
                       ("2023-01-05T10:00:00", "I love hiking and I moved to Denver."),
                       ("2024-02-01T10:00:00", "I quit my job at Globex."),
                       ("2024-06-01T10:00:00", "I now work at Initech.")]:
        say(memory, tenant, "maya", when, text)

    found = memory.search(tenant, SearchRequest(scope=Scope(user_id="maya"),
                                                query="Where does Maya work?",
                                                include_history=True, limit=6)).results

    employers = [h.object for h in found[:3]]
    assert employers == ["Initech", "Globex", "Acme Corp"], [h.text for h in found]
    assert found[0].valid_until is None and found[1].valid_until is not None


def test_for_a_slot_a_turn_that_only_asks_or_muses_never_answers(
        memory: Memory, tenant: str) -> None:
    say(memory, tenant, "lucia", "2021-05-01T10:00:00", "what are the rules of badminton?")
    say(memory, tenant, "lucia", "2021-05-03T10:00:00", "thinking about lacrosse, any clubs?")
    say(memory, tenant, "lucia", "2021-06-01T10:00:00", "sundays are for the climbing wall now")

    found = texts(ask(memory, tenant, "lucia", "Which sport does Lucia do?"))

    assert found[0] == "sundays are for the climbing wall now", found  # it was third
    assert not [t for t in found if "badminton" in t or "lacrosse" in t], found


def test_for_a_slot_a_turn_of_the_past_or_of_never_answers_only_in_history(
        memory: Memory, tenant: str) -> None:
    say(memory, tenant, "ravi", "2021-05-01T10:00:00", "did rowing in high school, ages ago")
    say(memory, tenant, "ravi", "2021-05-03T10:00:00", "never done cricket in my life")
    say(memory, tenant, "ravi", "2021-06-01T10:00:00", "sundays are for the climbing wall now")

    found = texts(ask(memory, tenant, "ravi", "Which sport does Ravi do?"))
    history = texts(ask(memory, tenant, "ravi", "Which sport does Ravi do?",
                        include_history=True))

    assert not [t for t in found if "rowing" in t or "cricket" in t], found
    assert [t for t in history if "rowing" in t], history


def test_a_slot_nobody_told_is_not_answered_by_a_question_about_a_value(
        memory: Memory, tenant: str) -> None:
    say(memory, tenant, "sungmin", "2020-09-01T10:00:00", "is boxing good cardio?")
    say(memory, tenant, "sungmin", "2020-09-02T10:00:00",
        "thinking about applying to Lumora Games, their benefits look amazing")

    sport = texts(ask(memory, tenant, "sungmin", "Which sport does Sungmin do?"))
    employer = texts(ask(memory, tenant, "sungmin", "Who does Sungmin work for?"))

    assert not [t for t in sport if "boxing" in t], sport
    assert not [t for t in employer if "Lumora" in t], employer


def test_a_value_corrected_from_its_start_is_no_part_of_the_slot_history(
        store: GraphStore, embedder: Embedder, extractor: Extractor, tenant: str) -> None:
    """"I mostly code in Haskell", then a correction that it was OCaml all along (PATCH
    since=start): a history search never shows Haskell as a past main language, while the
    store's listing keeps the record and a view of what was believed before still sees it."""
    from datetime import timedelta

    from graphmem.manage.edits import correct_fact
    from graphmem.store.base import FactQuery
    from graphmem.temporal import TimeFilter

    clock = [NOW]
    memory = Memory(store, extractor, embedder, clock=lambda: clock[0])
    try:
        say(memory, tenant, "ines", "2024-03-01T10:00:00", "I mostly code in Haskell these days.")
        question = "Which programming language does Ines use?"
        main = next(h for h in ask(memory, tenant, "ines", question, include_turns=False)
                    if h.object == "Haskell" and h.predicate == "MAIN_LANGUAGE")
        clock[0] = NOW + timedelta(days=2)
        correct_fact(memory, tenant, main.id, object="OCaml", since="start")
        for query in (question, "Haskell"):
            past = ask(memory, tenant, "ines", query, include_history=True, include_turns=False)
            assert ("Haskell", "MAIN_LANGUAGE") not in [(h.object, h.predicate) for h in past]
        now = ask(memory, tenant, "ines", question, include_history=True, include_turns=False)
        assert ("OCaml", "MAIN_LANGUAGE") in [(h.object, h.predicate) for h in now], now
        then = ask(memory, tenant, "ines", question, as_known_at=NOW + timedelta(days=1),
                   include_turns=False)
        assert ("Haskell", "MAIN_LANGUAGE") in [(h.object, h.predicate) for h in then], then
        listed = store.list_facts(tenant, FactQuery(scope_keys=Scope(user_id="ines").visible_keys,
                                                    time=TimeFilter(include_history=True)))
        assert any(f.id == main.id and f.valid_until == f.valid_from for f in listed)
    finally:
        memory.engine.close()


def test_a_relative_said_by_relation_is_the_one_known_by_name(memory: Memory,
                                                             tenant: str) -> None:
    """"My mum Jean lives in Swansea", then "my mum moved to Cardiff last month": Jean moved
    (a new user saw the move filed under a second, nameless mum, and Swansea answer)."""
    say(memory, tenant, "maya", "2025-05-03T10:00:00", "My mum Jean lives in Swansea.")
    say(memory, tenant, "maya", "2025-07-11T10:00:00", "my mum moved to Cardiff last month.")
    found = texts(ask(memory, tenant, "maya", "Where does my mum live?"))
    assert "Cardiff" in found[0], found
    assert not any("Swansea" in t for t in found), found
    jean = texts(ask(memory, tenant, "maya", "Where does Jean live?"))
    assert "Cardiff" in jean[0], jean


@pytest.mark.parametrize("question", ["where does my mom live?", "Where does my mum live?",
                                      "where does maya's mom live?"])
def test_a_relative_never_named_is_found_by_relation(memory: Memory, tenant: str,
                                                     question: str) -> None:
    """"my mom lives in Madrid" is stored of "Maya's mom"; a new user's "where does my mom
    live?" then found only Maya's own facts (no fact relates Maya to a named mother)."""
    say(memory, tenant, "maya", "2025-05-03T10:00:00", "my mom lives in Madrid")
    say(memory, tenant, "maya", "2025-05-04T10:00:00", "I have a dog and I mainly code in Go")
    found = texts(ask(memory, tenant, "maya", question))
    assert found and "Madrid" in found[0], found
