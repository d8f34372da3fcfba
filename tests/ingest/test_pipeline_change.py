"""Ingestion with the real rules extractor: single-valued slots supersede whatever verb
introduced the new value, multi-valued relations do not, negations never assert, and a
Chinese line never costs an episode its English facts. On both stores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message, Scope
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, day
from tests.ingest.test_timeline_rules import current


@pytest.fixture(scope="module")
def rules() -> RuleExtractor:
    extractor = RuleExtractor()
    extractor.load()
    return extractor


@pytest.fixture
def ingestor(store: GraphStore, embedder: Embedder, rules: RuleExtractor) -> Ingestor:
    return Ingestor(store, rules, embedder)


def tell(ingestor: Ingestor, tenant: str, month: int, *texts: str):  # type: ignore[no-untyped-def]
    messages = [Message(id=f"{month}-{i}", speaker="Alice", content=t, timestamp=day(month))
                for i, t in enumerate(texts)]
    return ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=messages))


def slot(store: GraphStore, tenant: str, predicate: str, scope: Scope = ALICE,
         **time: object) -> set[str]:
    return {o for p, o in current(store, tenant, scope, **time) if p == predicate}


def test_single_valued_slots_supersede_across_verbs(ingestor: Ingestor, store: GraphStore,
                                                    tenant: str) -> None:
    tell(ingestor, tenant, 1, "I drive a Toyota Corolla.")
    tell(ingestor, tenant, 3, "I traded in my car for a Subaru Outback.")
    tell(ingestor, tenant, 6, "My car these days is a Tesla Model 3.")
    assert slot(store, tenant, "DRIVES") == {"Tesla Model 3"}
    assert slot(store, tenant, "DRIVES", as_of=day(4)) == {"Subaru Outback"}
    assert slot(store, tenant, "DRIVES", as_of=day(2)) == {"Toyota Corolla"}

    tell(ingestor, tenant, 1, "I got hired by Initech.")
    tell(ingestor, tenant, 5, "These days I'm employed by Globex.")
    assert slot(store, tenant, "WORKS_AT") == {"Globex"}

    tell(ingestor, tenant, 2, "My main programming language is Kotlin.")
    tell(ingestor, tenant, 7, "These days I write almost everything in Go.")
    assert slot(store, tenant, "MAIN_LANGUAGE") == {"Go"}


def test_multi_valued_relations_do_not_supersede(ingestor: Ingestor, store: GraphStore,
                                                 tenant: str) -> None:
    tell(ingestor, tenant, 1, "I love sushi.")
    tell(ingestor, tenant, 2, "I love ramen.")
    tell(ingestor, tenant, 3, "We use Kotlin at work.", "I use Python for scripts.")
    assert {o for p, o in current(store, tenant) if p == "LOVES"} == {"sushi", "ramen"}
    assert {"Kotlin", "Python"} <= {o for p, o in current(store, tenant) if p == "USES"}


def test_a_negated_statement_closes_and_never_asserts(ingestor: Ingestor, store: GraphStore,
                                                      tenant: str) -> None:
    tell(ingestor, tenant, 1, "I play tennis every week.")
    result = tell(ingestor, tenant, 4, "I no longer play tennis, my knee is bad.")
    assert slot(store, tenant, "PLAYS_SPORT") == set()
    assert [f.object_name for f in result.retracted] == ["tennis"]
    assert not [f for f in result.created if f.object_name == "tennis"]


def test_a_chinese_line_keeps_the_english_todo(ingestor: Ingestor, store: GraphStore,
                                               tenant: str) -> None:
    result = tell(ingestor, tenant, 6, "我今天很开心，我们明天去公园散步吧",
                  "Remind me to call mom on Friday.")
    assert [f.object_name for f in result.created if f.predicate == "TODO"] == ["call mom"]
    assert result.language == "en"
    assert ("TODO", "call mom") in current(store, tenant, as_of=day(6))


def test_messages_without_a_speaker_are_the_person_the_scope_knows(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """A client that sends only roles (and a text) speaks for the user whose named
    messages came before: one person, whose old home and job are superseded."""
    tell(ingestor, tenant, 1, "I live in Oslo and I work at Statoil.")
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(role="user", content="I moved to Bergen. I work at Equinor now.",
                timestamp=day(6))]))
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, text="I drive a Volvo.",
                                         reference_time=day(7)))
    assert slot(store, tenant, "LIVES_IN") == {"Bergen"}
    assert slot(store, tenant, "WORKS_AT") == {"Equinor"}
    facts = store.list_facts(tenant, FactQuery(scope_keys=[ALICE.key]))
    assert {f.subject_name for f in facts} == {"Alice"}, [f.text for f in facts]
    assert all(f.text.startswith("Alice") for f in facts), [f.text for f in facts]
    stored = store.list_episodes(tenant, [ALICE.key], limit=5)
    assert [m.speaker for e in stored for m in e.messages if "Bergen" in m.content] == [None]


def test_a_transcript_sent_as_text_gives_each_line_to_its_speaker(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    ingestor.ingest(tenant, EpisodeInput(
        scope=ALICE, text="Sam: I moved to Trondheim.\nBob: I live in Paris.",
        reference_time=day(3)))
    facts = store.list_facts(tenant, FactQuery(scope_keys=[ALICE.key]))
    assert {(f.subject_name, f.predicate, f.object_name) for f in facts} == {
        ("Sam", "LIVES_IN", "Trondheim"), ("Bob", "LIVES_IN", "Paris")}, [f.text for f in facts]
    assert store.list_episodes(tenant, [ALICE.key], limit=1)[0].messages == []  # kept as sent


def test_the_first_name_a_user_gives_goes_to_the_person_their_unnamed_messages_built(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    u77 = Scope(user_id="u77")  # an account id, not a name
    for month, speaker, text in [(1, None, "I live in Oslo."), (6, "Maria", "I moved to Bergen.")]:
        ingestor.ingest(tenant, EpisodeInput(scope=u77, messages=[
            Message(role="user", speaker=speaker, content=text, timestamp=day(month))]))
    assert slot(store, tenant, "LIVES_IN", scope=u77) == {"Bergen"}
    people = store.find_entities(tenant, [u77.key], ["maria", "u77"])
    assert [(e.name, e.aliases) for e in people] == [("Maria", ["u77"])]
    facts = store.list_facts(tenant, FactQuery(scope_keys=[u77.key],
                                               time=TimeFilter(include_history=True)))
    assert {f.subject_id for f in facts} == {people[0].id}


@pytest.mark.parametrize("before", [None, "I live in Oslo."])
def test_a_name_given_in_words_names_the_user(ingestor: Ingestor, store: GraphStore,
                                              tenant: str, before: str | None) -> None:
    """"Hi, I'm Priya" from a client that sends no speaker: "I" is Priya in that message
    and in the unnamed ones after it, whether or not unnamed ones came before."""
    u9 = Scope(user_id="u9")
    texts = [*([before] if before else []), "Hi, I'm Priya. I work at Acme.",
             "I moved to Denver.", "I work at Globex now."]
    for month, text in enumerate(texts, start=1):
        ingestor.ingest(tenant, EpisodeInput(scope=u9, messages=[
            Message(role="user", content=text, timestamp=day(month))]))
    facts = store.list_facts(tenant, FactQuery(scope_keys=[u9.key],
                                               time=TimeFilter(include_history=True)))
    people = store.find_entities(tenant, [u9.key], ["priya", "u9"])
    assert [(e.name, e.aliases) for e in people] == [("Priya", ["u9"])]
    assert {f.subject_id for f in facts} == {people[0].id}
    named = [f.text for f in facts if "Oslo" not in f.text]  # said before the name was given
    assert len(named) == 3 and all(t.startswith("Priya") for t in named), named
    assert slot(store, tenant, "WORKS_AT", scope=u9) == {"Globex"}


def test_a_name_spelt_like_the_account_id_still_names_the_user(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """On the account "maya", "Hi, I'm Maya" is a name given all the same: later unnamed
    messages are Maya's, in words too ("Melanie is Maya's sister", never "the user's")."""
    maya = Scope(user_id="maya")
    for month, text in enumerate(["Hi, I'm Maya. I live in Berlin.",
                                  "My sister Melanie works at Google."], start=1):
        ingestor.ingest(tenant, EpisodeInput(scope=maya, messages=[
            Message(role="user", content=text, timestamp=day(month))]))
    texts = sorted(f.text for f in store.list_facts(tenant, FactQuery(scope_keys=[maya.key])))
    assert "Melanie is Maya's sister." in texts and "Maya lives in Berlin." in texts, texts


def test_an_unnamed_user_is_written_the_user_mid_sentence(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    u3 = Scope(user_id="u3")
    ingestor.ingest(tenant, EpisodeInput(scope=u3, messages=[
        Message(role="user", content="My sister Melanie works at Google.", timestamp=day(1))]))
    texts = {f.text for f in store.list_facts(tenant, FactQuery(scope_keys=[u3.key]))}
    assert "Melanie is the user's sister." in texts, texts


def test_a_batch_names_the_user_as_one_episode_at_a_time_would(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """A jsonl import sends many episodes in one batch: an unnamed "I" after a named one
    is that person already, as it is when the episodes come one by one."""
    u5 = Scope(user_id="u5")
    ingestor.ingest_many(tenant, [EpisodeInput(scope=u5, messages=[
        Message(role="user", speaker=speaker, content=text, timestamp=day(month))])
        for month, speaker, text in [(1, "Kim", "I live in Austin."),
                                     (2, None, "I work at Hooli.")]])
    facts = store.list_facts(tenant, FactQuery(scope_keys=[u5.key]))
    assert sorted(f.text for f in facts) == ["Kim lives in Austin.", "Kim works at Hooli."]


def test_a_retraction_by_kind_ends_the_named_pets_of_that_kind(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "We adopted a dog called Rex.", "I have a cat named Luna.")
    tell(ingestor, tenant, 2, "We also have a puppy named Bo.")
    result = tell(ingestor, tenant, 4, "I don't have a dog anymore, we gave Rex to my parents.")
    assert [f.object_name for f in result.retracted] == ["Rex"]
    assert slot(store, tenant, "HAS_PET") == {"Luna", "Bo"}  # other kinds, other words
    assert slot(store, tenant, "HAS_PET", as_of=day(3)) == {"Rex", "Luna", "Bo"}

    tell(ingestor, tenant, 5, "I have a dog named Max.")
    tell(ingestor, tenant, 6, "We no longer have the cat.")
    assert slot(store, tenant, "HAS_PET") == {"Bo", "Max"}


def test_a_denied_value_is_closed_and_the_stated_one_wins(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I work at Initech.", "I live in Porto.")
    tell(ingestor, tenant, 3, "Sorry, I meant I work at Hooli, not Initech.",
         "I live in Lisbon, not in Porto.")
    assert slot(store, tenant, "WORKS_AT") == {"Hooli"}
    assert slot(store, tenant, "LIVES_IN") == {"Lisbon"}
    result = tell(ingestor, tenant, 5, "I work at Hooli, not Initech.")
    assert not [f for f in result.created if f.object_name == "Initech"]
    assert slot(store, tenant, "WORKS_AT") == {"Hooli"}


def test_a_slip_corrected_in_a_later_episode_never_held(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """"Sorry, I meant Hooli, not Initech": Hooli holds from when Initech was said, and
    Initech never held (kept as history, ended where it began, linked to Hooli)."""
    tell(ingestor, tenant, 1, "I work at Initech.")
    tell(ingestor, tenant, 3, "Sorry, I meant I work at Hooli, not Initech.")
    assert slot(store, tenant, "WORKS_AT", as_of=day(2)) == {"Hooli"}
    assert slot(store, tenant, "WORKS_AT") == {"Hooli"}
    history = store.list_facts(tenant, FactQuery(
        scope_keys=[ALICE.key], predicates=["WORKS_AT"], time=TimeFilter(include_history=True)))
    wrong = next(f for f in history if f.object_name == "Initech")
    right = next(f for f in history if f.object_name == "Hooli")
    assert wrong.valid_until == wrong.valid_from == right.valid_from == day(1)
    assert wrong.superseded_by == right.id
    # a contrast without a correction's words is a change from now, as before
    tell(ingestor, tenant, 4, "I live in Porto.")
    tell(ingestor, tenant, 6, "I live in Lisbon, not in Porto.")
    assert slot(store, tenant, "LIVES_IN", as_of=day(5)) == {"Porto"}


@pytest.mark.parametrize("fix", ["Actually it was Lisbon, not Porto.",
                                 "Sorry, I live in Lisbon, not Porto.",
                                 "Sorry, I meant Lisbon.",
                                 # owned up to in other words, in a sentence of its own
                                 "I beg your pardon, I misspoke. We live in Lisbon, not Porto.",
                                 "Forgive me, I made an error earlier. We live in Lisbon "
                                 "rather than Porto.",
                                 "Actually, I misspoke in an earlier conversation: Tom and I "
                                 "live in Lisbon, not Porto."])
def test_a_slip_corrected_in_few_words_later_never_held(
        ingestor: Ingestor, store: GraphStore, tenant: str, fix: str) -> None:
    """"Actually it was Lisbon, not Porto" names no slot: ingestion shows the rules the
    stored facts, and Porto's slot gets Lisbon from when Porto was said."""
    tell(ingestor, tenant, 1, "I moved to Porto.")
    tell(ingestor, tenant, 3, fix)
    assert slot(store, tenant, "LIVES_IN", as_of=day(2)) == {"Lisbon"}
    assert slot(store, tenant, "LIVES_IN") == {"Lisbon"}


@pytest.mark.parametrize("taken_back", ["Scratch that, I never worked at Brightwater Tea.",
                                        "I never worked at Brightwater Tea."])
def test_a_job_taken_back_never_held(ingestor: Ingestor, store: GraphStore, tenant: str,
                                     taken_back: str) -> None:
    """The seventh trial: "Scratch that, I never worked at ..." had kept the job as held
    until the message; it never held, so no time shows it."""
    tell(ingestor, tenant, 1, "I work at Brightwater Tea.")
    tell(ingestor, tenant, 3, taken_back)
    assert slot(store, tenant, "WORKS_AT", as_of=day(2)) == set()
    assert slot(store, tenant, "WORKS_AT") == set()


@pytest.mark.parametrize(("first", "fix", "predicate", "right", "wrong"), [
    ("Weekends are for badminton.", "Mixed up my words earlier, it's powerlifting.",
     "PLAYS_SPORT", "powerlifting", "badminton"),
    ("joined a lacrosse club recently, loving it!!", "Correction: it's badminton I do. "
     "lacrosse was a typo", "PLAYS_SPORT", "badminton", "lacrosse"),
    ("I write almost everything in Scala.", "Ignore what I said about Scala; it's Python that "
     "I use.", "MAIN_LANGUAGE", "Python", "Scala"),
    ("I work at Philips.", "Ignore what I said about Philips, the company I joined is Mercado "
     "Libre.", "WORKS_AT", "Mercado Libre", "Philips"),
])
def test_a_value_taken_back_never_held(ingestor: Ingestor, store: GraphStore, tenant: str,
                                       first: str, fix: str, predicate: str, right: str,
                                       wrong: str) -> None:
    """blind4's tune half: a slip owned in other words ("mixed up my words", "ignore what I
    said about X") was kept as held until the fix, or not fixed at all."""
    tell(ingestor, tenant, 1, first)
    tell(ingestor, tenant, 3, fix)
    assert slot(store, tenant, predicate) == {right}
    assert wrong not in slot(store, tenant, predicate, as_of=day(2))


@pytest.mark.parametrize(("first", "then", "predicate", "kept"), [
    ("I work at Acme.", "Actually it was great.", "WORKS_AT", "Acme"),
    ("I play tennis.", "Sorry, it's netball tonight so I can't.", "PLAYS_SPORT", "tennis"),
    ("I work at Acme.", "My sister lives in Leeds. Sorry, I meant York.", "WORKS_AT", "Acme"),
])
def test_a_pointed_word_that_is_no_slip_corrects_nothing(ingestor: Ingestor, store: GraphStore,
                                                         tenant: str, first: str, then: str,
                                                         predicate: str, kept: str) -> None:
    tell(ingestor, tenant, 1, first)
    tell(ingestor, tenant, 3, then)
    assert slot(store, tenant, predicate) == {kept}


def test_a_dated_leaving_after_scratch_that_held_until_then(ingestor: Ingestor,
                                                            store: GraphStore, tenant: str) -> None:
    """"Scratch that. I quit Acme last week" ends the job last week; it is no denial."""
    tell(ingestor, tenant, 1, "I work at Acme.")
    tell(ingestor, tenant, 3, "Scratch that. I quit Acme last week, so Monday works.")
    assert slot(store, tenant, "WORKS_AT", as_of=day(2)) == {"Acme"}


def test_a_home_corrected_by_a_town_alone(ingestor: Ingestor, store: GraphStore,
                                          tenant: str) -> None:
    tell(ingestor, tenant, 1, "I live in Leeds.")
    tell(ingestor, tenant, 3, "Sorry, I meant York.")
    assert slot(store, tenant, "LIVES_IN", as_of=day(2)) == {"York"}


def test_a_mistake_that_was_no_slip_is_a_move(ingestor: Ingestor, store: GraphStore,
                                              tenant: str) -> None:
    """Regretting a move owns up to no slip of the tongue: Porto held until the message."""
    tell(ingestor, tenant, 1, "I moved to Porto.")
    tell(ingestor, tenant, 3, "I made a mistake moving to Porto. I live in Lisbon now, not Porto.")
    assert slot(store, tenant, "LIVES_IN", as_of=day(2)) == {"Porto"}
    assert slot(store, tenant, "LIVES_IN") == {"Lisbon"}


def test_an_unnamed_user_corrects_a_stored_value_in_their_own_voice(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """Messages with no speaker, as most clients send them, with the assistant's replies:
    "Sorry, I meant Globex" corrects the user's own employer, stated of the user."""
    def chat(month: int, text: str) -> None:
        ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(id=f"u{month}", role="user", content=text, timestamp=day(month)),
            Message(id=f"a{month}", role="assistant", content="Got it.", timestamp=day(month))]))
    chat(1, "I work at Initech and I live in Porto.")
    chat(3, "Sorry, I meant Globex.")
    assert slot(store, tenant, "WORKS_AT") == {"Globex"}
    assert slot(store, tenant, "WORKS_AT", as_of=day(2)) == {"Globex"}  # Initech was a slip
    assert slot(store, tenant, "LIVES_IN") == {"Porto"}
    job = store.list_facts(tenant, FactQuery(scope_keys=[ALICE.key], predicates=["WORKS_AT"],
                                             time=TimeFilter()))
    assert [f.text for f in job] == ["The user works at Globex."]


def test_a_past_stretch_is_history_beside_the_current_value(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """"I lived in Paris from 2015 to 2020", said while living in Berlin, answers an
    as_of in 2017 and leaves Berlin current; "until" ends a current value then."""
    tell(ingestor, tenant, 1, "I live in Berlin and I work at Initech.")
    tell(ingestor, tenant, 2, "I lived in Paris from 2015 to 2020.")
    assert slot(store, tenant, "LIVES_IN") == {"Berlin"}
    assert slot(store, tenant, "LIVES_IN", as_of=datetime(2017, 6, 1, tzinfo=UTC)) == {"Paris"}
    assert slot(store, tenant, "LIVES_IN", as_of=datetime(2022, 6, 1, tzinfo=UTC)) == set()
    tell(ingestor, tenant, 6, "I worked at Initech until last month.")
    assert slot(store, tenant, "WORKS_AT") == set()
    assert slot(store, tenant, "WORKS_AT", as_of=day(4)) == {"Initech"}


def test_a_correction_learnt_in_the_same_instant_still_comes_second(
        store: GraphStore, embedder: Embedder, rules: RuleExtractor, tenant: str) -> None:
    """The slip and its correction share ``valid_from``; what was learnt second wins even
    when the clock has not moved between them (one episode, or a clock frozen in a test),
    rather than whichever fact id happens to sort last."""
    frozen = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
    ingestor = Ingestor(store, rules, embedder, clock=lambda: frozen)
    tell(ingestor, tenant, 1, "I moved to Porto.")
    tell(ingestor, tenant, 3, "Actually it was Lisbon, not Porto.")
    assert slot(store, tenant, "LIVES_IN", as_of=day(2)) == {"Lisbon"}
    tell(ingestor, tenant, 5, "I moved to Oslo.", "Sorry, I live in Bergen, not Oslo.")
    assert slot(store, tenant, "LIVES_IN", as_of=day(6)) == {"Bergen"}
    history = store.list_facts(tenant, FactQuery(scope_keys=[ALICE.key], predicates=["LIVES_IN"],
                                                 time=TimeFilter(include_history=True)))
    stamps = sorted(f.recorded_at for f in history)
    assert len(set(stamps)) == len(stamps), "each record of one timeline is learnt at its own instant"


def test_a_message_dated_far_ahead_is_stored_with_a_warning(ingestor: Ingestor,
                                                           tenant: str) -> None:
    ahead = ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(id="m9", speaker="Alice", content="I live in Oslo.",
                timestamp=datetime(2099, 1, 1, tzinfo=UTC))]))
    assert ahead.created and len(ahead.warnings) == 1
    assert "message m9 is dated 2099-01-01T00:00:00Z," in ahead.warnings[0]  # as answers write it
    assert "+00:00" not in ahead.warnings[0]
    assert not tell(ingestor, tenant, 1, "I live in Bergen.").warnings


class _FailingExtractor:
    """An extractor whose service is down: ingestion keeps the episode and says why."""

    name = "down"
    uses_candidates = False

    def extract(self, *_: object) -> object:
        from graphmem.errors import ExtractionError

        raise ExtractionError("the LLM server refused the connection")


def test_a_document_that_gave_no_facts_is_warned_of_once_and_rightly(
        store: GraphStore, embedder: Embedder, rules: RuleExtractor, tenant: str) -> None:
    document = EpisodeInput(scope=ALICE, document={"employer": "Globex", "city": "Lyon"})
    told = Ingestor(store, rules, embedder).ingest(tenant, document)
    assert told.episode_id and not told.created
    assert [w for w in told.warnings if "no facts were extracted from the document" in w]
    # when the extractor failed, its own warning says why; no advice about the document
    failed = Ingestor(store, _FailingExtractor(), embedder).ingest(  # type: ignore[arg-type]
        tenant, EpisodeInput(scope=ALICE, document={"employer": "Initech"}))
    assert [w for w in failed.warnings if w.startswith("extraction failed")]
    assert not [w for w in failed.warnings if "from the document" in w], failed.warnings
