"""Finding and scrubbing the mentions of an erased entity in what stays.

Erasing an entity (:func:`graphmem.manage.erase_entity`) deletes the facts
about it, but its name also stands in raw turns that asserted nothing about
it, in the text of other facts, in todos, session summaries and profiles. A
privacy erasure must not leave it there, so:

* a fact whose text, subject or object names the entity is erased with it
  (a todo "call Maria" or "Alice went to the cinema with Maria" is a memory
  of Maria);
* an episode that stays (it is not a deleted source) keeps its other words
  and has every mention replaced by :data:`PLACEHOLDER`, in its messages, its
  speakers and its content (a JSON payload is walked value by value, so it
  stays valid JSON). The store re-indexes the rewritten turns.

Names match whole words, case-insensitively; aliases shorter than
:data:`MIN_NAME_CHARS` are ignored (an initial would match everywhere).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from graphmem import scan
from graphmem.jsonwalk import map_strings
from graphmem.models import Entity, Episode, Fact, FactStatus
from graphmem.names import whole_words
from graphmem.store.base import GraphStore

PLACEHOLDER = "[forgotten]"
MIN_NAME_CHARS = 2


def name_pattern(entities: Iterable[Entity]) -> re.Pattern[str] | None:
    """One case-insensitive whole-word pattern for the entities' names and aliases.

    >>> name_pattern([Entity(tenant="t", scope_key="user:a", name="Maria", aliases=["M"])]
    ...              ).sub("X", "maria and Marianne")
    'X and Marianne'
    """
    names = {n.strip() for e in entities for n in [e.name, *e.aliases]}
    return whole_words(n for n in names if len(n) >= MIN_NAME_CHARS)


def fact_mentions(fact: Fact, pattern: re.Pattern[str]) -> bool:
    return any(pattern.search(text) for text in (fact.text, fact.subject_name, fact.object_name))


def scrub_episode(episode: Episode, pattern: re.Pattern[str]) -> Episode | None:
    """The episode with every mention replaced, or None if it mentions none."""
    def scrub(text: str) -> str:
        return pattern.sub(PLACEHOLDER, text)

    messages = [m.model_copy(update={"content": scrub(m.content),
                                     "speaker": scrub(m.speaker) if m.speaker else m.speaker})
                for m in episode.messages]
    content = _scrub_content(episode.content, scrub)
    if content == episode.content and messages == episode.messages:
        return None
    return episode.model_copy(update={"messages": messages, "content": content})


def _scrub_content(content: str, scrub: Callable[[str], str]) -> str:
    if content.lstrip().startswith(("{", "[")):
        try:
            parsed = json.loads(content)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict | list):
            cleaned = map_strings(parsed, scrub)
            return content if cleaned == parsed else json.dumps(cleaned, ensure_ascii=False)
    return scrub(content)


def all_facts(store: GraphStore, tenant: str, scope_keys: list[str]) -> list[Fact]:
    """Every fact of the scopes, archived ones and retraction markers included."""
    return scan.all_facts(store, tenant, scope_keys, statuses=list(FactStatus))


all_episodes = scan.all_episodes
