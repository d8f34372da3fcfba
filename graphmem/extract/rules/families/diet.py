"""Verb rules for diets: the one a person follows, starts, ends or goes back from.

"I eat vegan", "I went vegetarian", "I've been pescatarian my whole life", "I'm
gluten-free", "I eat everything again", "back to eating meat" (which rules a
meatless diet out). Negated or ended, the same clauses close the diet
(dispatch._never_asserted); endings without a verb ("keto is over") are in
:mod:`graphmem.extract.rules.families.change`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, action_of, each
from graphmem.extract.rules.lexicon import dobjs, pobjs
from graphmem.extract.rules.parties import Speech, conjuncts
from graphmem.extract.rules.slots import DIETS, NOT_SO

if TYPE_CHECKING:
    from spacy.tokens import Token

_DIET_VERBS = frozenset({"be", "eat", "go", "become", "turn", "try", "follow", "stay", "start",
                         "begin",
                         "keep", "live", "do", "switch", "get", "return"})


#: A diet tried and left: "once", "didn't stick", "for a week".
_TRIED_ONCE = re.compile(r"\b(?:once|didn'?t\s+(?:stick|last|work)|did\s+not\s+(?:stick|last)|"
                         r"gave\s+up|for\s+a\s+(?:week|day|month|bit)|briefly|recipe)\b",
                         re.IGNORECASE)


def diet(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm vegan", "I eat pescatarian", "I went vegetarian", "I'm trying a keto diet now"."""
    verb = clause.verb
    if clause.modal in NOT_SO or clause.lemma not in _DIET_VERBS:
        return []
    ruled_out = _ruled_out(clause)
    if ruled_out:  # "I started eating meat again", "went back to eating meat": not vegetarian
        return each(clause, lambda s: [Finding(s, "DIET", n, "diet", "retract")
                                        for n in ruled_out])
    back = [b for a in verb.children if a.dep_ == "advmod" and a.lower_ == "back"
            for b in pobjs(a, ("to",)) if b.lemma_ == "be"]
    if back and not clause.negated:  # "I'm back to being pescatarian": that diet again
        named = [w.lower_ for b in back for w in b.children if w.lower_ in DIETS]
        return each(clause, lambda s: [Finding(s, "DIET", n, "diet") for n in named])
    if any(c.dep_ == "prep" and c.lower_ in ("from", "to") and not any(
            o.ent_type_ in ("DATE", "TIME") for o in c.children) for c in verb.children):
        return []  # "went from vegetarian to vegan" is a transition ("from this month" is none)
    if clause.tense == "past" and not clause.perfect and (
            clause.lemma == "be" or clause.lemma == "try" and _TRIED_ONCE.search(verb.sent.text)):
        return []  # "I was vegan at uni", "I tried a paleo diet once — didn't stick"
    words: list[Token] = []
    for c in verb.children:
        if c.dep_ == "ccomp" and any(x.dep_ in ("nsubj", "nsubjpass") for x in c.children):
            continue  # "I am vegetarian, I am not eating meat anymore": a clause of its own
        if c.dep_ in ("acomp", "attr", "oprd", "dobj", "advmod", "npadvmod", "xcomp", "ccomp",
                      "amod", "nsubj") and c.dep_ != "nsubj":
            words += [c, *conjuncts(c)]
            words += [x for x in c.children if x.dep_ in ("amod", "compound", "acomp")]
    for plan in pobjs(verb, ("on",)):  # "I'm on a low-salt diet"
        if plan.lemma_.lower() == "diet":
            words += [x for x in plan.children if x.dep_ in ("amod", "compound")]
    names = list(dict.fromkeys(w.lower_ for w in words if w.lower_ in DIETS
                               or w.lemma_.lower() in DIETS))
    names += [n for w in words if (n := _hyphenated(w)) in DIETS and n not in names]
    action = action_of(clause)
    eats_all = clause.lemma == "eat" and not clause.negated and (
        any(t.lower_ in ("everything", "anything", "whatever") for t in dobjs(verb))
        or any(c.lower_ in ("normally", "normal") for c in verb.children))
    if eats_all:  # "I eat everything again", "I just eat normally": no diet any more
        return each(clause, lambda s: [Finding(s, "DIET", "", "diet", "retract")])
    return each(clause, lambda s: [Finding(s, "DIET", n, "diet", action) for n in names])


def put_on(clause: Clause, speech: Speech) -> list[Finding]:
    """"My doctor has put me on a low-salt diet": the speaker's diet, whoever chose it."""
    verb = clause.verb
    if clause.negated or clause.modal or not speech.first_person or not any(
            t.lower_ == "me" for t in dobjs(verb)):
        return []
    names = [n for plan in pobjs(verb, ("on",)) if plan.lemma_.lower() == "diet"
             for x in plan.children if x.dep_ in ("amod", "compound")
             if (n := _hyphenated(x)) in DIETS]
    return [Finding(speech.me(), "DIET", n, "diet") for n in names]


def _hyphenated(word: Token) -> str:
    """"gluten-free" split by the tokenizer into "gluten", "-", "free"."""
    doc = word.doc
    if word.i >= 2 and doc[word.i - 1].text == "-" and not doc[word.i - 2].whitespace_:
        return f"{doc[word.i - 2].lower_}-{word.lower_}"
    return word.lower_


#: The diets a food rules out: whoever eats meat again is no longer vegetarian.
_RULES_OUT = MappingProxyType({
    **dict.fromkeys(("meat", "chicken", "beef", "pork", "steak", "bacon", "burgers", "lamb"),
                    ("vegetarian", "vegan", "pescatarian")),
    **dict.fromkeys(("fish", "seafood", "salmon", "tuna", "sushi"), ("vegetarian", "vegan")),
    **dict.fromkeys(("dairy", "cheese", "eggs", "milk", "butter"), ("vegan",)),
})


def _ruled_out(clause: Clause) -> list[str]:
    """The diets a clause of eating ends: "I eat meat again", "I've started eating fish"
    (a change, not a habit: not "I still eat eggs", "I don't eat meat", "I might eat
    fish", nor a one-off "I ate fish yesterday")."""
    verb: Token | None = clause.verb
    if clause.negated or clause.hedged or clause.modal or clause.tense == "future":
        return []
    if clause.lemma != "eat":
        verb = _back_to_eating(clause.verb)  # "I went back to eating meat", "back to eating fish"
        if verb is None:
            return []
    else:
        verb = clause.verb
        again = any(t.lower_ == "again" for t in verb.sent)
        started = verb.dep_ == "xcomp" and verb.head.lemma_ in ("start", "begin", "resume")
        if not (again or started):
            return []
    foods = [t.lower_ for t in dobjs(verb)] + [t.lemma_.lower() for t in dobjs(verb)]
    return list(dict.fromkeys(d for food in foods for d in _RULES_OUT.get(food, ())))


def _back_to_eating(verb: Token) -> Token | None:
    """The "eating" of "went back to eating", "returned to eating", "am back to eating"."""
    if verb.lemma_ != "return" and not any(c.dep_ == "advmod" and c.lower_ == "back"
                                           for c in verb.children):
        return None
    return next((t for t in pobjs(verb, ("to",)) if t.lemma_ == "eat"), None)


def diet_word(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm not keto anymore" when the parser reads the diet word as a verb."""
    if clause.modal in NOT_SO or clause.verb.lower_ not in DIETS:
        return []
    word = clause.verb.lower_
    return each(clause, lambda s: [Finding(s, "DIET", word, "diet", action_of(clause))])


#: What a working day is made of: "most of my day is C#", "my research code is all Julia".


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    **{word: (diet_word,) for word in DIETS},
    "put": (put_on,), "be": (diet,), "become": (diet,), "eat": (diet,), "go": (diet,), "turn": (diet,),
    "try": (diet,), "follow": (diet,), "stay": (diet,), "keep": (diet,), "return": (diet,),
    "do": (diet,), "start": (diet,), "begin": (diet,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
