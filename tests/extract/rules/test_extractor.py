"""RuleExtractor end to end: the product's examples, speakers, provenance, loading, gold set."""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime

import pytest

from graphmem.errors import ExtractionError
from graphmem.extract.base import SELF, CandidateFact, Extraction
from graphmem.extract.rules import RuleExtractor
from graphmem.models import Message
from tests.extract.rules.cases import PRODUCT_EXAMPLES
from tests.extract.rules.conftest import (
    REF, Triple, episode, fact, gold_rows, said, triples)


@pytest.mark.parametrize(("text", "speaker", "expected"), PRODUCT_EXAMPLES)
def test_product_examples(extractor: RuleExtractor, text: str, speaker: str | None,
                          expected: set[Triple]) -> None:
    assert triples(said(extractor, text, speaker=speaker)) == expected


def test_entities_have_types(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "I moved to Berlin and I use Kubernetes. My sister Anna is a "
                                 "nurse.", speaker="Alice")
    types = {e.name: e.type for e in extraction.entities}
    assert types["Alice"] == "person" and types["Anna"] == "person"
    assert types["Berlin"] == "place" and types["Kubernetes"] == "technology"


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
        said(extractor, "I live in Seattle.", speaker=None))
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
    # person still worked there during it (see extractor._interval)
    assert retract.valid_from == datetime(2024, 6, 10, tzinfo=UTC)


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


def test_gold_set_shape() -> None:
    rows = gold_rows()
    assert len(rows) >= 100
    assert sum(r["split"] == "test" for r in rows) >= 0.2 * len(rows)
    assert sum(not r["facts"] for r in rows) >= 20
    for r in rows:
        for f in r["facts"]:  # type: ignore[attr-defined]
            assert set(f) - {"valid_from"} == {"subject", "predicate", "object", "action"}
            assert re.match(r"^[A-Z][A-Z0-9_]*$", f["predicate"])


def test_gold_set_quality_floor(extractor: RuleExtractor) -> None:
    """Exact-match floor, well under the measured figures, to catch regressions."""
    tp = fp = fn = 0
    for r in gold_rows():
        got = triples(said(extractor, str(r["text"]), speaker=r["speaker"]))  # type: ignore[arg-type]
        want = {(f["subject"], f["predicate"], f["object"], f["action"])
                for f in r["facts"]}  # type: ignore[attr-defined]
        tp += len(got & want)
        fp += len(got - want)
        fn += len(want - got)
    assert tp / (tp + fp) >= 0.85 and tp / (tp + fn) >= 0.8


@pytest.mark.parametrize("text", [
    "I'm on a Galaxy S23.",
    "I have a Galaxy S23, if that helps.",
    "got a Galaxy S23 as a birthday present, so that's my phone now",
])
def test_a_name_the_tagger_took_with_its_article_is_the_name(extractor: RuleExtractor,
                                                              text: str) -> None:
    # the small model tags "a Galaxy S23" as one WORK_OF_ART: "a Galaxy S23" is no phone
    assert ("Bob", "HAS_PHONE", "Galaxy S23", "assert") in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Ignore what I said about Philips, the company I joined is Mercado Libre.",
     ("Bob", "WORKS_AT", "Mercado Libre", "assert")),
    ("I'm not using the Galaxy S23 anymore; doing a no-smartphone experiment.",
     ("Bob", "HAS_PHONE", "Galaxy S23", "retract")),
    ("I gave up coding, so no main language now", ("Bob", "MAIN_LANGUAGE", "", "retract")),
])
def test_a_statement_after_a_disclaimer_or_in_passing(extractor: RuleExtractor, text: str,
                                                      expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Chidi works at Google.", ("Chidi", "WORKS_AT", "Google", "assert")),
    ("Chidi is at Google now.", ("Chidi", "WORKS_AT", "Google", "assert")),
    ("Tunde is at Deloitte now.", ("Tunde", "WORKS_AT", "Deloitte", "assert")),
    ("Anh works at Grab.", ("Anh", "WORKS_AT", "Grab", "assert")),
    ("Siobhan works at Aldi.", ("Siobhan", "WORKS_AT", "Aldi", "assert")),
    ("Xochitl lives in Oaxaca.", ("Xochitl", "LIVES_IN", "Oaxaca", "assert")),
])
def test_a_name_no_dictionary_knows_is_someone_as_a_subject(extractor: RuleExtractor, text: str,
                                                           expected: Triple) -> None:
    """The tagger reads names it has not seen as common nouns ("Chidi", "Tunde") or places
    ("Siobhan"); these sentences stored nothing."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Work is at nine tomorrow.", "London is lovely in May.",
                                  "Dinner is at eight."])
def test_a_word_the_dictionary_or_gazetteer_knows_is_no_stranger(extractor: RuleExtractor,
                                                                 text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[0] in ("Work", "London", "Dinner")}


@pytest.mark.parametrize(("text", "expected"), [
    # the sixth new-user trial (2026-11-29), each had stored nothing or the wrong fact
    ("I am working in Siemens since 2019 as electrical engineer",
     ("Bob", "WORKS_AT", "Siemens", "assert")),
    ("I work in finance at Barclays.", ("Bob", "WORKS_AT", "Barclays", "assert")),
    ("I work in a hospital.", ("Bob", "WORKS_AT", "hospital", "assert")),
    ("From this month I am vegetarian, I am not eating meat anymore.",
     ("Bob", "DIET", "vegetarian", "assert")),
    ("me and jayden r officially dating 💕💕", ("Bob", "HAS_PARTNER", "Jayden", "assert")),
    ("hey im zoe lol", ("Bob", "IS_NAMED", "Zoe", "assert")),
    ("Tom just switched jobs, he's at KPMG now.", ("Tom", "WORKS_AT", "KPMG", "assert")),
    ("Tom switched jobs. He's at KPMG now.", ("Tom", "WORKS_AT", "KPMG", "assert")),
    ("omg just got a puppy!!! 🐶 his name is biscuit", ("Bob", "HAS_PET", "Biscuit", "assert")),
    ("yay, finally moved to Leeds", ("Bob", "LIVES_IN", "Leeds", "assert")),
    ("Since two months I am playing chess in club every Tuesday.",
     ("Bob", "HOBBY", "chess", "assert")),
    ("Yesterday I have bought a car, it is Skoda Octavia",
     ("Bob", "DRIVES", "Skoda Octavia", "assert")),
    ("I got a new phone, it's a Pixel 8.", ("Bob", "HAS_PHONE", "Pixel 8", "assert")),
    ("Writing mostly Go now instead of Ruby.", ("Bob", "MAIN_LANGUAGE", "Go", "assert")),
    ("Also switched from Neovim to Zed.", ("Bob", "USES", "Zed", "assert")),  # Zed: a person
    ("hey im zoe lol. omg just got a puppy!!! 🐶 his name is biscuit",
     ("Bob", "HAS_PET", "Biscuit", "assert")),
    # the fifth trial: a street, no town
    ("I moved into a small flat on Great Pulteney Street last month.",
     ("Bob", "LIVES_IN", "Great Pulteney Street", "assert")),
    ("I live on Baker Street now.", ("Bob", "LIVES_IN", "Baker Street", "assert")),
    # a home named by the town or district it is in
    ("Moved into the Kensington flat on Saturday, so many boxes",
     ("Bob", "LIVES_IN", "Kensington", "assert")),
])
def test_the_sixth_trials_sentences(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I work in London.", "I work in IT.", "I work in an office.", "I work in tech.",
    "Tom and Mia came over. She works at Google now.",  # two named: she is not Tom
    "Anna told Tom she got the job at Google.", "He works at Google.",
])
def test_no_workplace_or_no_one_to_hold_it(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == "WORKS_AT" and t[0] != "Anna"}


def test_a_clause_beside_a_negated_one_keeps_its_diet(extractor: RuleExtractor) -> None:
    """"I am not eating meat anymore" had ended the vegetarian diet said before the comma."""
    found = triples(said(extractor, "From this month I am vegetarian, I am not eating meat anymore."))
    assert ("Bob", "DIET", "vegetarian", "retract") not in found


@pytest.mark.parametrize("text", ["I'm playing chess with Tom tonight.", "I bought a car, it is red.",
                                  "I moved into a flat on the top floor.", "I live on the coast."])
def test_one_evening_a_colour_or_a_floor_is_no_value(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("HOBBY", "DRIVES", "LIVES_IN")}


@pytest.mark.parametrize(("text", "wrong"), [
    # found by a review of this round's rules (2026-11-29): each was stored
    ("Sarah's husband is great. He works at Tesla.", ("Sarah", "WORKS_AT", "Tesla")),
    ("Tom's mum is lovely, she works at Tesco.", ("Tom", "WORKS_AT", "Tesco")),
    ("Tom and his wife came over. She works at Apple.", ("Tom", "WORKS_AT", "Apple")),
    ("Emma and her boyfriend visited. He lives in Leeds.", ("Emma", "LIVES_IN", "Leeds")),
    ("Tom finally proposed! Anna said yes!", ("Bob", "HAS_PARTNER", "Tom")),
    ("Tom proposed in the meeting and the board agreed.", ("Bob", "HAS_PARTNER", "Tom")),
    ("My dad bought a new car, it is a BMW X5.", ("Bob", "DRIVES", "BMW X5")),
    ("I found a phone on the bus, it is an iPhone 12.", ("Bob", "HAS_PHONE", "iPhone 12")),
    ("We rented a car for the trip, it is a Fiat 500.", ("Bob", "DRIVES", "Fiat 500")),
    ("Geoffrey died laughing at my joke.", ("Bob", "MARRIED_TO", "Geoffrey")),
    ("Geoffrey died in the game again.", ("Bob", "MARRIED_TO", "Geoffrey")),
    ("Geoffrey dies at the end of the book.", ("Bob", "MARRIED_TO", "Geoffrey")),
    ("We live on Elm Road in Leeds.", ("Bob", "LIVES_IN", "Elm Road")),
    ("I work in Google Sheets.", ("Bob", "WORKS_AT", "Google Sheets")),
    ("I work in the kitchen.", ("Bob", "WORKS_AT", "kitchen")),
    ("I work in Xero for the accounts.", ("Bob", "WORKS_AT", "accounts")),
    ("Gymshark is from Birmingham.", ("Gymshark", "IS_FROM", "Birmingham")),
    ("Working at Google these days sounds stressful.", ("Bob", "WORKS_AT", "Google")),
    ("Learning Spanish now would be smart.", ("Bob", "LEARNING", "Spanish")),
    ("I'm always playing the bad guy.", ("Bob", "HOBBY", "bad guy")),
    ("I'm playing the piano for each guest tonight.", ("Bob", "HOBBY", "piano")),
])
def test_what_the_review_found_stored_wrongly(extractor: RuleExtractor, text: str,
                                             wrong: tuple[str, str, str]) -> None:
    assert (*wrong, "assert") not in triples(said(extractor, text)) and (
        *wrong, "retract") not in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "kept"), [
    ("i code in r and python", ("Bob", "USES", "Python", "assert")),
    ("I'm learning r.", ("Bob", "LEARNING", "r", "assert")),
    ("I'm a jr. developer at Spotify now.", ("Bob", "WORKS_AT", "Spotify", "assert")),
    ("I work as a vet. nurse in leeds", ("Bob", "JOB_TITLE", "vet. nurse", "assert")),
    ("We live on Elm Road in Leeds.", ("Bob", "LIVES_IN", "Leeds", "assert")),
    ("My brother Tom is great, he works at Google.", ("Tom", "WORKS_AT", "Google", "assert")),
])
def test_what_the_review_found_lost(extractor: RuleExtractor, text: str, kept: Triple) -> None:
    assert kept in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I gave the wrong answer in the pub quiz last night. Anyway, I'm vegan now, not vegetarian.",
    "My son typed the wrong password again. I work at Hooli now, not Initech.",
])
def test_a_mistake_about_something_else_corrects_nothing(extractor: RuleExtractor,
                                                         text: str) -> None:
    assert not [f for f in said(extractor, text).facts if f.corrects]


@pytest.mark.parametrize(("text", "start"), [
    # the sixth trial: the job was stored from when it was said, and the one it replaced
    # ended then; "starting in August" was last August (read with "accepted")
    ("Accepted an offer from Stripe, I start there next month.", datetime(2024, 7, 1, tzinfo=UTC)),
    ("I accepted the offer from Stripe. I start next month.", datetime(2024, 7, 1, tzinfo=UTC)),
    ("I got a job at Stripe, starting next month.", datetime(2024, 7, 1, tzinfo=UTC)),
    ("I accepted a job at Stripe starting in August.", datetime(2024, 8, 1, tzinfo=UTC)),
    ("I got a job at Stripe! My sister starts in September.", REF),  # hers, not the job's
])
def test_a_job_got_starts_when_the_speaker_says_it_does(extractor: RuleExtractor, text: str,
                                                       start: datetime) -> None:
    [job] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert job.valid_from == start


@pytest.mark.parametrize(("text", "expected"), [
    # the seventh new-user trial (2026-11-29): each was missed
    ("I moved into my new flat in Leicester last Saturday.",
     ("Bob", "LIVES_IN", "Leicester", "assert")),
    ("I have type 2 diabetes, so I've got to cut back on sugar.",
     ("Bob", "HAS_CONDITION", "type 2 diabetes", "assert")),
    ("I switched from Photoshop to Procreate for my sketching.",
     ("Bob", "USES", "Procreate", "assert")),
    ("I'm a freelance illustrator based in Bristol.", ("Bob", "LIVES_IN", "Bristol", "assert")),
    ("quit costa, way too many shifts", ("Bob", "WORKS_AT", "Costa", "retract")),
    ("I've had to stop the bowls, my hip's playing up.", ("Bob", "LIKES", "bowls", "retract")),
    ("We got two guinea pigs, Salt and Pepper.", ("Bob", "HAS_PET", "Pepper", "assert")),
])
def test_the_seventh_trials_sentences(extractor: RuleExtractor, text: str,
                                      expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    # the seventh new-user trial: each was stored
    ("Our greyhound Pixel died on Saturday.", ("Bob", "HAS_PHONE", "greyhound Pixel")),
    ("I moved all my vector work to Illustrator.", ("Bob", "LIVES_IN", "Illustrator")),
    ("We got two guinea pigs, Salt and Pepper.", ("Bob", "HAS_PET", "Salt and Pepper")),
    ("My late wife Margaret loved the garden.", ("Bob", "MARRIED_TO", "Margaret", "assert")),
    ("I moved my mum to Leeds.", ("Bob", "LIVES_IN", "Leeds")),
    ("left uni last year, work is better", ("Bob", "LIVES_IN", "Uni")),
])
def test_what_the_seventh_trial_found_stored_wrongly(extractor: RuleExtractor, text: str,
                                                     wrong: tuple[str, ...]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:len(wrong)] == wrong}


def test_guinea_pigs_named_together_are_two_guinea_pigs(extractor: RuleExtractor) -> None:
    pets = [f for f in said(extractor, "We got two guinea pigs, Salt and Pepper.").facts
            if f.predicate == "HAS_PET"]
    assert sorted((f.object, f.text) for f in pets) == [
        ("Pepper", "Bob has a guinea pig named Pepper."),
        ("Salt", "Bob has a guinea pig named Salt.")]


@pytest.mark.parametrize(("text", "start"), [
    # a start said with no "on" or "in": "starting 2 February", "starting Monday"
    ("I've accepted a job at Beaumont Hospital in the ICU, starting 2 February.",
     datetime(2025, 2, 2, tzinfo=UTC)),
    ("I got a job at Stripe, starting Monday.", datetime(2024, 6, 17, tzinfo=UTC)),
    ("I got a job at Stripe, starting March 3rd.", datetime(2025, 3, 3, tzinfo=UTC)),
])
def test_a_job_starting_on_a_bare_date(extractor: RuleExtractor, text: str,
                                       start: datetime) -> None:
    [job] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert job.valid_from == start


@pytest.mark.parametrize("text", ["Scratch that, I never worked at Acme.",
                                  "I never worked at Acme."])
def test_a_denial_that_it_ever_held_corrects(extractor: RuleExtractor, text: str) -> None:
    [ending] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert ending.action == "retract" and ending.corrects


@pytest.mark.parametrize("text", [
    "I quit Acme.", "I never got on with my boss, so I quit Acme.",
    "I never liked the commute, so I quit my job at Acme.", "Forget that, I quit Acme.",
    "Ignore that, I left Acme yesterday."])
def test_leaving_a_job_is_no_denial_that_it_held(extractor: RuleExtractor, text: str) -> None:
    """A never that explains the leaving, or a change of subject, says the job held until
    now (the review found each erased the job's history)."""
    [ending] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert ending.action == "retract" and not ending.corrects


@pytest.mark.parametrize(("text", "expected"), [
    # more of the seventh trial's sentences
    ("im officially a computer science student now",
     ("Bob", "LEARNING", "computer science", "assert")),
    ("I'm doing online tutoring for a company called MyTutor.",
     ("Bob", "WORKS_AT", "MyTutor", "assert")),
    ("I'm freelancing for Acme now.", ("Bob", "WORKS_AT", "Acme", "assert")),
    ("Dan got a placement at the BBC.", ("Dan", "WORKS_AT", "BBC", "assert")),
    ("My grandchildren are Poppy and Oliver.", ("Bob", "HAS_RELATIVE", "Oliver", "assert")),
    ("Jo is my best friend. She's a photographer.", ("Jo", "JOB_TITLE", "photographer", "assert")),
    ("My grandchildren Poppy and Oliver came for tea.",
     ("Bob", "HAS_RELATIVE", "Oliver", "assert")),
    ("I live with my flatmates Dan and Priya.", ("Bob", "HAS_FRIEND", "Priya", "assert")),
    ("My new flatmates are Josh and Amira.", ("Bob", "HAS_FRIEND", "Amira", "assert")),
])
def test_more_of_the_seventh_trials_sentences(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    ("I'm a first year student.", ("Bob", "LEARNING")),
    ("I was a law student.", ("Bob", "LEARNING")),
    ("I do the shopping for my mum.", ("Bob", "WORKS_AT")),
    ("I did some work for Acme last year.", ("Bob", "WORKS_AT")),
    ("I'm volunteering as a mentor for a local school.", ("Bob", "WORKS_AT")),
    ("My sister Anna and Tom came over.", ("Bob", "HAS_SISTER", "Tom")),
])
def test_no_study_job_or_relative_where_none_was_said(extractor: RuleExtractor, text: str,
                                                      wrong: tuple[str, ...]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:len(wrong)] == wrong}


@pytest.mark.parametrize(("text", "expected"), [
    # from blind4's tune half (tuned on; its holdout was not read)
    ("I got poached by Mozilla, so I'm no longer at Siemens.",
     ("Bob", "WORKS_AT", "Mozilla", "assert")),
    ("My employer, Nubank, is trialling a four-day week, which is nice.",
     ("Bob", "WORKS_AT", "Nubank", "assert")),
    ("My last day at Airbus was Friday; I'm now with Adyen.",
     ("Bob", "WORKS_AT", "Adyen", "assert")),
    ("My Galaxy S22 was stolen and I'm not replacing it — phone-free for now.",
     ("Bob", "HAS_PHONE", "Galaxy S22", "retract")),
    ("Gave up my Galaxy S21 FE; there's no phone in my life at the moment.",
     ("Bob", "HAS_PHONE", "Galaxy S21 FE", "retract")),
    ("Switched sports: it's ultimate frisbee for me now.",
     ("Bob", "PLAYS_SPORT", "ultimate frisbee", "assert")),
    ("No more Perl for me, I don't code at all these days.",
     ("Bob", "MAIN_LANGUAGE", "Perl", "retract")),
    ("I don't code at all these days.", ("Bob", "MAIN_LANGUAGE", "", "retract")),
])
def test_blind4_tune_sentences(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    ("My old employer, Acme, went bust.", ("Bob", "WORKS_AT")),
    ("Mum let me go on my last day of school.", ("Bob", "WORKS_AT")),
    ("My parents let me go.", ("Bob", "WORKS_AT")),
    ("My Pixel 8 didn't break when I dropped it.", ("Bob", "HAS_PHONE", "Pixel 8", "retract")),
    ("I might sell my Honda Civic.", ("Bob", "DRIVES")),
    ("Someday I'll live in Kyoto, mark my words.", ("Bob", "LIVES_IN")),
    ("I will live in Leeds.", ("Bob", "LIVES_IN")),
    ("Switched sports: it's ultimate frisbee for me now.",
     ("Bob", "PLAYS_SPORT", "it's ultimate frisbee for me")),
    ("It's not true that I live in Leeds.", ("Bob", "LIVES_IN", "Leeds", "assert")),
])
def test_blind4_tune_misreadings_not_made(extractor: RuleExtractor, text: str,
                                          wrong: tuple[str, ...]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:len(wrong)] == wrong}


@pytest.mark.parametrize(("text", "kept"), [
    # a review of this round's rules (2026-11-29): each was lost
    ("I just got an iPhone 15, my dog already chewed the case.",
     ("Bob", "HAS_PHONE", "iPhone 15", "assert")),
    ("I married Dave last year and we just got a puppy, Dave is obsessed with her.",
     ("Bob", "MARRIED_TO", "Dave", "assert")),
    ("I had coffee with Siobhan, she's at Google now.",
     ("Siobhan", "WORKS_AT", "Google", "assert")),
    ("I bumped into Chidi, he works at Deloitte now.", ("Chidi", "WORKS_AT", "Deloitte", "assert")),
    ("i work at samsung", ("Bob", "WORKS_AT", "Samsung", "assert")),
    ("just got a job at tesla", ("Bob", "WORKS_AT", "Tesla", "assert")),
    ("I've moved on from vegetarian to vegan.", ("Bob", "DIET", "vegan", "assert")),
    ("I've moved on from Python to Rust at work.", ("Bob", "MAIN_LANGUAGE", "Rust", "assert")),
    ("I moved my two cats to Leeds with me.", ("Bob", "LIVES_IN", "Leeds", "assert")),
    ("I left Canva last week, too much stress.", ("Bob", "WORKS_AT", "Canva", "retract")),
    ("My partner Miro works at Google.", ("Bob", "HAS_PARTNER", "Miro", "assert")),
    ("I work as an Illustrator.", ("Bob", "JOB_TITLE", "Illustrator", "assert")),
])
def test_what_the_review_of_this_round_found_lost(extractor: RuleExtractor, text: str,
                                                  kept: Triple) -> None:
    assert kept in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    # a review of this round's rules: each was stored
    ("That podcast really fired me up.", ("Bob", "WORKS_AT")),
    ("My boss let me go on holiday in August.", ("Bob", "WORKS_AT")),
    ("My manager let me go after lunch, so I went to the gym.", ("Bob", "WORKS_AT")),
    ("My boss let me go in the end, so I'm off to Tenerife next week!", ("Bob", "WORKS_AT")),
    ("My client fired me.", ("Bob", "WORKS_AT")),
    ("My trainer fired me from the programme, lol.", ("Bob", "WORKS_AT")),
    ("Coach let me go from the team.", ("Bob", "WORKS_AT")),
    ("Today was my last day at work before my holiday.", ("Bob", "WORKS_AT")),
    ("Omg! She got a job at Tesco!", ("Omg", "WORKS_AT")),
    ("Edinburgh was freezing. He lives in Glasgow now.", ("Edinburgh", "LIVES_IN")),
    ("Amazon delivered the wrong thing. He's at Microsoft now.", ("Amazon", "WORKS_AT")),
    ("I'm Catholic, so Christmas is a big deal for us.", ("Bob", "IS_NAMED")),
    ("I'm Muslim so I don't drink.", ("Bob", "IS_NAMED")),
    ("I'm Nigerian but I grew up in London.", ("Bob", "IS_NAMED")),
    ("I'm Vegetarian, by the way.", ("Bob", "IS_NAMED")),
    ("I'm Diabetic, so no sugar please.", ("Bob", "IS_NAMED")),
    ("I'm Skint.", ("Bob", "IS_NAMED")),
    ("I'm Tom's manager.", ("Bob", "IS_NAMED")),
    ("left manchester for a new job in leeds", ("Bob", "WORKS_AT", "Manchester")),
    ("i quit netflix to save money, pay cut at work", ("Bob", "WORKS_AT")),
    ("I've moved on from Tesco, I shop at Aldi now.", ("Bob", "WORKS_AT")),
    ("I've moved on from the Honda, I drive a Tesla now.", ("Bob", "WORKS_AT")),
    ("I'm doing the design for my sister's wedding invitations.", ("Bob", "WORKS_AT")),
    ("I'm doing design work for Sarah.", ("Bob", "WORKS_AT")),
    ("I'm doing work for Oxfam as a volunteer.", ("Bob", "WORKS_AT")),
    ("I'm a graduate student.", ("Bob", "LEARNING")),
    ("I'm a Cambridge student.", ("Bob", "LEARNING")),
    ("I'm a sixth form student.", ("Bob", "LEARNING")),
    ("I got laid off. I'm at Leeds now, staying with my parents.", ("Bob", "WORKS_AT", "Leeds")),
    ("I'm a nurse based in the ICU at St James's.", ("Bob", "LIVES_IN")),
    ("I'm worried I have type 2 diabetes.", ("Bob", "HAS_CONDITION")),
    ("I have type 2 diabetes in the family, so I'm careful.", ("Bob", "HAS_CONDITION")),
])
def test_what_the_review_of_this_round_found_stored_wrongly(extractor: RuleExtractor, text: str,
                                                            wrong: tuple[str, ...]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:len(wrong)] == wrong}


@pytest.mark.parametrize(("text", "start"), [
    # a job dated by a time of its own, or no new job, keeps its start
    ("I work at Stripe, starting Monday I'm on nights.", REF),
    ("I got a job at Stripe last month, starting Monday I'm on the night shift.",
     datetime(2024, 5, 1, tzinfo=UTC)),
    ("I got a job at Stripe starting Monday and I'm starting my diet tomorrow.",
     datetime(2024, 6, 17, tzinfo=UTC)),
])
def test_a_start_said_beside_another_time_moves_no_job(extractor: RuleExtractor, text: str,
                                                       start: datetime) -> None:
    [job] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert job.valid_from == start


@pytest.mark.parametrize(("text", "expected"), [
    # a second review of this round's rules: each was lost
    ("The company let me go on Friday, so I'm job hunting.", ("Bob", "WORKS_AT", "", "retract")),
    ("My boss let me go in March.", ("Bob", "WORKS_AT", "", "retract")),
    ("My supervisor fired me.", ("Bob", "WORKS_AT", "", "retract")),
    ("I'm Adrian.", ("Bob", "IS_NAMED", "Adrian", "assert")),
    ("Hi, I'm Tristan.", ("Bob", "IS_NAMED", "Tristan", "assert")),
    ("Hi, I'm Jamal.", ("Bob", "IS_NAMED", "Jamal", "assert")),
    ("My last day at Tesco is December 23rd, just before Christmas.",
     ("Bob", "WORKS_AT", "Tesco", "retract")),
    ("i quit costa, hated the work", ("Bob", "WORKS_AT", "Costa", "retract")),
    ("left asda, the hours were killing me", ("Bob", "WORKS_AT", "Asda", "retract")),
    ("Tyler texted me last night. He got a job at Amazon.",
     ("Tyler", "WORKS_AT", "Amazon", "assert")),
    ("I'm a mature nursing student.", ("Bob", "LEARNING", "nursing", "assert")),
    ("I do admin work for a charity called Shelter.", ("Bob", "WORKS_AT", "Shelter", "assert")),
    ("I tried keto and it works for me.", ("Bob", "DIET", "keto", "assert")),
    ("I'm a designer based in London, living the dream.",
     ("Bob", "LIVES_IN", "London", "assert")),
])
def test_what_the_second_review_found_lost(extractor: RuleExtractor, text: str,
                                           expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    # a second review of this round's rules: each was stored
    ("The hospital let me go this morning, feeling much better.", ("Bob", "WORKS_AT")),
    ("I'm Vegan now.", ("Bob", "IS_NAMED")),
    ("I'm Sikh.", ("Bob", "IS_NAMED")),
    ("I'm Welsh.", ("Bob", "IS_NAMED")),
    ("My iPhone died on the train, so I missed your text.", ("Bob", "HAS_PHONE", "iPhone",
                                                              "retract")),
    ("Somebody tried to steal my iPhone 13.", ("Bob", "HAS_PHONE", "iPhone 13", "retract")),
    ("My Fiat 500 was stolen but the police found it.", ("Bob", "DRIVES", "Fiat 500",
                                                         "retract")),
    ("I'm a Chinese student.", ("Bob", "LEARNING")),
    ("My job is fine. I'm with Harper now, we've been dating a month.", ("Bob", "WORKS_AT")),
])
def test_what_the_second_review_found_stored_wrongly(extractor: RuleExtractor, text: str,
                                                     wrong: tuple[str, ...]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:len(wrong)] == wrong}


@pytest.mark.parametrize("text", ["No, I never worked at Acme, but I interviewed there twice.",
                                  "Honestly I never worked at Acme."])
def test_a_denial_with_more_said_still_denies(extractor: RuleExtractor, text: str) -> None:
    [ending] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert ending.action == "retract" and ending.corrects


def test_a_short_episode_does_not_wait_for_a_large_one(extractor: RuleExtractor) -> None:
    """An import parses in batches, each in the parser's turn: a one-line episode asked for
    meanwhile is parsed between two of them, and is done before the import has asked for its
    last batch."""
    large = [" ".join(f"I live in Oslo and my sister works at Acme {m}." for _ in range(100))
             for m in range(20)]
    done: dict[str, Extraction] = {}
    importing = threading.Thread(target=lambda: done.update(large=said(extractor, *large)))
    importing.start()
    deadline = time.monotonic() + 60
    while extractor._parse_lock._serving < 2 and time.monotonic() < deadline:
        time.sleep(0.01)  # the import is into its parse
    short = said(extractor, "I work at Initech.")
    asked_then = extractor._parse_lock._next_ticket
    importing.join(timeout=600)
    assert ("Bob", "WORKS_AT", "Initech", "assert") in triples(short)
    assert extractor._parse_lock._next_ticket > asked_then, \
        "the one-line episode waited for the import's whole parse"
    assert ("Bob", "LIVES_IN", "Oslo", "assert") in triples(done["large"])


@pytest.mark.parametrize(("text", "expected"), [
    # someone else's job: a firm the tagger takes for a person, and "she" after one name
    # beside a place
    ("my brother Jens is a welder at Van Dijk Staal", ("Jens", "WORKS_AT", "Van Dijk Staal")),
    ("My sister Tamsin moved back to Exeter last month. She's a midwife at Heavitree Clinic",
     ("Tamsin", "WORKS_AT", "Heavitree Clinic")),
    ("My sister Tamsin moved back to Exeter last month. She's a midwife at Heavitree Clinic",
     ("Tamsin", "JOB_TITLE", "midwife")),
])
def test_other_peoples_jobs_are_theirs(extractor: RuleExtractor, text: str,
                                       expected: tuple[str, str, str]) -> None:
    found = {(f.subject, f.predicate, f.object) for f in said(extractor, text).facts
             if f.action == "assert"}
    assert expected in found
    assert not {f for f in found if f[0] == "Bob" and f[1] in ("WORKS_AT", "JOB_TITLE")}


@pytest.mark.parametrize("text", [
    "Tamsin met Jens in Exeter. She's a midwife at Heavitree Clinic",
    "Anna introduced me to Tom. He works at Google now",  # Tom: after "to", no town
    "Anna and Will came over. She works at Google now",  # Will: a name, not "will"
])
def test_she_is_not_guessed_among_two_people(extractor: RuleExtractor, text: str) -> None:
    found = said(extractor, text)
    assert not [f for f in found.facts if f.predicate in ("WORKS_AT", "JOB_TITLE")]


@pytest.mark.parametrize(("text", "heard"), [
    ("Update on Tom, his new job: started at Google on Monday", "Bob"),
    ("Tom's new home: moved to York", "Bob"),
])
def test_a_heading_about_someone_else_gives_the_speaker_nothing(extractor: RuleExtractor,
                                                                text: str, heard: str) -> None:
    assert not [f for f in said(extractor, text).facts if f.subject == heard
                and f.predicate in ("WORKS_AT", "LIVES_IN")]
