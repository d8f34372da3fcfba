"""Property: whatever was said and whenever, a time-travel search shows nothing said later.

Random single-message episodes (real rules extractor, real MiniLM) at random
dates, then searches as of random dates with naive, aware and date-only
values: every result (fact or raw turn) started at or before ``as_of``, and
every raw turn was said by then. On both stores.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.search.models import SearchRequest
from graphmem.store.base import GraphStore

SENTENCES = ["I work at Acme.", "I left Acme and joined Globex.", "I live in Lisbon.",
             "We moved from Lisbon to Porto.", "My phone is a Pixel 8.", "I love sushi.",
             "I quit my job at Globex.", "My car is a Honda Civic."]
QUESTIONS = ["Where does Ana work?", "Where does Ana live?", "What phone does Ana use?",
             "What does Ana like to eat?", "What car does Ana drive?"]
START = datetime(2022, 1, 1, tzinfo=UTC)

said = st.lists(st.tuples(st.integers(0, 700), st.sampled_from(SENTENCES)), min_size=1,
                max_size=6)
asked = st.tuples(st.integers(0, 760), st.sampled_from(QUESTIONS),
                  st.sampled_from(["naive", "utc", "offset", "date"]))


@pytest.fixture(scope="module")
def extractor() -> RuleExtractor:
    return RuleExtractor()


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(statements=said, questions=st.lists(asked, min_size=1, max_size=4))
def test_no_result_was_said_after_as_of(store: GraphStore, embedder: Embedder,
                                        extractor: RuleExtractor,
                                        statements: list[tuple[int, str]],
                                        questions: list[tuple[int, str, str]]) -> None:
    memory = Memory(store, extractor, embedder)
    tenant, scope = f"t{uuid.uuid4().hex[:12]}", Scope(group_id="g")
    for i, (day, text) in enumerate(statements):
        memory.add_episode(tenant, EpisodeInput(scope=scope, messages=[Message(
            id=f"m{i}", speaker="Ana Costa", content=text, timestamp=START + timedelta(days=day))]))
    for day, question, form in questions:
        at = START + timedelta(days=day, hours=9)
        as_of = {"naive": at.replace(tzinfo=None), "utc": at,
                 "offset": at.astimezone(timezone(timedelta(hours=2))),
                 "date": at.replace(hour=0)}[form]
        limit_at = at.replace(hour=0) if form == "date" else at
        for hit in memory.search(tenant, SearchRequest(scope=scope, query=question,
                                                       as_of=as_of, limit=10)).results:
            assert hit.valid_from is not None and hit.valid_from <= limit_at, (form, hit)
    memory.engine.close()
