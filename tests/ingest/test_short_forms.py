"""Short forms of first names in entity resolution ("Mel" is the Melanie already known),
and the cases where two people must stay two. Resolution and ingestion on both stores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.ingest.resolve import EntityResolver, NameRequest
from graphmem.ingest.short_forms import ShortForms
from graphmem.models import Entity, Message, Scope
from graphmem.store.base import FactQuery, GraphStore, WriteBatch
from graphmem.temporal import TimeFilter

MAYA = Scope(user_id="maya")


@pytest.fixture(scope="module")
def forms() -> ShortForms:
    return ShortForms.english()


@pytest.mark.parametrize(("short", "full"), [
    ("mel", "melanie"), ("alex", "alexander"), ("sam", "samantha"), ("bob", "robert"),
    ("bill", "william"), ("liz", "elizabeth"), ("kate", "katherine"), ("tom", "thomas"),
])
def test_common_nicknames_stand_for_their_names(forms: ShortForms, short: str,
                                                full: str) -> None:
    assert forms.stands_for(short, full)
    assert short in forms.short_forms_of(full)


def test_the_prefix_rule_is_narrow(forms: ShortForms) -> None:
    assert "melanie" not in forms.full_names["mel"]  # the dataset lacks it: the prefix finds it
    assert not forms.stands_for("mel", "mel")           # the same name is no short form
    assert not forms.stands_for("mar", "maria")         # not a listed nickname
    assert not forms.stands_for("bob", "alice")
    assert forms.prefixes("bill") == ["bill", "robert", "will", "william", "willis"]


def _seed(store: GraphStore, embedder: Embedder, tenant: str,
          *people: tuple[str, list[str]], scope: Scope = MAYA) -> list[Entity]:
    created = EntityResolver(store, embedder).resolve(
        tenant, scope, [NameRequest(name, "person", aliases) for name, aliases in people]).created
    store.write(tenant, WriteBatch(entities=created))
    return created


def _resolve(store: GraphStore, embedder: Embedder, tenant: str, *names: str,
             scope: Scope = MAYA) -> Entity:
    result = EntityResolver(store, embedder).resolve(
        tenant, scope, [NameRequest(n, "person") for n in names])
    store.write(tenant, WriteBatch(entities=[*result.created, *result.updated]))
    found = result.get(names[0])
    assert found is not None
    return found


def test_a_short_form_of_one_known_person_is_that_person(store: GraphStore, embedder: Embedder,
                                                         tenant: str) -> None:
    melanie, = _seed(store, embedder, tenant, ("Melanie Chen", []))
    bill, = _seed(store, embedder, tenant, ("William", []))

    mel = _resolve(store, embedder, tenant, "Mel")
    assert mel.id == melanie.id and "Mel" in mel.aliases
    assert [(r.reason, r.name) for r in mel.resolutions] == [("nickname", "Mel")]
    assert _resolve(store, embedder, tenant, "Bill").id == bill.id
    assert _resolve(store, embedder, tenant, "mel").id == melanie.id  # now an alias


def test_two_people_a_short_form_could_mean_stay_apart(store: GraphStore, embedder: Embedder,
                                                       tenant: str) -> None:
    known = {e.id for e in _seed(store, embedder, tenant, ("Melanie", []), ("Melissa", []))}
    assert _resolve(store, embedder, tenant, "Mel").id not in known


def test_a_new_name_of_the_same_episode_also_counts(store: GraphStore, embedder: Embedder,
                                                    tenant: str) -> None:
    melanie, = _seed(store, embedder, tenant, ("Melanie", []))
    assert _resolve(store, embedder, tenant, "Mel", "Melissa").id != melanie.id


def test_a_different_surname_is_someone_else(store: GraphStore, embedder: Embedder,
                                             tenant: str) -> None:
    melanie, = _seed(store, embedder, tenant, ("Melanie Chen", []))
    assert _resolve(store, embedder, tenant, "Mel Gibson").id != melanie.id  # not one word

    other = Scope(user_id="sam")  # the known Mel's own alias gives another surname
    mel, = _seed(store, embedder, tenant, ("Mel", ["Mel Gibson"]), scope=other)
    assert _resolve(store, embedder, tenant, "Melanie Chen", scope=other).id != mel.id


def test_only_persons_by_short_form(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    created = EntityResolver(store, embedder).resolve(
        tenant, MAYA, [NameRequest("Melbourne", "place")]).created
    store.write(tenant, WriteBatch(entities=created))
    assert _resolve(store, embedder, tenant, "Mel").id != created[0].id


def test_the_full_name_after_the_short_form(store: GraphStore, embedder: Embedder,
                                            tenant: str) -> None:
    mel, = _seed(store, embedder, tenant, ("Mel", []))
    melanie = _resolve(store, embedder, tenant, "Melanie")
    assert melanie.id == mel.id and melanie.aliases == ["Melanie"]
    assert melanie.resolutions[-1].detail == "full name of Mel"


# -- the reported case, through the real rules extractor ------------------------------------
@pytest.fixture(scope="module")
def rules() -> RuleExtractor:
    extractor = RuleExtractor()
    extractor.load()
    return extractor


def _tell(ingestor: Ingestor, tenant: str, month: int, text: str) -> None:
    ingestor.ingest(tenant, EpisodeInput(scope=MAYA, messages=[Message(
        id=f"m{month}", speaker="Maya", content=text,
        timestamp=datetime(2024, month, 1, tzinfo=UTC))]))


def _facts(store: GraphStore, tenant: str) -> dict[str, datetime | None]:
    """Each fact's text -> when it stopped holding (None: current)."""
    return {f.text: f.valid_until for f in store.list_facts(tenant, FactQuery(
        scope_keys=MAYA.visible_keys, time=TimeFilter(include_history=True)))}


def test_mel_is_melanie_and_her_new_job_supersedes(store: GraphStore, embedder: Embedder,
                                                   rules: RuleExtractor, tenant: str) -> None:
    ingestor = Ingestor(store, rules, embedder)
    _tell(ingestor, tenant, 2, "My sister Melanie works at Google.")
    _tell(ingestor, tenant, 6, "Mel just got a job at Microsoft.")
    _tell(ingestor, tenant, 7, "My sister Mel is moving to Rome.")

    facts = _facts(store, tenant)
    assert facts["Melanie works at Google."] == datetime(2024, 6, 1, tzinfo=UTC)
    assert facts["Mel works at Microsoft."] is None
    assert [t for t in facts if "sister" in t] == ["Melanie is Maya's sister."]
    people = [e for e in store.find_entities(tenant, MAYA.visible_keys, ["mel", "melanie"])]
    assert [(e.name, e.aliases) for e in people] == [("Melanie", ["Mel"])]


def test_a_short_form_in_another_relation_is_someone_else(store: GraphStore,
                                                          embedder: Embedder,
                                                          rules: RuleExtractor,
                                                          tenant: str) -> None:
    ingestor = Ingestor(store, rules, embedder)
    _tell(ingestor, tenant, 2, "My sister Melanie works at Google.")
    _tell(ingestor, tenant, 6, "My colleague Mel works at Microsoft.")

    facts = _facts(store, tenant)
    assert facts["Melanie works at Google."] is None
    assert facts["Mel works at Microsoft."] is None
    assert {e.name for e in store.find_entities(tenant, MAYA.visible_keys,
                                                ["mel", "melanie"])} == {"Mel", "Melanie"}


def test_a_full_name_said_by_another_speaker_is_not_someone_elses_relative(
        store: GraphStore, embedder: Embedder, rules: RuleExtractor, tenant: str) -> None:
    """In a group, Bianca's brother Tom is not the Tomasz Tadeo reports to: a full name
    said in no relation joins a short form only if its speaker spoke of that person."""
    ingestor = Ingestor(store, rules, embedder)
    group = Scope(group_id="club")
    for month, (speaker, text) in enumerate([("Bianca", "Tom is my brother."),
                                             ("Tadeo", "I work under Tomasz.")], start=2):
        ingestor.ingest(tenant, EpisodeInput(scope=group, messages=[Message(
            id=f"m{month}", speaker=speaker, content=text,
            timestamp=datetime(2024, month, 1, tzinfo=UTC))]))
    people = store.find_entities(tenant, group.visible_keys, ["tom", "tomasz"])
    assert sorted((e.name, e.aliases) for e in people) == [("Tom", []), ("Tomasz", [])]


def test_a_short_form_of_a_person_new_in_the_same_episode_is_that_person(
        store: GraphStore, embedder: Embedder, rules: RuleExtractor, tenant: str) -> None:
    """Both first heard in one message: "Mel" is the new Melanie, unless another new or
    known person could be meant or the two come in different relations."""
    ingestor = Ingestor(store, rules, embedder)
    _tell(ingestor, tenant, 2, "My sister Melanie lives in Paris. Mel just got a job at Microsoft.")
    people = store.find_entities(tenant, MAYA.visible_keys, ["mel", "melanie"])
    assert [(e.name, e.aliases) for e in people] == [("Melanie", ["Mel"])]
    works = store.list_facts(tenant, FactQuery(scope_keys=MAYA.visible_keys,
                                               predicates=["WORKS_AT"]))
    assert [f.subject_id for f in works] == [people[0].id]


@pytest.mark.parametrize("text", [
    "My sister Melanie lives in Paris. My friend Mel works at Microsoft.",
    "My sister Melanie lives in Paris and my friend Melissa lives in Rome. Mel works at Microsoft.",
])
def test_a_short_form_new_beside_others_it_may_not_mean_stays_apart(
        store: GraphStore, embedder: Embedder, rules: RuleExtractor, tenant: str,
        text: str) -> None:
    _tell(Ingestor(store, rules, embedder), tenant, 2, text)
    assert "Mel" in {e.name for e in store.find_entities(tenant, MAYA.visible_keys, ["mel"])}


@pytest.mark.parametrize("speaker", ["Sam", "Ben", "Zoe"])
def test_a_speaker_is_never_their_relative(store: GraphStore, embedder: Embedder,
                                           rules: RuleExtractor, tenant: str,
                                           speaker: str) -> None:
    """"i work at Tesco", "my brother works at Asda" in a first episode: "Sam" is no short
    form of "Sam's brother", so the brother's job does not end the speaker's."""
    scope = Scope(user_id=speaker.lower())
    Ingestor(store, rules, embedder).ingest(tenant, EpisodeInput(scope=scope, messages=[
        Message(id=f"m{i}", speaker=speaker, content=text,
                timestamp=datetime(2026, 1, 10, 20, i, tzinfo=UTC))
        for i, text in enumerate(["i work at Tesco", "my brother works at Asda"])]))
    current = store.list_facts(tenant, FactQuery(scope_keys=scope.visible_keys,
                                                 predicates=["WORKS_AT"]))
    assert {(f.subject_name, f.object_name) for f in current} == {
        (speaker, "Tesco"), (f"{speaker}'s brother", "Asda")}
    assert len({f.subject_id for f in current}) == 2
