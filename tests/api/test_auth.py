"""API keys, tenants and the no-keys loopback mode."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graphmem.errors import SetupError
from graphmem.memory import Memory
from graphmem.store.base import FactQuery
from tests.api.conftest import ALICE, KEY_A, KEY_B, assert_problem, fact, settings, sha


def test_bearer_and_x_api_key_both_work(client: TestClient, client_b: TestClient) -> None:
    assert client.get("/v1/memories", params=ALICE).status_code == 200
    assert client_b.get("/v1/memories", params=ALICE).status_code == 200


def test_missing_or_wrong_key_is_401(client: TestClient) -> None:
    body = assert_problem(client.get("/v1/memories", params=ALICE, headers={"Authorization": ""}),
                          401, "API key is required")
    assert "Bearer" in body["detail"]
    wrong = client.get("/v1/memories", params=ALICE, headers={"Authorization": "Bearer nope"})
    assert_problem(wrong, 401, "not valid")
    assert wrong.headers["www-authenticate"] == "Bearer"
    assert "nope" not in wrong.text
    basic = client.get("/v1/memories", params=ALICE, headers={"Authorization": "Basic eDp5"})
    assert_problem(basic, 401)


def test_probes_need_no_key(client: TestClient) -> None:
    anonymous = {"Authorization": ""}
    assert client.get("/health", headers=anonymous).json() == {"status": "ok"}
    assert client.app.state.warmed.wait(60)  # type: ignore[attr-defined]  # models load first
    assert client.get("/ready", headers=anonymous).json() == {"status": "ready"}
    assert client.get("/openapi.json", headers=anonymous).status_code == 200


def test_ready_is_503_when_the_store_is_gone(client: TestClient, memory: Memory) -> None:
    memory.store.close()
    assert_problem(client.get("/ready"), 503, "unavailable")
    assert client.get("/health").status_code == 200


def test_without_keys_everything_is_the_default_tenant(memory: Memory,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="graphmem.api"):
        app = create_app(settings(api_keys={}, default_tenant="solo"), memory)
    assert "no API keys configured: local use only" in caplog.text
    with TestClient(app) as local:
        assert local.post("/v1/memories", json=fact("Alice", "LIKES", "tea")).status_code == 201
    stored = memory.store.list_facts("solo", FactQuery(scope_keys=["user:alice"]))
    assert [f.object_name for f in stored] == ["tea"]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "example.com", "::"])
def test_no_keys_beyond_loopback_is_refused(memory: Memory, host: str) -> None:
    with pytest.raises(SetupError, match="no API keys configured and host"):
        create_app(settings(api_keys={}, host=host), memory)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_no_keys_on_loopback_is_allowed(memory: Memory, host: str) -> None:
    create_app(settings(api_keys={}, host=host), memory)


def test_keys_allow_any_host(memory: Memory) -> None:
    create_app(settings(host="0.0.0.0"), memory)


def test_plaintext_keys_in_settings_are_refused(memory: Memory) -> None:
    with pytest.raises(SetupError, match="sha256 hex digest"):
        create_app(settings(api_keys={KEY_A: "oops"}), memory)


@pytest.mark.parametrize("overrides", [{"api_keys": {sha(KEY_A): "graphmem-warm-up"}},
                                       {"api_keys": {}, "default_tenant": "graphmem-warm-up"}],
                         ids=["api key", "default tenant"])
def test_the_warm_up_tenant_is_nobody_s(memory: Memory, overrides: dict[str, Any]) -> None:
    with pytest.raises(SetupError, match="graphmem-warm-up.*warm-up's own"):
        create_app(settings(**overrides), memory)


def test_key_digests_are_case_insensitive(memory: Memory) -> None:
    digest = sha(KEY_B).upper()
    app = create_app(settings(api_keys={digest: "upper"}), memory)
    with TestClient(app, headers={"X-API-Key": KEY_B}) as upper:
        assert upper.get("/v1/memories", params=ALICE).status_code == 200
    with TestClient(app, headers={"X-API-Key": KEY_A}) as other:
        assert other.get("/v1/memories", params=ALICE).status_code == 401
