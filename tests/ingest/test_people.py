"""Who a mention means: first names, named relations, and who is speaking."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.extract.base import SELF, ExtractedFact, Extraction
from graphmem.ingest.people import contexts, is_first_name, relation_of
from graphmem.models import Episode, Message


def test_a_first_name_is_one_word() -> None:
    assert is_first_name("Alex") and is_first_name("Zoë") and is_first_name("O'Neil")
    assert not is_first_name("Alex Chen") and not is_first_name("R2D2") and not is_first_name("")


def test_only_a_named_relation_introduces_someone() -> None:
    assert relation_of("KNOWS", "Alex is Maria's colleague.") == "KNOWS:colleague"
    assert relation_of("HAS_BROTHER", "Sam is Maria Jones's brother") == "HAS_BROTHER:brother"
    assert relation_of("KNOWS", "Ana knows Sam since 25 November 2026.") is None


def test_contexts_say_who_spoke_of_a_name_and_how() -> None:
    episode = Episode(tenant="t", scope_key="group:g", reference_time=datetime(2025, 1, 1, tzinfo=UTC),
                      messages=[Message(id="m1", speaker="Pedro", content="..."),
                                Message(id="m2", content="...")])
    extraction = Extraction(facts=[
        ExtractedFact(subject="Pedro", predicate="KNOWS", object="Alex",
                      text="Alex is Pedro's neighbour.", message_id="m1"),
        ExtractedFact(subject="Alex", predicate="LIVES_IN", object="Lyon",
                      text="Alex lives in Lyon.", message_id="m1"),
        ExtractedFact(subject=SELF, predicate="LIKES", object="jazz", text="I like jazz.",
                      message_id="m2"),
    ])
    found = contexts(episode, extraction, "u7")
    assert (found["alex"].speaker, found["alex"].relation) == ("Pedro", "KNOWS:neighbour")
    assert (found["lyon"].speaker, found["lyon"].relation) == ("Pedro", None)
    assert (found["jazz"].speaker, found["jazz"].relation) == ("u7", None)  # no speaker: "I" is u7
