"""The embedded store's mirror keeps compact copies of the records it is given."""

from __future__ import annotations

import pytest

from graphmem.models import Entity, Fact
from graphmem.store.embedded.index import _ENTITY_FIELDS, _ENTITY_SHARED, _FACT_FIELDS
from graphmem.store.embedded.index import _FACT_SHARED, _compact
from tests.ingest.helpers import day


@pytest.mark.parametrize("model", [Fact, Entity])
def test_the_records_carry_no_state_a_compact_copy_would_drop(model: type) -> None:
    # the copy sets __dict__ and the fields given alone: private attributes or extra fields
    # would be lost in the mirror
    assert not model.__private_attributes__
    assert model.model_config.get("extra") != "allow"


def test_a_compact_copy_is_the_record_without_its_vector_and_leaves_the_original() -> None:
    fact = Fact(tenant="t", scope_key="user:a", subject_id="e1", subject_name="Alice",
                predicate="LIVES_IN", object_id="e2", object_name="Lisbon",
                text="Alice lives in Lisbon.", valid_from=day(1), timeline_key="k",
                embedding=[0.25, 0.5])
    compact = _compact(fact, _FACT_FIELDS, _FACT_SHARED)
    assert compact == fact.model_copy(update={"embedding": None})
    assert fact.embedding == [0.25, 0.5]
    assert compact.model_fields_set == set(Fact.model_fields)
    assert compact.model_dump_json() == fact.model_copy(
        update={"embedding": None}).model_dump_json()
    entity = Entity(tenant="t", scope_key="user:a", name="Alice", embedding=[1.0])
    assert _compact(entity, _ENTITY_FIELDS, _ENTITY_SHARED) == entity.model_copy(
        update={"embedding": None})
    assert entity.embedding == [1.0]
