"""Who says "I" in an episode, before its extraction and its resolution.

A message's ``speaker`` names who "I" is. Clients that send only ``role`` and
``content``, and texts, leave it out; then "I" is the name the scope's user
gave before (:func:`graphmem.speakers.known_speaker`), so their facts land on
the person their named messages built rather than on a second one named after
the account id. A text pasted as a transcript ("Sam: ...") is read line by line
(:mod:`graphmem.ingest.transcript`). The stored episode always stays as sent;
only the extractor reads the filled-in view.
"""

from __future__ import annotations

from graphmem.edit.unit import Edit
from graphmem.extract.base import SELF, Extraction
from graphmem.ingest.transcript import transcript_lines
from graphmem.models import Entity, Episode, Message, Scope
from graphmem.names import normalize_name
from graphmem.speakers import known_speaker, speaker_name
from graphmem.store.base import GraphStore, WriteBatch


def own_name(store: GraphStore, tenant: str, scope: Scope, episode: Episode,
             heard: str | None = None) -> tuple[str, bool]:
    """Who "I" is in the episode's messages without a speaker, or in its text, and
    whether that is a name the user gave (here, in an earlier episode of the same batch,
    ``heard``, or in the scope's recent episodes) rather than the account id. The store
    is read only when some "I" is unnamed."""
    named = speaker_name(episode.messages)
    unnamed = not episode.messages or any(m.role == "user" and not m.speaker
                                          for m in episode.messages)
    known = named or heard or (known_speaker(store, tenant, scope) if unnamed else None)
    if known:
        return known, True
    return scope.user_id or scope.group_id or "user", False


def as_told(episode: Episode, own: str, known: bool) -> Episode:
    """The episode as the extractor should read it: unnamed user messages said by
    ``own`` when that is a name, a transcript's lines by their speakers, and a text by
    ``own``."""
    if known and episode.messages:
        return episode.model_copy(update={"messages": [
            m.model_copy(update={"speaker": own}) if m.role == "user" and not m.speaker
            else m for m in episode.messages]})
    if episode.source != "text":
        return episode
    turns = transcript_lines(episode.content)
    if turns is None and known:  # the user's own text, as they would say it
        turns = [(own, episode.content)]
    if turns is None:
        return episode
    return episode.model_copy(update={"messages": [Message.model_construct(
        id=None, role="user", speaker=speaker, content=words,
        timestamp=episode.reference_time) for speaker, words in turns]})


def introduced_as(extraction: Extraction, own: str) -> str | None:
    """The name an unnamed "I" gave in words ("Hi, I'm Priya"), if the extractor read one:
    then "I" is Priya in this episode, not the account id."""
    names = {f.object for f in extraction.facts
             if f.predicate == "IS_NAMED" and f.action == "assert" and f.subject in (SELF, own)
             and f.object[:1].isupper()}
    return names.pop() if len(names) == 1 else None


def keep_the_account(scope: Scope, person: Entity | None,
                     pending: dict[tuple[str, str], Entity]) -> None:
    """The person a user introduced themselves as keeps the account id as an alias, so
    their later unnamed messages find the name again (:func:`known_speaker`)."""
    account = scope.user_id
    if person is None or not account or person.type != "person" or normalize_name(account) in {
            normalize_name(n) for n in [person.name, *person.aliases]}:
        return
    named = person.model_copy(update={"aliases": [*person.aliases, account]})
    for alias in (person.name, account):
        pending[(scope.key, normalize_name(alias))] = named


def speaker_of(own: str, name: str | None) -> str:
    """The name of who said ``name`` ("SELF" or none: the episode's own speaker); a
    relative named after "SELF" ("SELF's dad", an unnamed user's dad) is the speaker's."""
    if name and name.startswith(f"{SELF}'s "):
        return own + name.removeprefix(SELF)
    return name if name and name != SELF else own


def name_the_owner(store: GraphStore, edit: Edit, scope: Scope, name: str,
                   pending: dict[tuple[str, str], Entity]) -> None:
    """The first name a user gives goes to the person their unnamed messages built.

    Before it, "I" was filed under the account id (``u77``); the person named now is
    that one, so the entity takes the name (keeping the id as an alias) instead of a
    second person being created. ``pending`` holds the entities the edit has made or
    changed so far, by scope and normalised name.
    """
    account, named = normalize_name(scope.user_id or ""), normalize_name(name)
    if not account or account == named or (scope.key, named) in pending:
        return
    entities = store.find_entities(edit.tenant, scope.visible_keys, [account, named])
    owner = next((e for e in entities if normalize_name(e.name) == account), None)
    taken = any(named == normalize_name(n) for e in entities for n in [e.name, *e.aliases])
    if (taken or owner is None or owner.type != "person"
            or owner.name != scope.user_id or owner.scope_key != scope.key):
        return
    renamed = owner.model_copy(update={
        "name": name, "aliases": list(dict.fromkeys([*owner.aliases, owner.name]))})
    edit.write(WriteBatch(entities=[renamed]))
    for alias in (name, owner.name):
        pending[(scope.key, normalize_name(alias))] = renamed
