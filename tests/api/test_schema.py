"""Property-based run of the app against its own OpenAPI document (schemathesis).

Every operation gets a bounded number of generated requests, valid and
invalid; none may answer 5xx, and every answer must match the documented
status codes, content types and schemas.

The app is built at import time because schemathesis needs it to collect the
tests (its fixture-based loader does not work with pytest 9); constructors
connect to nothing, and the module fixture opens the store and closes it.
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app
from graphmem.embed.cache import CachedEmbedder
from graphmem.embed.onnx import OnnxEmbedder
from graphmem.extract.rules import RuleExtractor
from graphmem.memory import Memory
from graphmem.store.embedded import EmbeddedStore
from tests.api.conftest import KEY_A
from tests.api.conftest import settings as api_settings

pytestmark = pytest.mark.slow
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]

_DIR = Path(tempfile.gettempdir()) / f"graphmem-schema-{uuid.uuid4().hex}"  # made by open()
_MEMORY = Memory(EmbeddedStore(_DIR / "m.db", embedding_dim=384), RuleExtractor(),
                 CachedEmbedder(OnnxEmbedder()))
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(api_settings(), _MEMORY))


@pytest.fixture(scope="module", autouse=True)
def opened_memory() -> Iterator[None]:
    _MEMORY.open()
    yield
    _MEMORY.close()
    shutil.rmtree(_DIR, ignore_errors=True)


@schema.exclude(path="/v1/events").parametrize()
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_no_operation_fails(case: Any) -> None:
    case.call_and_validate(headers={"X-API-Key": KEY_A}, checks=CHECKS)
