"""Fixtures for the memory page: seeded memories, a real uvicorn server, a headless Chromium.

``seeded`` fills a memory through the real ingestion path (rule extractor, ONNX
embedder) with a job change that supersedes, preferences, a goal, Chinese text
and enough hand-added facts for two pages. ``served`` runs ``create_app`` under
uvicorn on a free loopback port in a thread of the test process; ``browser`` is
Debian's ``chromium`` driven by ``chromium-driver`` through Selenium. When the
browser is missing the tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from api.app import create_app
from graphmem.embed.base import Embedder
from graphmem.extract.base import CandidateFact, ExtractedFact, Extraction, Extractor
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.memory import Memory
from graphmem.models import Category, Episode, Message, Scope
from graphmem.settings import Settings
from graphmem.store.base import FactQuery, GraphStore
from tests.api.conftest import STORE_TIMEOUT, sha
from tests.neo4j_fixtures import free_ports

ALICE = Scope(user_id="alice")
CHROMIUM = ("chromium", "/usr/bin/chromium")
DRIVER = ("chromedriver", "/usr/bin/chromedriver")
#: What Alice said, one episode each, oldest first.
CONVERSATION = [
    ("2024-01-10", "I work at Acme as a data engineer."),
    ("2024-02-03", "I love hiking in the Alps."),
    ("2024-03-15", "My goal is to run a marathon next year."),
    ("2024-09-01", "I work at Globex now."),
    ("2024-10-05", "I gave up hiking, my knee hurts."),
]
#: The one sentence the rule extractor has no pattern for: scripted as a retraction.
RETRACTED = ("I gave up hiking, my knee hurts.", "LOVES", "hiking in the Alps")
HOBBIES = ["chess", "sailing", "pottery", "climbing", "origami", "baking", "cycling", "karaoke",
           "gardening", "fencing", "archery", "surfing", "juggling", "knitting", "rowing",
           "skating", "birding", "calligraphy", "judo", "tango", "kayaking", "poetry"]


def _at(day: str) -> datetime:
    return datetime.fromisoformat(f"{day}T10:00:00+00:00")


class Clock:
    """The seeding clock: each memory is recorded when it was said, not when the test ran."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


class SeedExtractor:
    """The real rule extractor, plus the scripted retraction of :data:`RETRACTED`."""

    name = "rules+scripted"
    uses_candidates = False

    def __init__(self, rules: Extractor) -> None:
        self.rules = rules

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        sentence, predicate, obj = RETRACTED
        if episode.content.endswith(sentence):
            return Extraction(facts=[ExtractedFact(
                subject="Alice", predicate=predicate, object=obj, action="retract",
                text=f"Alice no longer loves {obj}.", category=Category.PREFERENCE)])
        return self.rules.extract(episode, candidates)


def seed(store: GraphStore, embedder: Embedder, rules: Extractor, tenant: str,
         scope: Scope = ALICE) -> None:
    """The memories every page test starts from (see the module docstring)."""
    clock = Clock()
    memory = Memory(store, SeedExtractor(rules), embedder, clock=clock)
    for i, (day, text) in enumerate(CONVERSATION):
        clock.now = _at(day) + timedelta(hours=1)
        memory.add_episode(tenant, EpisodeInput(scope=scope, session_id="s1", messages=[
            Message(id=f"m{i}", role="user", speaker="Alice", content=text, timestamp=_at(day))]))
    clock.now = datetime.now(UTC) - timedelta(days=3)
    memory.add_facts(tenant, [
        FactInput(scope=scope, subject="Alice", predicate="HOBBY", object=hobby,
                  text=f"Alice enjoys {hobby}.", category=Category.PREFERENCE,
                  valid_from=_at(f"2023-{1 + i % 12:02d}-{1 + i:02d}"), importance=0.3)
        for i, hobby in enumerate(HOBBIES)])
    memory.add_facts(tenant, [FactInput(
        scope=scope, subject="Alice", predicate="LEARNED", object="small commits",
        text="Alice learned to keep commits small.", category=Category.LESSON,
        valid_from=_at("2024-04-01"), importance=0.8),
        FactInput(scope=scope, subject="Alice", predicate="LIKES", object="绿茶",
                  text="爱丽丝喜欢喝绿茶。", category=Category.PREFERENCE,
                  valid_from=_at("2024-05-20"), importance=0.6)])
    globex = [f for f in memory.list_facts(tenant, FactQuery(scope_keys=[scope.key]))
              if f.object_name == "Globex"]
    store.record_access(tenant, [f.id for f in globex] * 3, clock.now)  # recalled three times
    memory.engine.close()


@pytest.fixture
def seeded(store: GraphStore, embedder: Embedder, extractor: Extractor,
           tenant: str) -> Iterator[Memory]:
    """The seeded memory, as served: the real clock, the real rule extractor."""
    seed(store, embedder, extractor, tenant)
    memory = Memory(store, extractor, embedder)
    yield memory
    memory.engine.close()  # the store is closed by its own fixture


@dataclass
class Served:
    url: str
    memory: Memory
    tenant: str


@dataclass
class _Thread:
    server: uvicorn.Server
    thread: threading.Thread


def start_server(app: Any) -> tuple[str, _Thread]:
    """uvicorn on a free loopback port, in a thread; returns once it accepts connections."""
    [port] = free_ports(1)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, name="uvicorn-ui", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", _Thread(server, thread)


def stop_server(running: _Thread) -> None:
    running.server.should_exit = True
    running.thread.join(timeout=30)


@pytest.fixture
def served(seeded: Memory, tenant: str) -> Iterator[Served]:
    """The page without API keys (loopback only): every request is ``tenant``."""
    settings = Settings(_env_file=None, default_tenant=tenant,  # type: ignore[call-arg]
                        rate_limit_per_minute=100_000, store_timeout_seconds=STORE_TIMEOUT)
    url, running = start_server(create_app(settings, seeded))
    yield Served(url, seeded, tenant)
    stop_server(running)


KEY_ALICE = "ui-key-alice-0123456789"
KEY_OTHER = "ui-key-other-9876543210"


@pytest.fixture
def served_with_keys(seeded: Memory, tenant: str) -> Iterator[Served]:
    """The page with API keys: ``KEY_ALICE`` is ``tenant``, ``KEY_OTHER`` another tenant
    that has memories of its own (user ``mallory``) in the same store."""
    other = tenant + "-other"
    seed_other = Memory(seeded.store, seeded.extractor, seeded.embedder)
    seed_other.add_facts(other, [FactInput(
        scope=Scope(user_id="mallory"), subject="Mallory", predicate="LIKES", object="secrets",
        text="Mallory likes secrets.", valid_from=_at("2024-01-01"))])
    seed_other.engine.close()
    settings = Settings(_env_file=None, rate_limit_per_minute=100_000,  # type: ignore[call-arg]
                        api_keys={sha(KEY_ALICE): tenant, sha(KEY_OTHER): other},
                        store_timeout_seconds=STORE_TIMEOUT)
    url, running = start_server(create_app(settings, seeded))
    yield Served(url, seeded, tenant)
    stop_server(running)


def _find(names: tuple[str, str]) -> str | None:
    return shutil.which(names[0]) or (names[1] if Path(names[1]).exists() else None)


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium through chromium-driver (``make browser-deps`` installs both)."""
    chromium, driver_path = _find(CHROMIUM), _find(DRIVER)
    if chromium is None or driver_path is None:
        message = ("the browser tests need Debian's chromium and chromium-driver: "
                   "run `make browser-deps` (apt-get install chromium chromium-driver)")
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--window-size=1200,1000", "--lang=en-US",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """The session's browser with no cookies left from the previous test."""
    yield browser
    browser.delete_all_cookies()
