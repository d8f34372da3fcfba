"""The page's HTTP contract without a browser: login and cookie, tenants, 4xx, fragments.

A real embedded store file and the real extractor and embedder sit behind
``create_app``, as in the REST tests; the browser tests cover what JavaScript does.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from graphmem.ingest.inputs import FactInput
from graphmem.manage import get_fact
from graphmem.memory import Memory
from graphmem.models import FactStatus, Scope
from graphmem.settings import Settings
from graphmem.store.base import FactQuery
from tests.api.conftest import KEY_A, KEY_B, TENANT_A, TENANT_B, assert_problem

ALICE = Scope(user_id="alice")


def _remember(memory: Memory, tenant: str, text: str, obj: str,
              scope: Scope = ALICE) -> str:
    result = memory.add_facts(tenant, [FactInput(scope=scope, subject="Alice",
                                                 predicate="LIKES", object=obj, text=text)])
    return result.created[0].id


@pytest.fixture
def keyed(app: FastAPI) -> Iterator[TestClient]:
    """The app with keys for tenants A and B, and no key sent yet."""
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _login(client: TestClient, key: str) -> Any:
    return client.post("/ui/login", data={"key": key, "next": "/ui/memories?user_id=alice"},
                       follow_redirects=False)


def test_without_a_key_the_page_sends_you_to_the_login_form(keyed: TestClient) -> None:
    response = keyed.get("/ui/memories?user_id=alice&q=tea", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/ui/login?next=/ui/memories%3Fuser_id%3Dalice%26q%3Dtea"
    form = keyed.get(response.headers["location"])
    assert form.status_code == 200 and 'type="password"' in form.text
    assert "Log out" not in form.text
    assert 'value="/ui/memories?user_id=alice&amp;q=tea"' in form.text


def test_a_wrong_key_is_refused_and_a_right_one_sets_a_strict_cookie(keyed: TestClient) -> None:
    wrong = _login(keyed, "not-the-key")
    assert wrong.status_code == 401 and "not valid" in wrong.text
    assert "set-cookie" not in wrong.headers

    right = _login(keyed, KEY_A)
    assert right.status_code == 303 and right.headers["location"] == "/ui/memories?user_id=alice"
    cookie = right.headers["set-cookie"]
    assert cookie.startswith("graphmem_key=") and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie and "Path=/ui" in cookie
    signed_in = keyed.get("/ui/memories?user_id=alice")
    assert signed_in.status_code == 200 and "Log out" in signed_in.text


def test_the_login_form_never_redirects_off_the_page(keyed: TestClient) -> None:
    for target in ("https://evil.example/", "//evil.example/ui/x", "/v1/memories"):
        response = keyed.post("/ui/login", data={"key": KEY_A, "next": target},
                              follow_redirects=False)
        assert response.headers["location"] == "/ui/memories", target


def test_each_key_sees_only_its_tenants_scopes_and_memories(keyed: TestClient,
                                                           memory: Memory) -> None:
    secret = _remember(memory, TENANT_A, "Alice likes green tea.", "green tea")
    _remember(memory, TENANT_B, "Bob likes chess.", "chess", Scope(user_id="bob"))
    _login(keyed, KEY_B)

    page = keyed.get("/ui/memories", follow_redirects=True)
    assert "Bob likes chess." in page.text and "user:alice" not in page.text
    assert re.findall(r'<option value="([^"]+)"', page.text) == ["user:bob"]
    assert "green tea" not in keyed.get("/ui/memories?user_id=alice").text
    assert_problem(keyed.post(f"/ui/memories/{secret}/forget", data={"user_id": "alice"}),
                   404, secret)
    assert get_fact(memory, TENANT_A, secret).status is FactStatus.ACTIVE


def test_posts_need_a_key_and_the_page_s_own_origin(keyed: TestClient, memory: Memory) -> None:
    fact_id = _remember(memory, TENANT_A, "Alice likes tea.", "tea")
    assert_problem(keyed.post(f"/ui/memories/{fact_id}/forget", data={"user_id": "alice"}),
                   401, "log in")
    _login(keyed, KEY_A)
    assert_problem(keyed.post(f"/ui/memories/{fact_id}/forget", data={"user_id": "alice"},
                              headers={"Origin": "https://evil.example"}), 403, "memory page")
    assert get_fact(memory, TENANT_A, fact_id).status is FactStatus.ACTIVE


@pytest.fixture
def local(memory: Memory) -> Iterator[TestClient]:
    """The app without keys (loopback only): every request is the default tenant."""
    app = create_app(Settings(_env_file=None, rate_limit_per_minute=100_000),  # type: ignore[call-arg]
                     memory)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_without_keys_there_is_no_login_and_the_first_scope_opens(local: TestClient,
                                                                  memory: Memory) -> None:
    empty = local.get("/ui/memories")
    assert empty.status_code == 200 and "Nothing is remembered yet" in empty.text
    _remember(memory, "default", "Alice likes tea.", "tea")

    assert local.get("/ui", follow_redirects=False).headers["location"] == "/ui/memories"
    assert local.get("/ui/memories", follow_redirects=False).headers["location"] == (
        "/ui/memories?user_id=alice")
    assert local.get("/ui/login", follow_redirects=False).status_code == 303
    picked = local.get("/ui/memories?scope=member:team:alice", follow_redirects=False)
    assert picked.headers["location"] == "/ui/memories?user_id=alice&group_id=team"


def test_delete_answers_a_card_fragment_or_goes_back(local: TestClient, memory: Memory) -> None:
    fact_id = _remember(memory, "default", "Alice likes tea.", "tea")

    fragment = local.post(f"/ui/memories/{fact_id}/forget", headers={"X-UI-Fragment": "1"},
                          data={"user_id": "alice", "next": "/ui/memories?user_id=alice"})
    assert fragment.status_code == 200 and fragment.text.lstrip().startswith("<li")
    assert 'data-status="forgotten"' in fragment.text and "Restore" in fragment.text
    assert get_fact(memory, "default", fact_id).status is FactStatus.FORGOTTEN

    back = local.post(f"/ui/memories/{fact_id}/restore", follow_redirects=False,
                      data={"user_id": "alice", "next": "/ui/memories?user_id=alice&history=1"})
    assert back.status_code == 303
    assert back.headers["location"] == "/ui/memories?user_id=alice&history=1"
    assert get_fact(memory, "default", fact_id).status is FactStatus.ACTIVE


def test_the_header_counts_current_memories_or_those_held_on_the_as_of_date(
        local: TestClient, memory: Memory) -> None:
    _remember(memory, "default", "Alice likes tea.", "tea")
    _remember(memory, "default", "Alice likes chess.", "chess")
    now = local.get("/ui/memories?user_id=alice")
    assert re.search(r'class="count"[^>]*>2 current memories<', now.text)
    then = local.get("/ui/memories?user_id=alice&as_of=2001-01-01")
    assert re.search(r'class="count"[^>]*data-then>0 memories held then<', then.text)
    assert "current memories" not in then.text


def test_search_results_page_with_load_more_fragments(local: TestClient,
                                                      memory: Memory) -> None:
    sports = [f"sport {i:02d}" for i in range(26)]
    memory.add_facts("default", [FactInput(scope=ALICE, subject="Alice", predicate="PLAYS",
                                           object=s, text=f"Alice plays {s}.") for s in sports])
    memory.add_facts("default", [FactInput(scope=ALICE, subject="Alice", predicate="LIKES",
                                           object="tea", text="Alice likes tea.")])

    first = local.get("/ui/memories?user_id=alice&q=which+sports+does+Alice+play")
    shown = re.findall(r'id="text-[^"]+">([^<]+)<', first.text)
    assert len(shown) == 20 and all(t.startswith("Alice plays sport") for t in shown)
    more = re.search(r'href="([^"]+)" data-load-more', first.text)
    assert more is not None and "offset=20" in more.group(1)
    rest = local.get(more.group(1).replace("&amp;", "&"), headers={"X-UI-Fragment": "1"})
    tail = re.findall(r'id="text-[^"]+">([^<]+)<', rest.text)
    assert tail and not set(tail) & set(shown) and "<html" not in rest.text
    assert {f"Alice plays {s}." for s in sports} <= set(shown + tail)


def test_page_changes_reach_the_event_stream_like_api_changes(local: TestClient,
                                                              memory: Memory) -> None:
    fact_id = _remember(memory, "default", "Alice likes tea.", "tea")
    bus = local.app.state.events  # type: ignore[attr-defined]

    async def subscribe() -> Any:
        return bus.subscribe("default")

    subscription = local.portal.call(subscribe)  # type: ignore[union-attr]

    async def next_event() -> Any:
        return await asyncio.wait_for(subscription.__anext__(), timeout=10)

    local.post(f"/ui/memories/{fact_id}/forget", data={"user_id": "alice"})
    local.post(f"/ui/memories/{fact_id}/restore", data={"user_id": "alice"})
    seen = [local.portal.call(next_event) for _ in range(2)]  # type: ignore[union-attr]
    assert [(e.type, e.memory_id) for e in seen] == [("memory.forgotten", fact_id),
                                                     ("memory.restored", fact_id)]
    subscription.close()


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1:9"])
def test_without_keys_other_sites_cannot_post_to_the_loopback_page(local: TestClient,
                                                                   memory: Memory,
                                                                   origin: str) -> None:
    fact_id = _remember(memory, "default", "Alice likes tea.", "tea")
    for path, data in (("/ui/scope/erase", {"user_id": "alice", "confirm": "user:alice"}),
                       ("/ui/scope/clear", {"user_id": "alice"}),
                       (f"/ui/memories/{fact_id}/forget", {"user_id": "alice"})):
        assert_problem(local.post(path, data=data, headers={"Origin": origin}), 403,
                       "memory page")
    assert get_fact(memory, "default", fact_id).status is FactStatus.ACTIVE
    same = local.post("/ui/scope/clear", data={"user_id": "alice"},
                      headers={"Origin": "http://testserver"})
    assert same.status_code == 200


def test_clear_all_forgets_what_was_said_and_its_undo_brings_it_back(local: TestClient) -> None:
    """A turn no fact came from is recalled by no view after "Clear all memories"."""
    said = local.post("/v1/episodes", json={"scope": {"user_id": "alice"}, "messages": [
        {"speaker": "Alice", "content": "I don't eat meat.", "timestamp": "2024-01-01T10:00:00"}]})
    assert said.status_code == 201

    def recalled() -> list[str]:
        found = local.post("/v1/memories/search", json={
            "scope": {"user_id": "alice"}, "query": "Does Alice eat meat?"}).json()["results"]
        return [r["text"] for r in found]

    assert "I don't eat meat." in recalled()
    cleared = local.post("/ui/scope/clear", data={"user_id": "alice"})
    assert "nor recalls what was said in 1 conversation." in cleared.text
    assert recalled() == []

    episode = re.search(r'name="episode" value="([^"]+)"', cleared.text)
    assert episode is not None
    local.post("/ui/scope/restore", data={"user_id": "alice", "episode": episode.group(1)})
    assert "I don't eat meat." in recalled()


@pytest.mark.parametrize(("query", "field"), [
    ("user_id=alice&category=opinions", "category"),
    ("user_id=alice&offset=-1", "offset"),
    ("user_id=alice&as_of=June", "as_of"),
    ("user_id=al ice", "user_id"),
    ("scope=planet:mars", "scope"),
    (f"user_id=alice&q={'x' * 501}", "q"),
])
def test_bad_page_parameters_are_a_422_naming_the_field(local: TestClient, query: str,
                                                        field: str) -> None:
    assert_problem(local.get(f"/ui/memories?{query}", follow_redirects=False), 422, field)


def test_a_browser_refused_a_page_reads_an_error_page(local: TestClient) -> None:
    browser = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    response = local.get("/ui/memories?user_id=alice&as_of=garbage", headers=browser,
                         follow_redirects=False)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("text/html")
    assert "as_of" in response.text and 'href="/ui/memories"' in response.text
    # the page's own scripts, and API clients, keep the problem document
    fragment = local.get("/ui/memories?user_id=alice&as_of=garbage",
                         headers={**browser, "x-ui-fragment": "1"})
    assert_problem(fragment, 422, "as_of")
    api = local.get("/v1/memories", params={"user_id": "alice", "as_of": "garbage"},
                    headers=browser)
    assert_problem(api, 422, "as_of")


def test_erase_needs_the_scope_typed_and_clear_is_undone_by_its_page(local: TestClient,
                                                                     memory: Memory) -> None:
    fact_id = _remember(memory, "default", "Alice likes tea.", "tea")
    assert_problem(local.post("/ui/scope/erase", data={"user_id": "alice", "confirm": "yes"}),
                   422, "confirm", "user:alice")
    assert get_fact(memory, "default", fact_id).status is FactStatus.ACTIVE

    cleared = local.post("/ui/scope/clear", data={"user_id": "alice"})
    assert "1 memory forgotten" in cleared.text and f'value="{fact_id}"' in cleared.text
    assert "nor recalls" not in cleared.text  # no conversation: the memory was added by hand
    assert get_fact(memory, "default", fact_id).status is FactStatus.FORGOTTEN
    undone = local.post("/ui/scope/restore", data={"user_id": "alice", "id": fact_id},
                        follow_redirects=False)
    assert undone.headers["location"] == "/ui/memories?user_id=alice"
    assert get_fact(memory, "default", fact_id).status is FactStatus.ACTIVE

    erased = local.post("/ui/scope/erase", data={"user_id": "alice", "confirm": "user:alice"})
    assert "Erased for good" in erased.text and "1 memory," in erased.text
    assert memory.list_facts("default", FactQuery(scope_keys=[ALICE.key])) == []


def test_a_form_that_is_not_utf8_is_a_400(local: TestClient) -> None:
    response = local.post("/ui/scope/clear", content=b"user_id=\xff\xfe",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert_problem(response, 400, "UTF-8")


def test_the_page_s_files_are_served(local: TestClient) -> None:
    assert "card" in local.get("/ui/static/ui.css").text
    assert "X-UI-Fragment" in local.get("/ui/static/ui.js").text
    paths = local.get("/openapi.json").json()["paths"]
    assert paths and not any(p.startswith("/ui") for p in paths)  # not part of the REST API
