"""Entity focus: who a question is about, so that other people's facts do not answer it.

"Where does Maya work?" is about Maya. In a group's memory, Diego's employer is
as close to the question in words and meaning as Maya's, so ranking alone lets
it into the answer. The focus is found once per query, from the names the
question uses: an entity's full name or alias ("Maya Patel"), or a person's
given or family name alone ("Maya"), as people ask.

A question in the first person ("Where do I work?") in a user's scope is about
that user: the owner entity, the person the user speaks as (the rule extractor
files "I work at ..." under the speaker's name). "my sister" is someone else:
"Where does my sister work?" is about her alone. A question that speaks of the
user and their kin ("a dinner recipe for me and my partner") is about both, so
the user's own facts (an allergy, a diet) answer it beside the partner's. A
question that names a person the scope does not know ("Where does Priya
work?") has a focus too, with no entity: no one else's value of a slot answers
for hers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


from graphmem.kin import kin_word, related_people
from graphmem.models import Entity, Fact, Scope
from graphmem.search.traverse import query_ngrams
from graphmem.store.base import GraphStore, TurnHit
from graphmem.names import normalize_name
from graphmem.speakers import known_speaker

#: Entity types a bare part of a name may stand for ("Maya" for "Maya Patel").
PERSON_TYPES = frozenset({"person"})
#: Candidates read by name before the part-of-name match.
NAME_CANDIDATES = 16
#: Words by which a user speaks of themself, and how :meth:`Focus.blank` words each.
FIRST_PERSON = {"i": "X", "me": "X", "myself": "X", "my": "X's", "mine": "X's"}
#: How an assistant speaks of the user in the user's own memory ("Where does she live
#: now?"), and how :meth:`Focus.blank` words each.
THIRD_PERSON = {"she": "X", "he": "X", "her": "X's", "his": "X's", "him": "X"}
#: Capitalised words that name no one.
NOT_NAMES = frozenset({
    "i", "what", "where", "when", "who", "whom", "whose", "which", "why", "how", "is", "are",
    "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will", "would",
    "should", "tell", "the", "a", "an", "and", "or", "in", "on", "at", "of", "to", "for",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "today", "yesterday", "tomorrow",
    # pronouns, capitalised at a sentence's start ("It's", "That's", "Let's")
    "it", "its", "that", "this", "these", "those", "there", "here", "let", "he", "she", "they",
    "we", "you", "my", "our", "your", "his", "her", "their"})
#: Words a request or question opens with, capitalised there, that name no one: "Recommend
#: a place to live", "Any health problems?". Another capitalised first word may be a name
#: ("Maya works where?").
OPENERS = frozenset({
    "recommend", "suggest", "give", "list", "find", "show", "plan", "name", "describe",
    "explain", "summarize", "summarise", "remind", "help", "compare", "choose", "pick",
    "write", "draft", "book", "make", "get", "send", "check", "look", "search", "remember",
    "note", "add", "create", "set", "schedule", "update", "change", "cancel", "delete",
    "forget", "ask", "please", "any", "anything", "something", "some", "all", "every",
    "hey", "hi", "hello", "thanks", "ok", "okay", "so", "also", "but", "then", "now",
    "maybe", "perhaps", "just", "quick", "sorry", "again", "ideas", "thoughts", "advice",
    "tips", "good", "best", "favorite", "favourite", "recipe", "recipes"})
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True)
class Focus:
    """The entities a question names, and the words that name them."""

    entities: tuple[Entity, ...] = ()
    names: frozenset[str] = field(default_factory=frozenset)
    pronouns: bool = False
    """Whether the question speaks of the focus in the first person ("Where do I work?")."""
    third: bool = False
    """Whether it speaks of the focus as "she" or "he", naming no one ("Does she have pets?"
    asked in her own memory)."""
    _seen: dict[str, set[str]] = field(default_factory=dict, init=False, repr=False,
                                       compare=False)
    """The name words of texts asked about (:meth:`_words_of`); the focus lives one search."""

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.entities)

    def __bool__(self) -> bool:
        return bool(self.entities)

    def __or__(self, other: Focus) -> Focus:
        """Both foci at once ("me and my partner"): a question about several people is
        answered by the facts of each."""
        seen = {e.id for e in self.entities}
        return Focus((*self.entities, *(e for e in other.entities if e.id not in seen)),
                     self.names | other.names, self.pronouns or other.pronouns,
                     self.third or other.third)

    @property
    def stranger(self) -> bool:
        """A person the question names whom the scope does not know."""
        return not self.entities and bool(self.names)

    def covers_fact(self, fact: Fact) -> bool:
        return fact.subject_id in self.ids or fact.object_id in self.ids

    def said_by(self, speaker: str) -> bool:
        """Whether ``speaker`` is (a name of) the focus."""
        return bool(self._words_of(speaker) & self.names)

    def covers_turn(self, turn: TurnHit) -> bool:
        """A turn the focus said, or one that names it."""
        if turn.speaker and self.said_by(turn.speaker):
            return True
        return bool(self._words_of(turn.content) & self.names)

    def _words_of(self, text: str) -> set[str]:
        """:func:`_name_words`, each text once: a search asks of the same turns and speakers
        many times (a sixth of a LoCoMo search went to normalising their words again)."""
        words = self._seen.get(text)
        if words is None:
            words = self._seen[text] = _name_words(text)
        return words

    def blank(self, question: str) -> str:
        """The question with the focus's names replaced by ``X`` ("Where does X work?")."""
        out: list[str] = []
        for word in question.split():
            stem = word[:-2] if word.lower().endswith(("'s", "’s")) else word
            bare = stem.rstrip("?!.,;:")
            if normalize_name(stem) in self.names:
                word = "X" + word[len(stem):]
                if out and out[-1].lower() in ("my", "our"):  # "my sister" is X
                    out.pop()
            elif self.pronouns and bare.lower() in FIRST_PERSON:
                word = FIRST_PERSON[bare.lower()] + word[len(bare):]
            elif self.third and bare.lower() in THIRD_PERSON:
                word = THIRD_PERSON[bare.lower()] + word[len(bare):]
            out.append(word)
        return " ".join(out)


def find_focus(store: GraphStore, tenant: str, scope_keys: list[str], question: str) -> Focus:
    """The people a question is about, read from the store (see :func:`choose_focus`)."""
    exact = store.find_entities(tenant, scope_keys, focus_names(question))
    named: list[Entity] = []
    if not [e for e in exact if e.type in PERSON_TYPES]:
        found = store.fulltext_entities(tenant, scope_keys, question, NAME_CANDIDATES)
        named = store.get_entities(tenant, [s.id for s in found]) if found else []
    return choose_focus(question, exact, named)


def speaks_of_self(question: str) -> bool:
    """Whether a question asks about the one asking: "Where do I work?", "a recipe for me and
    my partner", not "Where does my sister work?": the "my" of "my sister" names her."""
    words = [w.lower() for w in _WORD.findall(question)]
    kin_owners = {i for i, (a, b) in enumerate(zip(words, words[1:]))
                  if a in ("my", "our") and kin_word(b) is not None}
    if _WHO_IS.match(question):  # "Who is my boss?": the user's own facts say who
        kin_owners = set()
    return any(w in FIRST_PERSON for i, w in enumerate(words) if i not in kin_owners)


def user_focus(store: GraphStore, tenant: str, scope: Scope, question: str) -> Focus:
    """The scope's user (:func:`owner_focus`) and the kin the question names
    (:func:`kin_focus`), together when it speaks of both ("me and my partner")."""
    return (owner_focus(store, tenant, scope, question)
            | kin_focus(store, tenant, scope, question))


def owner_focus(store: GraphStore, tenant: str, scope: Scope, question: str) -> Focus:
    """The scope's user as the focus of a question in the first person, of one that calls
    them by their user id ("Where does maya work?" in ``maya``'s scope), or of one that
    says "she" or "he" and names no one (:func:`speaks_of_them`), if the graph knows them.

    The owner is the person the user speaks as in their recent messages (else their
    user id), as :func:`graphmem.lifecycle.records.owner_name` names them.
    """
    if scope.user_id is None:
        return Focus()
    by_id = normalize_name(scope.user_id)
    pronouns = speaks_of_self(question)
    third = not pronouns and speaks_of_them(question)
    if not pronouns and not third and by_id not in focus_names(question):
        return Focus()
    name, people = _owner(store, tenant, scope)
    if not people:
        return Focus()
    return Focus(tuple(people), frozenset({*_name_words(name), by_id}), pronouns=pronouns,
                 third=third)


def speaks_of_them(question: str) -> bool:
    """Whether a question speaks of someone as "she" or "he" and names no one ("What is her
    job title?"): asked of a user's memory, the user. Called only when the question named
    no one the scope knows; a capitalised word after the first may be a name it does not
    know ("Does Priya have pets, and does she drive?"), and kin are kin ("her sister")."""
    words = _WORD.findall(question)
    lower = [w.lower() for w in words]
    return any(w in THIRD_PERSON for w in lower) and not any(
        w[:1].isupper() and w.lower() not in NOT_NAMES for w in words[1:]) and not any(
        kin_word(w) is not None for w in lower)


def kin_focus(store: GraphStore, tenant: str, scope: Scope, question: str) -> Focus:
    """The people "my sister", "my wife", "my boss" name in a user's scope: those the
    user's current facts relate to them that way ("Ana is Noah's sister."). One the graph
    does not know is a stranger (:attr:`Focus.stranger`): the user's own values never
    answer for them. Not a question of who they are ("Who is my boss?"), which the user's
    own facts answer (:func:`owner_focus`)."""
    words = [w.lower() for w in _WORD.findall(question)]
    kin = next((b for a, b in zip(words, words[1:]) if a in ("my", "our")
                and kin_word(b) is not None), None)
    word = kin_word(kin) if kin is not None else None
    if kin is None or word is None or scope.user_id is None or _WHO_IS.match(question):
        return Focus()
    people = related_people(store, tenant, scope, _owner(store, tenant, scope)[1], word)
    if not people:
        return Focus((), frozenset({kin, word}))
    return Focus(tuple(people), frozenset({kin, word, *(w for e in people
                                                        for w in _name_words(e.name))}))


def relative_focus(store: GraphStore, tenant: str, scope: Scope, question: str,
                   known: list[Entity]) -> Focus | None:
    """The people "Maya's sister" or "sam's wife" name in a question about them ("Where does
    maya's sister work?"): those whose facts relate the named person to them that way.
    None when the question speaks of no known person's relative, or asks who they are
    ("Who is Maya's sister?", which the named person's own facts answer). A relative the
    graph does not know is a stranger (:attr:`Focus.stranger`): the named person's own
    values never answer for them."""
    if _WHO_IS.match(question):
        return None
    for said in _RELATIVE.finditer(question):
        word = kin_word(said.group(2).lower())
        if word is None:
            continue
        owner_words, owners = _relative_owner(store, tenant, scope, said.group(1).split(), known)
        if not owners:
            continue
        people = related_people(store, tenant, scope, owners, word)
        return Focus(tuple(people), frozenset({said.group(2).lower(), word, *owner_words,
                                               *(w for e in people
                                                 for w in _name_words(e.name))}))
    return None


def _relative_owner(store: GraphStore, tenant: str, scope: Scope, before: list[str],
                    known: list[Entity]) -> tuple[set[str], list[Entity]]:
    """Whose relative the words before "'s" name: the longest run of them ending there that
    is all of a known person's name ("Sam Lee", "maya"), or the scope's user by id."""
    for size in range(min(3, len(before)), 0, -1):
        words = _name_words(" ".join(before[-size:]))
        if not words or words & NOT_NAMES:
            continue
        owners = [e for e in known if e.type in PERSON_TYPES
                  and words <= {w for n in (e.name, *e.aliases) for w in _name_words(n)}]
        if not owners and scope.user_id is not None and words == {normalize_name(scope.user_id)}:
            owners = _owner(store, tenant, scope)[1]
        if owners:
            return words, owners
    return set(), []


#: "Maya's sister", "sam lee's wife": a relative of whoever the words before "'s" name.
_RELATIVE = re.compile(r"((?:[\w-]+\s+){0,2}[\w-]+)['’]s\s+(\w+)")
#: Questions of who someone is, not of what is true of them.
_WHO_IS = re.compile(r"^\W*(?:who(?:'s|\s+is|\s+was|\s+are)|what(?:'s|\s+is)\s+the\s+name)\b",
                     re.IGNORECASE)


def _owner(store: GraphStore, tenant: str, scope: Scope) -> tuple[str, list[Entity]]:
    """The name a user scope's person goes by, and the person entities of that name: one a
    scope it sees (in a member scope, the user's own and the group's), the most personal
    scope's first."""
    name = known_speaker(store, tenant, scope) or scope.user_id or ""
    people = [e for e in store.find_entities(tenant, scope.visible_keys, [normalize_name(name)])
              if e.type in PERSON_TYPES]
    order = {key: i for i, key in enumerate(scope.visible_keys)}
    first_per_scope: dict[str, Entity] = {}
    for person in sorted(people, key=lambda e: order.get(e.scope_key, len(order))):
        first_per_scope.setdefault(person.scope_key, person)
    return name, list(first_per_scope.values())


def stranger_focus(question: str, known: list[Entity]) -> Focus:
    """A person the question names by a capitalised name that no ``known`` entity has
    ("Where does Priya work?"): a focus with no entity (see :attr:`Focus.stranger`)."""
    taken = {w for e in known for n in (e.name, *e.aliases) for w in _name_words(n)}
    words = _WORD.findall(_without_possessives(question))
    if words and words[0].lower() in OPENERS:
        words = words[1:]  # capitalised as a first word, not as a name
    names = {normalize_name(w) for w in words
             if w[:1].isupper() and w[1:].islower() and len(w) > 1}
    unknown = frozenset(n for n in names if n not in NOT_NAMES and n not in taken)
    return Focus((), unknown) if unknown else Focus()


def focus_names(question: str) -> list[str]:
    """The names a question may call someone by: its n-grams, possessives dropped."""
    return query_ngrams(_without_possessives(question))


def choose_focus(question: str, exact: list[Entity], named: list[Entity]) -> Focus:
    """The people a question is about.

    ``exact`` are entities one of the question's n-grams names (a superset will do:
    only those :func:`focus_names` names count); ``named`` its best BM25 name matches.
    Exact names and aliases win; otherwise a person whose given or family name
    the question uses. Only people: a question's other words name things
    ("project", "coffee") too often for them to narrow the answer. Nothing is
    guessed from meaning: a focus that is wrong would hide the right answer.
    """
    grams = focus_names(question)
    words = frozenset(g for g in grams if " " not in g)
    wanted = set(grams)
    people = [e for e in exact if e.type in PERSON_TYPES
              and any(normalize_name(n) in wanted for n in (e.name, *e.aliases))]
    if not people:  # "Diego" names Diego Alvarez, not "Diego Alvarez's dad"
        people = [e for e in named if e.type in PERSON_TYPES and not _DESCRIBED.search(e.name)
                  and _name_words(e.name) & words]
    chosen = people
    names: set[str] = set()
    for entity in chosen:
        for name in (entity.name, *entity.aliases):
            names |= _name_words(name) & words
            if normalize_name(name) in grams:
                names.add(normalize_name(name))
    return Focus(tuple(chosen), frozenset(names))


#: A person known only by whose relative they are: "Diego Alvarez's dad", "Maya's sister".
_DESCRIBED = re.compile(r"\w['’]s\s+\w")


def _name_words(text: str) -> set[str]:
    return {normalize_name(w) for w in _without_possessives(text).split() if len(w) > 1}


def _without_possessives(text: str) -> str:
    """"Who was Zoe's manager?" names Zoe."""
    return re.sub(r"(\w)['’]s\b", r"\1", text)
