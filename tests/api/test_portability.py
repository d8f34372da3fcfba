"""memory.md imports that must never wipe a scope by accident (issue 14, items 8 and 9),
on both stores: a file without sections, a mass retraction, an over-long line."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, fact

FACTS = [("LIVES_IN", "Berlin"), ("WORKS_AT", "Acme"), ("LIKES", "tea"), ("LIKES", "hiking")]


def seeded(client: TestClient) -> list[dict[str, Any]]:
    for predicate, obj in FACTS:
        assert client.post("/v1/memories", json=fact("Alice", predicate, obj)).status_code == 201
    return current(client)


def current(client: TestClient) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get("/v1/memories", params=ALICE).json()["memories"]
    return sorted(found, key=lambda m: m["id"])


def imported(client: TestClient, markdown: str, **options: Any) -> Any:
    return client.post("/v1/import/memory.md", json={"scope": ALICE, "markdown": markdown,
                                                     **options})


@pytest.mark.parametrize("garbage", ["", "garbage", "#", "# Memory of alice\n\nnothing here\n"])
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_file_without_sections_is_refused(store_client: TestClient, garbage: str,
                                            dry_run: bool) -> None:
    before = seeded(store_client)
    response = imported(store_client, garbage, dry_run=dry_run, allow_mass_retraction=True)
    assert_problem(response, 422, "markdown", "no '## Section' heading")
    assert current(store_client) == before


def test_a_mass_retraction_needs_the_flag(store_client: TestClient) -> None:
    before = seeded(store_client)
    export = store_client.get("/v1/export/memory.md", params=ALICE).text
    kept = [line for line in export.splitlines() if "Berlin" in line]
    sections_only = "\n".join(line for line in export.splitlines()
                              if line.startswith("## ") or line in kept) + "\n"

    refused = imported(store_client, sections_only)
    assert_problem(refused, 422, "allow_mass_retraction", "3 of the scope's 4")
    assert current(store_client) == before

    dry = imported(store_client, sections_only, dry_run=True)
    assert dry.status_code == 200, dry.text
    report = dry.json()
    assert len(report["retracted"]) == 3 and report["current"] == 4
    assert "refused without allow_mass_retraction" in report["warnings"][0]
    assert current(store_client) == before

    done = imported(store_client, sections_only, allow_mass_retraction=True)
    assert done.status_code == 200, done.text
    assert [m["object"] for m in current(store_client)] == ["Berlin"]


def test_deleting_one_line_needs_no_flag(store_client: TestClient) -> None:
    seeded(store_client)
    export = store_client.get("/v1/export/memory.md", params=ALICE).text
    without_tea = "\n".join(line for line in export.splitlines() if "tea" not in line)
    report = imported(store_client, without_tea).json()
    assert len(report["retracted"]) == 1 and report["warnings"] == []


def test_an_over_long_new_line_is_422_naming_the_line(store_client: TestClient) -> None:
    before = seeded(store_client)
    export = store_client.get("/v1/export/memory.md", params=ALICE).text
    long_line = "- Alice remembers " + "a very long story " * 60 + "\n"
    response = imported(store_client, export + long_line)
    line_no = len(export.splitlines()) + 1
    assert_problem(response, 422, f"line {line_no}", "longer than 1000 characters")
    assert current(store_client) == before

