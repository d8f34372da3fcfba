"""The Cypher builders as strings: no server needed.

What matters here is what may reach the query text (only validated
relationship types and fixed identifiers) and what must travel as a parameter
(every value). The Neo4j-side semantics are checked against a real server in
``test_neo4j_specific.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem.errors import StoreError, ValidationError
from graphmem.models import Fact, FactStatus
from graphmem.store.neo4j import reads, reminders, resolution, schema, search_reads, timelines
from graphmem.store.neo4j import writes
from graphmem.temporal import TimeFilter

NOW = datetime(2024, 6, 1, tzinfo=UTC)
EVIL = "x' }) DETACH DELETE n //`$"


# -- relationship types ---------------------------------------------------------
@pytest.mark.parametrize("name", ["WORKS_AT", "A", "HAS_2_CATS", "X" * 64])
def test_valid_predicates_become_relationship_types(name: str) -> None:
    assert reads.relationship_type(name) == name


@pytest.mark.parametrize("name", [
    "", "works_at", "Works_At", "1ST", "_X", "X" * 65, "WORKS AT", "WORKS-AT", "WORKS_AT`",
    "WORKS_AT]->(x) DETACH DELETE x //", "WORKS_AT {factId: 1}", "WORKS_AT\n", "ÜBER",
])
def test_relationship_type_refuses_anything_else(name: str) -> None:
    with pytest.raises(ValidationError, match="cannot become a relationship type"):
        reads.relationship_type(name)


def test_typed_relationship_statement_interpolates_nothing() -> None:
    query, params = writes.link_fact_relationships(EVIL, [{"id": EVIL, "type": "WORKS_AT"}])
    assert "[r:$(row.type) {factId: f.id}]" in query
    assert EVIL not in query and "WORKS_AT" not in query
    assert params == {"tenant": EVIL, "rows": [{"id": EVIL, "type": "WORKS_AT"}],
                      "marker": "retraction"}
    with pytest.raises(ValidationError):
        writes.link_fact_relationships(
            "t", [{"id": "f1", "type": "WORKS_AT]->(x) DETACH DELETE x //"}])


def test_time_filter_refuses_unsafe_aliases() -> None:
    for alias in ["f) DETACH DELETE f //", "F", "", "1f", "f.x", "f\n"]:
        with pytest.raises(ValueError, match="not a safe Cypher variable"):
            reads.time_filter(alias, TimeFilter(), NOW)


# -- every value is a parameter -------------------------------------------------
BUILDERS: dict[str, Callable[[], reads.Query]] = {
    "delete_facts": lambda: writes.delete_facts(EVIL, [EVIL]),
    "delete_episodes": lambda: writes.delete_episodes(EVIL, [EVIL]),
    "delete_entities": lambda: writes.delete_entities(EVIL, [EVIL]),
    "upsert_episodes": lambda: writes.upsert_episodes([{"id": EVIL}]),
    "upsert_entities": lambda: writes.upsert_entities([{"id": EVIL}]),
    "upsert_fact_nodes": lambda: writes.upsert_fact_nodes([{"id": EVIL}]),
    "link_facts": lambda: writes.link_facts(EVIL, [EVIL]),
    "link_fact_relationships": lambda: writes.link_fact_relationships(
        EVIL, [{"id": EVIL, "type": "WORKS_AT"}]),
    "upsert_mentions": lambda: writes.upsert_mentions(EVIL, [{"episodeId": EVIL}]),
    "record_access": lambda: writes.record_access(EVIL, [EVIL], NOW),
    "timeline_versions": lambda: timelines.versions(EVIL, [EVIL]),
    "timeline_lock": lambda: timelines.lock(EVIL, [{"key": EVIL}], [EVIL]),
    "reminders_of_facts": lambda: reminders.delete_of_facts(EVIL, [EVIL]),
    "get_episode": lambda: reads.get_episode(EVIL, EVIL),
    "find_episode": lambda: reads.find_episode(EVIL, EVIL, EVIL),
    "list_episodes": lambda: reads.list_episodes(EVIL, [EVIL], 5, NOW),
    "expired_episode_ids": lambda: reads.expired_episode_ids(EVIL, NOW),
    "get_entities": lambda: reads.get_entities(EVIL, [EVIL]),
    "find_entities": lambda: resolution.find_entities(EVIL, [EVIL], [EVIL]),
    "vector_search": lambda: search_reads.vector_search(EVIL, EVIL, [EVIL], [0.1], 50,
                                                        TimeFilter(), NOW),
    "fulltext_search": lambda: search_reads.fulltext_search(
        reads.FACT_TEXT_INDEX, EVIL, [EVIL], [[{"lucene": EVIL, "weight": 1.0}]], 5,
        TimeFilter(), NOW),
    "fulltext_turns": lambda: search_reads.fulltext_turns(
        EVIL, [EVIL], [[{"lucene": EVIL, "weight": 1.0}]], 5),
    "get_facts": lambda: reads.get_facts(EVIL, [EVIL]),
    "facts_in_timelines": lambda: reads.facts_in_timelines(EVIL, [EVIL]),
    "facts_of_episode": lambda: reads.facts_of_episode(EVIL, EVIL),
    "list_facts": lambda: reads.list_facts(
        EVIL, [EVIL], TimeFilter(as_known_at=NOW), NOW, categories=[EVIL], statuses=[EVIL],
        predicates=[EVIL], entity_id=EVIL, text_contains=EVIL),
    "get_turns": lambda: search_reads.get_turns(EVIL, [EVIL]),
    "vector_scan_scope": lambda: search_reads.vector_scan_scope(
        reads.MESSAGE_VECTOR_INDEX, EVIL, [EVIL], [0.1], 5000, TimeFilter(), NOW),
    "facts_about": lambda: reads.facts_about(EVIL, [EVIL], [EVIL], TimeFilter(), NOW, 5),
    "count_episodes_entities": lambda: reads.count_episodes_entities(EVIL, [EVIL]),
    "fact_counts": lambda: reads.fact_counts(EVIL, [EVIL], NOW),
}


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_values_never_reach_the_query_text(name: str) -> None:
    query, params = BUILDERS[name]()
    assert EVIL not in query
    assert "DETACH DELETE n //" not in query
    used = set(re.findall(r"\$(\w+)", query))
    assert used <= set(params), f"{name} uses parameters it does not pass: {used - set(params)}"


def test_delete_scope_statements_take_values_as_parameters() -> None:
    for query, params in writes.delete_scope(EVIL, EVIL):
        assert EVIL not in query
        assert params == {"tenant": EVIL, "scopeKey": EVIL}
        assert "RETURN" in query and "deleted" in query


# -- Lucene ---------------------------------------------------------------------
def test_escape_lucene_escapes_every_special_character() -> None:
    specials = '+-&|!(){}[]^"~*?:\\/'
    escaped = search_reads.escape_lucene(specials)
    assert escaped == "".join("\\" + c for c in specials)
    assert search_reads.escape_lucene("plain words 42") == "plain words 42"


def _lucene(terms: list[list[dict[str, object]]]) -> list[str]:
    return [str(field["lucene"]) for term in terms for field in term]


def test_free_text_becomes_one_query_per_lower_case_word() -> None:
    assert _lucene(search_reads.lucene_terms("Alice WORKS Berlin")) == ["alice", "works", "berlin"]
    # Lucene syntax in user text is no syntax: only the words are asked for
    assert _lucene(search_reads.lucene_terms('C++ "quoted" x:y title:x*')) == [
        "c", "quoted", "x", "y", "title"]


def test_stopwords_are_dropped_unless_nothing_else_is_left() -> None:
    assert _lucene(search_reads.lucene_terms("Where does Alice work?")) == ["alice", "work"]
    assert _lucene(search_reads.lucene_terms("what is it")) == ["what", "is", "it"]


def test_lucene_operators_in_user_text_stay_words() -> None:
    queries = _lucene(search_reads.lucene_terms("cats AND dogs OR NOT birds && fish || -x"))
    assert queries == ["cats", "dogs", "birds", "fish", "x"]
    assert _lucene(search_reads.lucene_terms("AND OR NOT")) == ["and", "or", "not"]
    # no bare upper-case operator or unescaped syntax survives
    assert not any(re.search(r"\b(AND|OR|NOT)\b|(?<!\\)[-&|!:]", q) for q in queries)


def test_lucene_terms_are_deduplicated_and_may_be_none() -> None:
    assert _lucene(search_reads.lucene_terms("cat Cat cat dog")) == ["cat", "dog"]
    assert search_reads.lucene_terms("") == []
    assert search_reads.lucene_terms("?! -- && ()") == []


def test_a_term_is_asked_of_each_field_group_with_its_weight() -> None:
    [term] = search_reads.lucene_terms("paint", search_reads.TURN_FIELD_WEIGHTS)
    assert term == [{"lucene": "content:(paint) OR speaker:(paint)", "weight": 1.0},
                    {"lucene": "context:(paint)", "weight": 0.5}]


def test_cjk_text_passes_as_bigrams() -> None:
    assert _lucene(search_reads.lucene_terms("我喜欢 咖啡")) == ["我喜", "喜欢", "咖啡"]


def test_exact_name_lookup_quotes_values() -> None:
    query = resolution.lucene_exact('t"1', ["acme corp", 'say "hi"', "back\\slash"])
    assert query == ('+tenant:"t\\"1" +names:("acme corp" OR "say \\"hi\\"" OR '
                     '"back\\\\slash")')


# -- time -------------------------------------------------------------------------
def test_default_time_filter_means_valid_now() -> None:
    condition, params = reads.time_filter("f", TimeFilter(), NOW)
    assert condition == ("NOT f.status IN $tfHidden AND f.validFrom <= $tfAt"
                         " AND (f.validUntil IS NULL OR $tfAt < f.validUntil)")
    assert params == {"tfHidden": ["archived", "retraction", "forgotten"], "tfAt": NOW}


def test_time_filter_as_known_at_ignores_ends_learned_later() -> None:
    known = NOW - timedelta(days=30)
    condition, params = reads.time_filter("n", TimeFilter(as_known_at=known), NOW, prefix="k")
    assert "n.recordedAt <= $kKnown" in condition
    assert ("(n.validUntil IS NULL OR $kAt < n.validUntil OR n.expiredAt IS NULL"
            " OR n.expiredAt > $kKnown)") in condition
    assert params["kAt"] == known and params["kKnown"] == known


def test_time_filter_history_and_forgotten() -> None:
    condition, params = reads.time_filter(
        "f", TimeFilter(as_of=NOW, include_history=True, include_forgotten=True), NOW)
    assert condition == "NOT f.status IN $tfHidden AND f.validFrom <= $tfAt"
    assert params["tfHidden"] == ["archived", "retraction"]


@pytest.mark.parametrize("include_forgotten", [False, True])
def test_hidden_statuses_agree_with_time_filter_matches(include_forgotten: bool) -> None:
    time = TimeFilter(include_forgotten=include_forgotten)
    _, params = reads.time_filter("f", time, NOW)
    for status in FactStatus:
        fact = Fact(tenant="t", scope_key="user:a", subject_id="s", subject_name="S",
                    predicate="LIKES", object_id="o", object_name="O", text="S likes O",
                    valid_from=NOW - timedelta(days=1), status=status)
        assert time.matches(fact, NOW) == (status.value not in params["tfHidden"]), status


def test_time_filter_without_statuses_is_matches_time() -> None:
    condition, params = reads.time_filter("f", TimeFilter(), NOW, statuses=False)
    assert condition == "f.validFrom <= $tfAt AND (f.validUntil IS NULL OR $tfAt < f.validUntil)"
    assert "tfHidden" not in params


def test_list_facts_statuses_are_exactly_those_asked_for() -> None:
    query, params = reads.list_facts("t", ["user:a"], TimeFilter(), NOW, statuses=["archived"],
                                      predicates=["LIVES_IN"], text_contains="ÄcMe", limit=7,
                                      offset=2)
    assert "f.status IN $statuses" in query and "f.predicate IN $predicates" in query
    assert "tfHidden" not in query and params["statuses"] == ["archived"]
    assert params["predicates"] == ["LIVES_IN"]
    assert params["needle"] == "äcme"
    assert "ORDER BY f.validFrom DESC, f.seq DESC SKIP $offset LIMIT $limit" in query
    assert (params["limit"], params["offset"]) == (7, 2)


def test_vector_search_converts_scores_back_to_cosine() -> None:
    query, params = search_reads.vector_search(reads.FACT_VECTOR_INDEX, "t", ["user:a"], [0.5],
                                               60)
    assert "db.index.vector.queryNodes($index, $k, $vector)" in query
    assert "score: 2 * score - 1" in query
    assert params["index"] == "fact_embedding" and params["k"] == 60


# -- schema -----------------------------------------------------------------------
def test_every_schema_statement_is_idempotent_and_named() -> None:
    statements = schema.schema_statements(384)
    for name, (statement, _) in statements.items():
        assert "IF NOT EXISTS" in statement
        assert f" {name} IF NOT EXISTS" in statement
    assert {reads.FACT_TEXT_INDEX, reads.ENTITY_TEXT_INDEX, reads.ENTITY_NAMES_INDEX,
            reads.MESSAGE_TEXT_INDEX, reads.FACT_VECTOR_INDEX,
            reads.ENTITY_VECTOR_INDEX} <= set(statements)
    assert list(statements)[:len(schema.CONSTRAINTS)] == list(schema.CONSTRAINTS)


def test_vector_dimension_is_a_parameter() -> None:
    statement, params = schema.schema_statements(768)[reads.FACT_VECTOR_INDEX]
    assert "768" not in statement and "OPTIONS $options" in statement
    config = params["options"]["indexConfig"]
    assert config["vector.dimensions"] == 768
    assert config["vector.similarity_function"] == "cosine"


def test_migrations_cover_every_version_and_are_idempotent() -> None:
    assert sorted(schema.MIGRATIONS) == list(range(1, schema.SCHEMA_VERSION + 1))
    for steps in schema.MIGRATIONS.values():
        statements = [s for s in steps if isinstance(s, str)]
        assert all("IF EXISTS" in s or "IF NOT EXISTS" in s or "IS NULL" in s for s in statements)
    # the one step that is a function (a hash Cypher cannot compute) is run twice against a
    # real database in test_neo4j_specific.test_scope_tags_are_migrated


def test_vector_scan_is_only_for_graphmem_vector_indexes() -> None:
    with pytest.raises(ValueError, match="not a graphmem vector index"):
        search_reads.vector_scan_scope("Fact) DETACH DELETE (n", "t", ["s"], [0.1], 10)


def _failing_first(times: int, code: str) -> tuple[list[str], schema.Runner]:
    """A runner whose ``db.awaitIndexes`` fails ``times`` times with a driver error of
    ``code`` (the driver's own error class, as the connection wraps it)."""
    from neo4j.exceptions import Neo4jError

    calls: list[str] = []

    def run(text: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        calls.append(text)
        if text == schema.AWAIT_INDEXES and calls.count(text) <= times:
            cause = Neo4jError._hydrate_neo4j(code=code, message="index vanished")
            raise StoreError("Neo4j write failed") from cause
        return []

    return calls, run


def test_waiting_for_indexes_again_when_one_vanished_while_waited_on() -> None:
    """Seen in CI: four processes opening at once, one's constraint index dropped while
    another waited for it, and db.awaitIndexes failed that process's open."""
    calls, run = _failing_first(2, "Neo.ClientError.Procedure.ProcedureCallFailed")
    schema._await_indexes(run, 5)
    assert calls.count(schema.AWAIT_INDEXES) == 3
    calls, run = _failing_first(1, "Neo.ClientError.Security.Forbidden")
    with pytest.raises(StoreError):
        schema._await_indexes(run, 5)  # any other failure is not waited out
    assert calls.count(schema.AWAIT_INDEXES) == 1
    calls, run = _failing_first(99, "Neo.ClientError.Procedure.ProcedureCallFailed")
    with pytest.raises(StoreError):
        schema._await_indexes(run, 5)
    assert calls.count(schema.AWAIT_INDEXES) == schema.AWAIT_ATTEMPTS
