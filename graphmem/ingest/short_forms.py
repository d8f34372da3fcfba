"""Short forms of first names: when a new "Mel" is the Melanie already known.

A user says "my sister Melanie works at Google" and later "Mel just got a job
at Microsoft". Without this rule "Mel" is a second person and Google stays
current. With it, a person's one-word name that is a short form of exactly one
known person's first name resolves to that person and is kept as an alias.

Merging two people is worse than keeping two apart, so the rule is narrow:

- persons only, and the short form is one word that the English nickname
  dataset (the ``nicknames`` package) lists as a nickname of something;
- it stands for a first name the dataset lists it for ("Bill" -> William) or
  that starts with it ("Mel" -> Melanie, at least :data:`MIN_PREFIX` letters);
- the scope's visible people must hold exactly one it could stand for,
  counting a person whose first name *is* the short form ("Mel Gibson") and
  the other names of the same episode; with two ("Melanie" and "Melissa") it
  stays a new person;
- the known person must not be clearly someone else: introduced in another
  relation than the mention's ("my son Mel" is not Maya's sister Melanie), or
  given another surname than the new name's.

The other order works the same way ("Mel" first, "Melanie" later): the full
name goes to the one known person named by one of its short forms, when that
short form could stand for no one else known.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from graphmem.models import Entity
from graphmem.names import is_word, normalize_name

#: The shortest short form the prefix rule accepts ("Mel", not "Me").
MIN_PREFIX = 3
#: The people read for one short form: more than two already make it ambiguous,
#: so a full page means "ambiguous", never "look further".
CANDIDATE_LIMIT = 50


@dataclass(frozen=True)
class ShortForms:
    """Which first names a short form may stand for; built once, passed to the resolver."""

    #: short form -> the first names it is a listed nickname of ("bill" -> william, ...).
    full_names: Mapping[str, frozenset[str]]
    #: first name -> its listed nicknames ("william" -> bill, will, ...).
    nicknames: Mapping[str, frozenset[str]]
    min_prefix: int = MIN_PREFIX

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str]], *,
                   min_prefix: int = MIN_PREFIX) -> ShortForms:
        """From (first name, nickname) pairs, normalised as entity names are."""
        full: dict[str, set[str]] = defaultdict(set)
        nick: dict[str, set[str]] = defaultdict(set)
        for name, short in pairs:
            name, short = normalize_name(name), normalize_name(short)
            if is_word(name) and is_word(short) and name != short:
                full[short].add(name)
                nick[name].add(short)
        return cls({k: frozenset(v) for k, v in full.items()},
                   {k: frozenset(v) for k, v in nick.items()}, min_prefix)

    @classmethod
    def english(cls, *, min_prefix: int = MIN_PREFIX) -> ShortForms:
        """The hand-curated English dataset of the ``nicknames`` package (pinned in
        pyproject.toml; its CSV ships in the wheel, so nothing is fetched at run time)."""
        from nicknames import name_triplets

        return cls.from_pairs(((t.name1, t.name2) for t in name_triplets()
                               if t.relationship == "has_nickname"), min_prefix=min_prefix)

    def stands_for(self, short: str, first: str) -> bool:
        """Whether ``short`` may be a short form of the first name ``first`` (both normalised).

        Only listed nicknames qualify at all, which keeps "Mar" or "Chri" (a typo, a
        syllable) from matching by prefix.
        """
        listed = self.full_names.get(short)
        if listed is None or short == first:
            return False
        return first in listed or (len(short) >= self.min_prefix
                                   and len(first) > len(short) and first.startswith(short))

    def could_mean(self, short: str, first: str) -> bool:
        """``stands_for``, or the same first name: both make a known person a candidate."""
        return short == first or self.stands_for(short, first)

    def prefixes(self, short: str) -> list[str]:
        """The name starts a store is asked for to find every first name ``short`` could
        mean: the short form itself (Melanie, Mel Gibson) and its listed full names."""
        listed = self.full_names.get(short, frozenset())
        return [short, *sorted(n for n in listed if not n.startswith(short))]

    def short_forms_of(self, first: str) -> list[str]:
        """Every short form that may stand for ``first``: its listed nicknames and the
        listed nicknames it starts with ("melanie" -> "mel")."""
        starts = (first[:k] for k in range(self.min_prefix, len(first)))
        found = {*self.nicknames.get(first, ()),
                 *(s for s in starts if self.stands_for(s, first))}
        return sorted(found)


def words(name: str) -> list[str]:
    """A name's normalised words: "Melanie  Chen" -> ["melanie", "chen"]."""
    return normalize_name(name).split()


def described(name: str) -> bool:
    """Whether ``name`` describes someone by another's relation ("Sam's brother", "Ben's
    dad") rather than naming them: its first word is no first name of theirs, so "Sam"
    never stands for "Sam's brother"."""
    return any(w.endswith(("'s", "\u2019s", "'", "\u2019")) for w in words(name))


def _names(entity: Entity) -> list[list[str]]:
    return [w for n in [entity.name, *entity.aliases] if not described(n) and (w := words(n))]


def first_names(entity: Entity) -> set[str]:
    """The first word of each of an entity's names and aliases (descriptions are none)."""
    return {w[0] for w in _names(entity)}


def surnames(entity: Entity) -> set[str]:
    """The rest of each of its names that has more than one word ("chen" of "Melanie Chen")."""
    return {" ".join(w[1:]) for w in _names(entity) if len(w) > 1}


def other_surname(entity: Entity, name: str) -> bool:
    """True when ``name`` and the entity each give a surname and none agree: someone else."""
    rest = " ".join(words(name)[1:])
    known = surnames(entity)
    return bool(rest and known and rest not in known)


def other_relation(relation: str | None, introduced: set[tuple[str, str]]) -> bool:
    """True when the mention names a relation ("KNOWS:son") and the person was introduced,
    but never in it: a new person, not a nickname (see :mod:`graphmem.ingest.people`)."""
    return bool(relation and introduced and all(rel != relation for _, rel in introduced))
