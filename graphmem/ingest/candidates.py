"""The stored facts an extractor is shown beside an episode, to restate, replace or end.

An extractor that compares (the LLM, or the rules for a correction that names no
slot) judges the episode against them; see :attr:`Extraction.wants_candidates`.
"""

from __future__ import annotations

from graphmem.extract.base import CandidateFact
from graphmem.ingest.voices import speaker_of
from graphmem.models import Episode, Scope
from graphmem.names import normalize_name
from graphmem.store.base import GraphStore
from graphmem.temporal import TimeFilter

#: How many stored facts an extractor that compares (the LLM) is shown per episode.
MAX_CANDIDATES = 20


def stored_candidates(store: GraphStore, tenant: str, scope: Scope, episode: Episode,
                      own_name: str) -> list[CandidateFact]:
    """Stored facts the episode may restate, replace or end, for the extractor to judge.

    The speakers' own current facts come first (what "I" says changes
    them, whatever words it uses), those the episode's words match best
    leading; then other facts its words match, up to MAX_CANDIDATES.
    """
    keys = scope.visible_keys
    hits = [h.id for h in store.fulltext_facts(tenant, keys, episode.content[:2000],
                                                    TimeFilter(), MAX_CANDIDATES)]
    speakers = {speaker_of(own_name, m.speaker) for m in episode.messages}
    names = [normalize_name(s) for s in speakers or {own_name}]
    found = store.find_entities(tenant, keys, names)
    subjects = {e.id for e in found}
    me = normalize_name(own_name)
    selves = {e.id for e in found  # whom an unnamed "I" is, whatever they are called now
              if me in {normalize_name(n) for n in (e.name, *e.aliases)}}
    own = [f for f in store.facts_about(tenant, keys, sorted(subjects), TimeFilter(),
                                             MAX_CANDIDATES, embeddings=False)
           if f.subject_id in subjects]
    own_ids = {f.id for f in own}
    order = [*(i for i in hits if i in own_ids), *(f.id for f in own),
             *(i for i in hits if i not in own_ids)]
    ids = list(dict.fromkeys(order))[:MAX_CANDIDATES]
    known = {f.id: f for f in own}
    fetched = {f.id: f for f in store.get_facts(
        tenant, [i for i in ids if i not in known], embeddings=False)}
    facts = [f for i in ids if (f := known.get(i) or fetched.get(i)) is not None]
    return [CandidateFact(id=f.id, text=f.text, subject=f.subject_name, predicate=f.predicate,
                          object=f.object_name, valid_from=f.valid_from,
                          own=f.subject_id in selves) for f in facts]
