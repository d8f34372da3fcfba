"""Who "I" is in a scope: the name its user speaks under.

A user id (``u77``) is an account, not a name. The name is the speaker of the
user's recent messages; ingestion files an unnamed "I" under it, search points
"Where do I work?" at it, and summaries and the profile speak of it. One rule,
used by all three, so they agree on who the user is.
"""

from __future__ import annotations

from collections import Counter

from graphmem.models import Message, Scope
from graphmem.names import normalize_name
from graphmem.store.base import GraphStore

#: How many of a scope's latest episodes tell the name its user speaks under.
NAMING_EPISODES = 20


def speaker_name(messages: list[Message]) -> str | None:
    """The name the user speaks under in these messages (the most frequent), if any."""
    names = Counter(m.speaker.strip() for m in messages
                    if m.role == "user" and m.speaker and m.speaker.strip())
    return names.most_common(1)[0][0] if names else None


def known_speaker(store: GraphStore, tenant: str, scope: Scope) -> str | None:
    """The name a user scope's person has spoken under lately, if they ever gave one
    (graphmem's own records, such as summaries and todos, do not count)."""
    if scope.user_id is None:
        return None
    recent = store.list_episodes(tenant, [scope.key], limit=NAMING_EPISODES)
    return speaker_name([m for e in recent if not e.is_record for m in e.messages]) or \
        _introduced(store, tenant, scope.user_id, scope.key)


def _introduced(store: GraphStore, tenant: str, account: str, scope_key: str) -> str | None:
    """The name of the person that holds the account id as an alias: the one the user
    introduced themselves as in words ("Hi, I'm Priya"), or the account's first person,
    renamed when the user first gave a name."""
    norm = normalize_name(account)
    # a name the user gave counts even when it normalises like the account id ("Hi, I'm
    # Maya" on the account "maya"); a person still called exactly the id was never named
    return next((e.name for e in store.find_entities(tenant, [scope_key], [norm])
                 if e.type == "person" and e.scope_key == scope_key
                 and (normalize_name(e.name) != norm or e.name != account)), None)
