"""A job title and a manager end with the job they were held in, and "I left Acme" ends
the job even when the words read Acme as a town. With the real rules extractor and the
structured path, on both stores."""

from __future__ import annotations

from graphmem.ingest.held_with import slots
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Cardinality, FactStatus
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter, timeline_key
from tests.ingest.helpers import ALICE, day, fact
from tests.ingest.test_pipeline_change import ingestor, rules, slot, tell  # noqa: F401 (fixtures)


def test_leaving_the_job_ends_its_title_and_manager(ingestor: Ingestor, store: GraphStore,
                                                     tenant: str) -> None:
    tell(ingestor, tenant, 1, "I work at Acme as a team lead.")
    tell(ingestor, tenant, 2, "My manager is Tom.")
    tell(ingestor, tenant, 6, "I quit my job at Acme.")

    assert slot(store, tenant, "WORKS_AT") == set()
    assert slot(store, tenant, "JOB_TITLE") == set()
    assert slot(store, tenant, "REPORTS_TO") == set()
    assert slot(store, tenant, "JOB_TITLE", as_of=day(5)) == {"team lead"}
    assert slot(store, tenant, "REPORTS_TO", as_of=day(5)) == {"Tom"}
    title = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys, predicates=[
        "JOB_TITLE"], time=TimeFilter(include_history=True)))
    assert [(f.valid_until, f.retraction is not None) for f in title] == [(day(6), True)]


def test_a_new_employer_ends_the_old_title_unless_the_message_gives_one(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I work at Acme as a team lead.")
    tell(ingestor, tenant, 6, "I work at Figma now.")
    assert slot(store, tenant, "WORKS_AT") == {"Figma"}
    assert slot(store, tenant, "JOB_TITLE") == set()

    tell(ingestor, tenant, 8, "I joined Initech as a designer.")
    assert slot(store, tenant, "JOB_TITLE") == {"designer"}
    assert slot(store, tenant, "JOB_TITLE", as_of=day(3)) == {"team lead"}


def test_what_was_said_while_no_employer_was_known_belongs_to_no_job(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I'm a nurse.", "My manager is Henrik.")
    tell(ingestor, tenant, 3, "I work at Mercy Hospital now.")
    tell(ingestor, tenant, 5, "I started at St Mary's Clinic on Monday!")
    tell(ingestor, tenant, 8, "I left St Mary's Clinic last month.")
    assert slot(store, tenant, "WORKS_AT") == set()
    assert slot(store, tenant, "JOB_TITLE") == {"nurse"}
    assert slot(store, tenant, "REPORTS_TO") == {"Henrik"}


def test_the_ending_does_not_depend_on_arrival_order(ingestor: Ingestor, store: GraphStore,
                                                     tenant: str) -> None:
    """The job change arrives first; the title learned before it arrives later and ends."""
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 1)])
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Figma", 6)])
    ingestor.add_facts(tenant, [fact("JOB_TITLE", "team lead", 2)])

    assert slot(store, tenant, "JOB_TITLE") == set()
    assert slot(store, tenant, "JOB_TITLE", as_of=day(4)) == {"team lead"}
    # applying it all again changes nothing: the ending is recorded once
    again = ingestor.add_facts(tenant, [fact("JOB_TITLE", "team lead", 2)])
    assert again.created == [] and again.retracted == []
    markers = store.list_facts(tenant, FactQuery(
        scope_keys=ALICE.visible_keys, predicates=["JOB_TITLE"],
        statuses=[FactStatus.RETRACTION], time=TimeFilter(include_history=True)))
    assert len(markers) == 1


def test_left_names_the_job_when_the_words_read_a_town(ingestor: Ingestor, store: GraphStore,
                                                       tenant: str) -> None:
    """The small parser reads "Acme" as a place; the job at Acme is what Alice held."""
    tell(ingestor, tenant, 1, "I work at Acme.", "I live in Lisbon.")
    tell(ingestor, tenant, 6, "I left Acme.")
    assert slot(store, tenant, "WORKS_AT") == set()
    assert slot(store, tenant, "LIVES_IN") == {"Lisbon"}

    tell(ingestor, tenant, 7, "I left Lisbon.")
    assert slot(store, tenant, "LIVES_IN") == set()


def test_leaving_a_job_named_short_ends_the_job_of_the_full_name(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    # people shorten names when they end them: "left Nimbus" after "Nimbus Cloudworks"
    tell(ingestor, tenant, 1, "I joined Nimbus Cloudworks as a solutions architect.")
    tell(ingestor, tenant, 6, "I left Nimbus, I'm freelancing for now.")
    assert slot(store, tenant, "WORKS_AT") == set()
    assert slot(store, tenant, "JOB_TITLE") == set()
    assert slot(store, tenant, "WORKS_AT", as_of=day(5)) == {"Nimbus Cloudworks"}


def test_a_name_that_only_shares_a_word_with_the_job_ends_nothing(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 2, "I work at Acme Labs.")
    tell(ingestor, tenant, 6, "I left Acme Corp.")  # not a shortening of Acme Labs
    assert slot(store, tenant, "WORKS_AT") == {"Acme Labs"}


def test_a_dated_leaving_ahead_keeps_the_job_until_its_day(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I work at Acme as a team lead.")
    tell(ingestor, tenant, 3, "I will leave Acme next month.")  # said 1 March: ends 1 April
    assert slot(store, tenant, "WORKS_AT", as_of=day(3, 20)) == {"Acme"}
    assert slot(store, tenant, "WORKS_AT", as_of=day(4, 2)) == set()
    assert slot(store, tenant, "JOB_TITLE", as_of=day(4, 2)) == set()


def test_a_job_and_what_is_held_within_it_are_found_from_either_side() -> None:
    registry = PredicateRegistry()
    family = registry.spec("WORKS_AT").family
    job = timeline_key("u:maya", "e1", family, Cardinality.ONE, "")
    title = timeline_key("u:maya", "e1", registry.spec("JOB_TITLE").family,
                         Cardinality.ONE, "")
    hobby = timeline_key("u:maya", "e1", registry.spec("PLAYS").family,
                         registry.spec("PLAYS").cardinality, "o1")
    from_job, from_title = slots(registry, [job]), slots(registry, [title])
    assert from_job == from_title
    assert title in from_job[job]
    assert slots(registry, [hobby]) == {}


def test_a_new_employer_said_with_the_same_role_keeps_the_title(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I'm a paralegal at Hartley Law.")
    tell(ingestor, tenant, 6, "moved over to Brennan Keane last week, kept my title")
    assert slot(store, tenant, "WORKS_AT") == {"Brennan Keane"}
    assert slot(store, tenant, "JOB_TITLE") == {"paralegal"}
    tell(ingestor, tenant, 9, "I work at Figma now.")  # without it, the title ends as before
    assert slot(store, tenant, "JOB_TITLE") == set()
