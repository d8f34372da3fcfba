"""Facts that end without a new value: a pet's death by its name alone, a sport given up
(and the love of it), a divorce (and the partnership). Each ends on the day it was said,
in words that say so, on both stores, through the real rules extractor."""

from __future__ import annotations

from graphmem.ingest.pipeline import Ingestor
from graphmem.models import FactStatus
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, day
from tests.ingest.test_pipeline_change import ingestor, rules, slot, tell  # noqa: F401 (fixtures)


def test_a_life_of_endings(ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I love rock climbing.", "My boyfriend Tom is a chef.")
    tell(ingestor, tenant, 2, "We adopted a dog named Biscuit.")
    tell(ingestor, tenant, 4, "Tom and I got married.")
    tell(ingestor, tenant, 7, "Biscuit died.", "I stopped rock climbing.")
    tell(ingestor, tenant, 9, "Tom and I got divorced.")

    for predicate in ("HAS_PET", "LOVES", "HAS_PARTNER", "MARRIED_TO"):
        assert slot(store, tenant, predicate) == set(), predicate
    assert slot(store, tenant, "HAS_PET", as_of=day(6)) == {"Biscuit"}
    assert slot(store, tenant, "LOVES", as_of=day(6)) == {"rock climbing"}
    assert slot(store, tenant, "HAS_PARTNER", as_of=day(8)) == {"Tom"}
    assert slot(store, tenant, "MARRIED_TO", as_of=day(8)) == {"Tom"}
    history = store.list_facts(tenant, FactQuery(
        scope_keys=ALICE.visible_keys, predicates=["LOVES", "HAS_PARTNER"],
        time=TimeFilter(include_history=True)))
    assert {(f.predicate, f.valid_until) for f in history} == {("LOVES", day(7)),
                                                                ("HAS_PARTNER", day(9))}
    markers = store.list_facts(tenant, FactQuery(
        scope_keys=ALICE.visible_keys, predicates=["LOVES", "HAS_PARTNER"],
        statuses=[FactStatus.RETRACTION], time=TimeFilter(include_history=True)))
    assert sorted(m.text for m in markers) == ["Alice is no longer with Tom.",
                                               "Alice no longer loves rock climbing."]


def test_giving_up_one_pastime_leaves_the_others(ingestor: Ingestor, store: GraphStore,
                                                 tenant: str) -> None:
    tell(ingestor, tenant, 1, "I love hiking.", "I love rock climbing.")
    tell(ingestor, tenant, 3, "I stopped rock climbing.")
    assert slot(store, tenant, "LOVES") == {"hiking"}


def test_interest_lost_ends_the_hobby_and_the_love_of_it(ingestor: Ingestor, store: GraphStore,
                                                         tenant: str) -> None:
    tell(ingestor, tenant, 1, "I play chess every weekend and I love chess.", "I love hiking.")
    tell(ingestor, tenant, 3, "I lost interest in chess.")
    assert slot(store, tenant, "HOBBY") == set()
    assert slot(store, tenant, "LOVES") == {"hiking"}
    assert slot(store, tenant, "HOBBY", as_of=day(2)) == {"chess"}
    assert slot(store, tenant, "LOVES", as_of=day(2)) == {"chess", "hiking"}


def test_no_longer_liking_a_drink_ends_no_hobby(ingestor: Ingestor, store: GraphStore,
                                                tenant: str) -> None:
    tell(ingestor, tenant, 1, "I play chess every weekend.", "I love coffee.")
    tell(ingestor, tenant, 3, "I gave up coffee.")
    assert slot(store, tenant, "HOBBY") == {"chess"}
    assert slot(store, tenant, "LOVES") == set()


def test_a_car_sold_by_its_model_alone_is_no_longer_driven(ingestor: Ingestor, store: GraphStore,
                                                           tenant: str) -> None:
    """"sold the focus" ends "drives Ford Focus" (seen by a new user): people shorten what
    they own, and a sale ends driving it; "I sold my Ford Focus" ends it once."""
    tell(ingestor, tenant, 1, "I drive a Ford Focus.", "I own a bike.")
    tell(ingestor, tenant, 3, "moved to Bath last weekend, and sold the focus")
    assert slot(store, tenant, "DRIVES") == set()
    assert slot(store, tenant, "DRIVES", as_of=day(2)) == {"Ford Focus"}
    assert slot(store, tenant, "OWNS") == {"bike"}
    tell(ingestor, tenant, 5, "I drive a Ford Focus.")
    tell(ingestor, tenant, 7, "I sold my Ford Focus.")
    markers = store.list_facts(tenant, FactQuery(
        scope_keys=ALICE.visible_keys, predicates=["DRIVES"], statuses=[FactStatus.RETRACTION],
        time=TimeFilter(include_history=True)))
    assert sorted(m.valid_from for m in markers) == [day(3), day(7)]


def test_a_car_bought_in_place_of_a_sold_one_is_the_car(ingestor: Ingestor, store: GraphStore,
                                                        tenant: str) -> None:
    """"VW Golf" is a car, not the sport golf; bought in place of the Focus, it is driven."""
    tell(ingestor, tenant, 1, "I drive a Ford Focus.")
    tell(ingestor, tenant, 3, "I sold the Focus and bought a VW Golf")
    assert slot(store, tenant, "DRIVES") == {"VW Golf"}
    assert slot(store, tenant, "PLAYS_SPORT") == set()


def test_a_pastime_given_up_by_a_shorter_plural_name_ends(ingestor: Ingestor, store: GraphStore,
                                                          tenant: str) -> None:
    """"I have given up the watercolours" ends "watercolour painting" (a fourth trial: it
    stayed current): a plural of the name's first word is the pastime, as "the Focus" is
    the Ford Focus."""
    tell(ingestor, tenant, 1, "I have taken up watercolour painting at the community centre.",
         "I love hiking.")
    tell(ingestor, tenant, 3, "I have given up the watercolours, I am afraid.")
    assert slot(store, tenant, "HOBBY") == set()
    assert slot(store, tenant, "HOBBY", as_of=day(2)) == {"watercolour painting"}
    assert slot(store, tenant, "LOVES") == {"hiking"}


def test_a_move_made_ends_the_plan_to_make_it(ingestor: Ingestor, store: GraphStore,
                                              tenant: str) -> None:
    """"I am moving to Exeter" then "I am now settled in Exeter": the plan was carried out
    (a fourth trial had both current); a plan to move elsewhere stays."""
    tell(ingestor, tenant, 1, "I live in Bath.", "I am moving to Exeter in the autumn.",
         "I'm planning to move to Lisbon one day.")
    tell(ingestor, tenant, 5, "I am now settled in Exeter.")
    assert slot(store, tenant, "LIVES_IN") == {"Exeter"}
    assert slot(store, tenant, "PLANS") == {"move to Lisbon"}
    assert slot(store, tenant, "PLANS", as_of=day(3)) == {"move to Exeter", "move to Lisbon"}


def test_a_move_made_ends_a_plan_that_said_why(ingestor: Ingestor, store: GraphStore,
                                              tenant: str) -> None:
    """The sixth trial: "planning to move to Austin next month for the Datadog office" stayed
    current after "Moved to Austin last week"."""
    tell(ingestor, tenant, 1, "I live in Seattle.",
         "I'm planning to move to Austin next month for the Datadog office.")
    tell(ingestor, tenant, 4, "Moved to Austin last week.")
    assert slot(store, tenant, "PLANS") == set()
    assert slot(store, tenant, "LIVES_IN") == {"Austin"}


def test_a_job_accepted_ahead_replaces_the_old_one_when_it_starts(
        ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """The sixth trial: "Accepted an offer from Stripe, I start there next month" closed
    Shopify the day it was said."""
    tell(ingestor, tenant, 1, "I work at Shopify.")
    tell(ingestor, tenant, 3, "Accepted an offer from Stripe, I start there next month.")
    assert slot(store, tenant, "WORKS_AT", as_of=day(3)) == {"Shopify"}
    assert slot(store, tenant, "WORKS_AT", as_of=day(5)) == {"Stripe"}


def test_a_notice_served_ends_the_job_when_the_next_one_starts(ingestor: Ingestor,
                                                                store: GraphStore,
                                                                tenant: str) -> None:
    """"Handed in my notice. Starting at a bakery called Crumbs as head baker on 1 July.":
    the job held runs until the next one starts (tried by hand: it ended when the notice
    was given, and nothing was held for a month)."""
    tell(ingestor, tenant, 1, "I work at Tesco.")
    tell(ingestor, tenant, 6, "Handed in my notice. Starting at a bakery called Crumbs as head "
                              "baker on 1 July.")
    assert slot(store, tenant, "WORKS_AT", as_of=day(6, 15)) == {"Tesco"}
    assert slot(store, tenant, "WORKS_AT", as_of=day(7, 2)) == {"Crumbs"}
    assert slot(store, tenant, "JOB_TITLE", as_of=day(7, 2)) == {"head baker"}


def test_a_second_trial_of_endings(ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """The fifth new-user trial's sentences (2026-11-29): each had left its fact current."""
    tell(ingestor, tenant, 1, "My husband Geoffrey is retired.", "I'm learning Italian.")
    tell(ingestor, tenant, 2, "My gf Ava is lovely.", "I'm learning Japanese.")
    tell(ingestor, tenant, 4, "sophomore year now. dropped japanese, no time for it honestly")
    tell(ingestor, tenant, 5, "my gf Ava and I broke up today. kinda rough")
    tell(ingestor, tenant, 6, "My husband Geoffrey passed away last night, after a long illness.")
    tell(ingestor, tenant, 7, "I gave up Italian.")

    for predicate in ("HAS_PARTNER", "MARRIED_TO", "LEARNING"):
        assert slot(store, tenant, predicate) == set(), predicate
    assert slot(store, tenant, "HAS_PARTNER", as_of=day(4)) == {"Ava"}
    assert slot(store, tenant, "MARRIED_TO", as_of=day(5)) == {"Geoffrey"}
    assert slot(store, tenant, "LEARNING", as_of=day(3)) == {"Italian", "Japanese"}
    assert slot(store, tenant, "LEARNING", as_of=day(6)) == {"Italian"}


def test_a_death_ends_a_partner_only(ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "My sister Jo is a teacher.", "My wife Ann is a nurse.")
    tell(ingestor, tenant, 3, "My sister Jo passed away.", "Tom died.")
    assert slot(store, tenant, "HAS_SISTER") == {"Jo"}  # still a sister
    assert slot(store, tenant, "MARRIED_TO") == {"Ann"}  # another name's death ends no one



def test_the_trials_remaining_endings(ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    """Left current in the fifth trial: "engaged" beside the marriage that followed, and a
    husband whose death was said by his name alone."""
    tell(ingestor, tenant, 1, "Daniel proposed last night and I said yes! We're engaged.")
    tell(ingestor, tenant, 3, "Daniel and I got married on Saturday!")
    assert slot(store, tenant, "RELATIONSHIP_STATUS", as_of=day(2)) == {"engaged"}
    assert slot(store, tenant, "HAS_PARTNER", as_of=day(2)) == {"Daniel"}
    assert slot(store, tenant, "RELATIONSHIP_STATUS") == set()
    assert slot(store, tenant, "MARRIED_TO") == {"Daniel"}
    tell(ingestor, tenant, 6, "Daniel passed away in the spring.")
    assert slot(store, tenant, "MARRIED_TO") == set()
    assert slot(store, tenant, "MARRIED_TO", as_of=day(5)) == {"Daniel"}


def test_a_partner_ends_being_single(ingestor: Ingestor, store: GraphStore, tenant: str) -> None:
    tell(ingestor, tenant, 1, "I'm single.")
    tell(ingestor, tenant, 3, "I'm dating Priya.")
    assert slot(store, tenant, "RELATIONSHIP_STATUS", as_of=day(2)) == {"single"}
    assert slot(store, tenant, "RELATIONSHIP_STATUS") == set()
    assert slot(store, tenant, "HAS_PARTNER") == {"Priya"}
