"""The memory page in a real headless Chromium, against a real uvicorn server, on both stores.

Each test starts from :func:`tests.api.ui.conftest.seed` and does what a person
would: search, filter, delete and restore, look at the history and an entity's
timeline, page through with "load more", clear and erase. ``UPDATE_SCREENSHOTS=1``
also writes the README's screenshots to ``docs/img/`` (from the embedded run).
"""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException,
                                        WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from graphmem.manage import erase_entity, get_fact
from graphmem.scan import EVERYTHING
from graphmem.models import FactStatus
from graphmem.store.base import FactQuery
from tests.api.ui.conftest import ALICE, HOBBIES, KEY_ALICE, Served

pytestmark = pytest.mark.browser
DOCS_IMG = Path(__file__).resolve().parents[3] / "docs" / "img"
WAIT = 20


class PageWait(WebDriverWait):  # type: ignore[type-arg]
    """Wait for a condition, looking again while a page or a swapped card is replaced.

    Chromium reports an element read while its page is being navigated away as an
    unknown error ("Node with given id does not belong to the document") rather than
    a stale reference, so that one message is also a reason to look again.
    """

    def until(self, method: Any, message: str = "") -> Any:
        def tolerant(driver: Any) -> Any:
            try:
                return method(driver)
            except WebDriverException as error:
                if "does not belong to the document" in str(error):
                    return False
                raise
        return super().until(tolerant, message)


def wait(page: Any) -> PageWait:
    return PageWait(page, WAIT, ignored_exceptions=(NoSuchElementException,
                                                    StaleElementReferenceException))


def cards(page: Any) -> list[WebElement]:
    return list(page.find_elements(By.CSS_SELECTOR, "article.card"))


def texts(page: Any) -> list[str]:
    return [str(c.find_element(By.CSS_SELECTOR, ".card-text").text) for c in cards(page)]


def card_with(page: Any, text: str) -> WebElement:
    found = [c for c in cards(page) if c.find_element(By.CSS_SELECTOR, ".card-text").text == text]
    assert found, f"no card {text!r} among {texts(page)}"
    return found[0]


def open_page(page: Any, served: Served, query: str = "") -> None:
    page.get(f"{served.url}/ui/memories?user_id=alice{query}")
    wait(page).until(lambda p: p.find_elements(By.CSS_SELECTOR, "article.card"))


def arrived(page: Any, url_part: str) -> None:
    """Wait for a navigation to ``url_part`` and for its cards (or its empty note)."""
    try:
        wait(page).until(lambda p: url_part in p.current_url and p.find_elements(
            By.CSS_SELECTOR, "article.card, .empty"))
    except Exception:
        print(page.current_url, page.page_source[:3000])
        raise


def screenshot(page: Any, name: str, tmp_path: Path, served: Served) -> None:
    """Always into the test's folder; into docs/img when asked (embedded run only)."""
    shot = tmp_path / name
    assert page.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOTS") == "1" and "Embedded" in type(
            served.memory.store).__name__:
        shutil.copy(shot, DOCS_IMG / name)


def test_page_lists_searches_and_filters(served: Served, page: Any, tmp_path: Path) -> None:
    open_page(page, served)

    assert page.find_element(By.TAG_NAME, "h1").text == "Memories"
    assert len(cards(page)) == 20  # one page
    globex = card_with(page, "Alice works at Globex.")
    assert "Fact" in globex.find_element(By.CSS_SELECTOR, ".cat").text
    assert globex.find_element(By.CSS_SELECTOR, "time").text.endswith("ago")
    foot = globex.find_element(By.CSS_SELECTOR, ".card-foot").text
    assert "3 uses" in foot and "Importance 80%" in foot
    assert globex.find_element(By.CSS_SELECTOR, "a.source").get_attribute("href")
    chinese = card_with(page, "爱丽丝喜欢喝绿茶。").find_element(By.CSS_SELECTOR, ".card-text")
    assert chinese.get_attribute("lang") == "zh"
    page.set_window_size(1200, 1400)
    screenshot(page, "ui-memories.png", tmp_path, served)
    page.set_window_size(1200, 1000)

    page.find_element(By.CSS_SELECTOR, "a.tab[href*='category=goal']").click()
    arrived(page, "category=goal")
    assert texts(page) == ["Alice wants to run a marathon."]
    assert page.find_element(By.CSS_SELECTOR, ".tab.active").get_attribute("aria-current") == "page"

    page.find_elements(By.CSS_SELECTOR, "a.tab")[0].click()
    wait(page).until(lambda p: "category" not in p.current_url)
    box = wait(page).until(lambda p: p.find_element(By.ID, "q"))
    box.send_keys("where does Alice work?")
    box.submit()
    arrived(page, "q=where")
    assert texts(page)[0] == "Alice works at Globex."
    assert "Best matches" in page.find_element(By.CSS_SELECTOR, ".notice").text


def test_delete_greys_out_and_restore_brings_back(served: Served, page: Any) -> None:
    open_page(page, served)
    globex = card_with(page, "Alice works at Globex.")
    memory_id = str(globex.get_attribute("data-memory-id"))
    held = int(page.find_element(By.CSS_SELECTOR, ".count").text.split()[0])

    globex.find_element(By.CSS_SELECTOR, "button[aria-label^='Delete memory']").click()
    selector = f"article[data-memory-id='{memory_id}']"
    wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, selector)
                     .get_attribute("data-status") == "forgotten")
    greyed = page.find_element(By.CSS_SELECTOR, selector)
    assert "is-forgotten" in greyed.get_attribute("class")
    assert float(greyed.value_of_css_property("opacity")) < 1
    assert "Forgotten" in greyed.find_element(By.CSS_SELECTOR, ".badge-forgotten").text
    assert get_fact(served.memory, served.tenant, memory_id).status is FactStatus.FORGOTTEN
    assert page.find_element(By.CSS_SELECTOR, ".count").text == f"{held - 1} current memories"

    page.refresh()  # kept, still greyed out
    assert wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, ".count")).text == \
        f"{held - 1} current memories"
    greyed = wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, selector))
    assert greyed.get_attribute("data-status") == "forgotten"
    greyed.find_element(By.CSS_SELECTOR, "button[aria-label^='Restore memory']").click()
    wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, selector)
                     .get_attribute("data-status") == "active")
    assert get_fact(served.memory, served.tenant, memory_id).status is FactStatus.ACTIVE
    assert page.find_element(By.CSS_SELECTOR, ".count").text == f"{held} current memories"


def test_in_an_as_of_view_the_count_is_of_what_held_then(served: Served, page: Any) -> None:
    open_page(page, served, f"&as_of={date.today().isoformat()}")
    count = page.find_element(By.CSS_SELECTOR, ".count")
    held = int(count.text.split()[0])
    assert count.text == f"{held} memories held then"
    globex = card_with(page, "Alice works at Globex.")
    memory_id = str(globex.get_attribute("data-memory-id"))
    globex.find_element(By.CSS_SELECTOR, "button[aria-label^='Delete memory']").click()
    wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, ".count").text
                     == f"{held - 1} memories held then")
    card = page.find_element(By.CSS_SELECTOR, f"article[data-memory-id='{memory_id}']")
    card.find_element(By.CSS_SELECTOR, "button[aria-label^='Restore memory']").click()
    wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, ".count").text
                     == f"{held} memories held then")


def test_a_memory_erased_meanwhile_says_so_on_its_card(served: Served, page: Any) -> None:
    open_page(page, served, "&category=goal")
    [goal] = cards(page)
    erase_entity(served.memory, served.tenant, ALICE,
                 served.memory.get_fact(served.tenant, str(goal.get_attribute(
                     "data-memory-id"))).object_id)  # erased by someone else

    goal.find_element(By.CSS_SELECTOR, "button[aria-label^='Delete memory']").click()
    alert = wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, ".card-error"))
    assert "not found" in alert.text and alert.get_attribute("role") == "alert"
    assert goal.find_element(By.CSS_SELECTOR, "button").is_enabled()  # can be tried again


def test_history_toggle_shows_the_superseded_fact_with_its_interval(served: Served,
                                                                   page: Any) -> None:
    open_page(page, served, "&category=fact")
    assert "Alice works at Acme." not in texts(page)

    page.find_element(By.CSS_SELECTOR, "label.toggle").click()  # submits by itself
    arrived(page, "history=1")
    acme = card_with(page, "Alice works at Acme.")
    assert "2024-01-10 \u2192 2024-09-01" in acme.find_element(By.CSS_SELECTOR, ".interval").text
    assert acme.find_element(By.CSS_SELECTOR, ".badge-past").text == "Superseded"
    replaced = acme.find_element(By.CSS_SELECTOR, ".replaced").text
    assert "Replaced by" in replaced and "Alice works at Globex." in replaced


def test_as_of_date_shows_what_held_then(served: Served, page: Any) -> None:
    open_page(page, served, "&category=fact")
    date_input = page.find_element(By.ID, "as_of")
    page.execute_script("arguments[0].value = '2024-06-01';"
                        "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                        date_input)
    arrived(page, "as_of=2024-06-01")
    shown = texts(page)
    assert "Alice works at Acme." in shown and "Alice works at Globex." not in shown


def test_entity_view_draws_the_timeline_and_neighbourhood(served: Served, page: Any,
                                                          tmp_path: Path) -> None:
    open_page(page, served, "&history=1&category=fact")
    acme = card_with(page, "Alice works at Acme.")
    acme.find_element(By.LINK_TEXT, "Alice").click()
    wait(page).until(lambda p: p.find_elements(By.ID, "timeline"))

    assert page.find_element(By.TAG_NAME, "h1").text == "Alice"
    bars = {b.get_attribute("data-fact-id"): b.get_attribute("data-state")
            for b in page.find_elements(By.CSS_SELECTOR, "#timeline g.bar")}
    acme_id = acme_fact_id(served)
    assert bars[acme_id] == "superseded"
    assert "current" in bars.values() and "retracted" in bars.values()
    arrows = page.find_elements(By.CSS_SELECTOR, "#timeline path.supersede")
    assert any("Alice works at Globex." in a.find_element(By.TAG_NAME, "title")
               .get_attribute("textContent") for a in arrows)
    assert page.find_elements(By.CSS_SELECTOR, "#timeline g.retraction")
    assert len(bars) == 14 and "Draw all 29" in page.find_element(By.CSS_SELECTOR,
                                                                  ".more-rows").text
    names = node_names(page)
    assert "Globex" in names and "Acme" not in names  # connections that hold today
    page.set_window_size(1200, 1750)
    screenshot(page, "ui-entity.png", tmp_path, served)
    page.set_window_size(1200, 1000)

    page.execute_script("const i = document.getElementById('as_of'); i.value = '2024-06-01';"
                        "i.dispatchEvent(new Event('change', {bubbles: true}));")
    wait(page).until(lambda p: "as_of=2024-06-01" in p.current_url and "Acme" in node_names(p))
    assert "Globex" not in node_names(page)  # as they stood then

    page.find_element(By.XPATH, "//*[@id='graph']//*[local-name()='a'][contains(., 'Acme')]").click()
    wait(page).until(lambda p: p.find_element(By.TAG_NAME, "h1").text == "Acme")


def node_names(page: Any) -> set[str]:
    return {str(n.get_attribute("textContent")).strip()
            for n in page.find_elements(By.CSS_SELECTOR, "#graph a.node text")}


def acme_fact_id(served: Served) -> str:
    facts = served.memory.list_facts(served.tenant, FactQuery(
        scope_keys=[ALICE.key], limit=500, time=EVERYTHING))
    return next(f.id for f in facts if f.text == "Alice works at Acme.")


def test_load_more_appends_the_next_page(served: Served, page: Any) -> None:
    open_page(page, served)
    first = texts(page)
    page.find_element(By.CSS_SELECTOR, "a[data-load-more]").click()
    wait(page).until(lambda p: len(cards(p)) > 20)
    everything = texts(page)

    assert everything[:20] == first
    assert len(everything) == len(set(everything))  # nothing twice
    assert {f"Alice enjoys {h}." for h in HOBBIES} <= set(everything)
    assert not page.find_elements(By.CSS_SELECTOR, "a[data-load-more]")  # that was all
    active = page.find_element(By.CSS_SELECTOR, ".count").text
    assert active == f"{len(everything)} current memories"


def test_clear_all_is_restorable_and_erase_is_for_good(served: Served, page: Any) -> None:
    open_page(page, served)
    page.find_element(By.XPATH, "//summary[contains(., 'Clear all memories')]").click()
    page.find_element(By.XPATH, "//button[contains(., 'Yes, forget them all')]").click()
    wait(page).until(lambda p: p.find_element(By.TAG_NAME, "h1").text.endswith("forgotten"))
    heading = page.find_element(By.TAG_NAME, "h1")
    stored = served.memory.list_facts(served.tenant, FactQuery(
        scope_keys=[ALICE.key], limit=500, time=EVERYTHING))
    assert {f.status for f in stored} == {FactStatus.FORGOTTEN}
    assert heading.text == f"{len(stored)} memories forgotten"

    page.find_element(By.XPATH, "//button[contains(., 'Undo')]").click()
    wait(page).until(lambda p: {c.get_attribute("data-status") for c in cards(p)} == {"active"})

    page.find_element(By.XPATH, "//summary[contains(., 'Erase for good')]").click()
    page.find_element(By.ID, "confirm-erase").send_keys("user:alice")
    page.find_element(By.XPATH, "//button[contains(., 'Erase everything for good')]").click()
    wait(page).until(lambda p: p.find_element(By.TAG_NAME, "h1").text == "Erased for good")
    assert served.memory.list_facts(served.tenant, FactQuery(scope_keys=[ALICE.key])) == []


AUDIT = """
const problems = [];
const name = el => (el.getAttribute('aria-label') || el.textContent || el.title || '').trim();
if (!document.documentElement.lang) problems.push('html has no lang');
if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
ids.filter((id, i) => ids.indexOf(id) !== i).forEach(id => problems.push('duplicate id ' + id));
document.querySelectorAll('input:not([type=hidden]), select').forEach(el => {
  if (!el.labels.length && !el.getAttribute('aria-label')) problems.push('unlabelled ' + el.name);
});
document.querySelectorAll('button, a[href], summary').forEach(el => {
  if (!name(el)) problems.push('nameless ' + el.outerHTML.slice(0, 80));
});
document.querySelectorAll('svg[role=img]').forEach(el => {
  if (!el.getAttribute('aria-labelledby')) problems.push('svg without a name');
});
document.querySelectorAll('main img').forEach(el => { if (!el.alt) problems.push('img alt'); });
return problems;
"""


def test_markup_names_every_control_and_picture(served: Served, page: Any) -> None:
    open_page(page, served, "&history=1")
    assert page.execute_script(AUDIT) == []
    card_with(page, "Alice works at Acme.").find_element(By.LINK_TEXT, "Acme").click()
    wait(page).until(lambda p: p.find_element(By.TAG_NAME, "h1").text == "Acme")
    assert page.execute_script(AUDIT) == []
    assert page.find_element(By.CSS_SELECTOR, "#graph desc").get_attribute("textContent")
    page.execute_script("document.querySelector('main').insertAdjacentHTML('beforeend',"
                        " '<input name=stray><button></button>')")
    assert page.execute_script(AUDIT) == ["unlabelled stray", "nameless <button></button>"]


def test_with_keys_the_page_asks_for_one_and_shows_only_that_tenant(served_with_keys: Served,
                                                                    page: Any) -> None:
    page.get(f"{served_with_keys.url}/ui/memories")
    key = wait(page).until(lambda p: p.find_element(By.ID, "key"))
    key.send_keys("not-a-key")
    key.submit()
    alert = wait(page).until(lambda p: p.find_element(By.CSS_SELECTOR, "[role=alert]"))
    assert "not valid" in alert.text

    page.find_element(By.ID, "key").send_keys(KEY_ALICE)
    page.find_element(By.ID, "key").submit()
    wait(page).until(lambda p: p.find_elements(By.CSS_SELECTOR, "article.card"))
    options = [o.text for o in page.find_elements(By.CSS_SELECTOR, "#scope-select option")]
    assert options == ["alice"]  # the other tenant's "mallory" is not offered

    page.get(f"{served_with_keys.url}/ui/memories?user_id=mallory")
    assert not cards(page) and "No memories here" in page.find_element(By.CSS_SELECTOR,
                                                                       ".empty").text
    page.find_element(By.XPATH, "//button[contains(., 'Log out')]").click()
    wait(page).until(lambda p: p.find_elements(By.ID, "key"))
