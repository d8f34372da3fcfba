"""The dispatcher: which rules read a sentence, and in which order.

:func:`sentence_findings` is the single entry point. It runs the facts best
caught by surface patterns (:mod:`.families.lexical`: names, "call me X", age,
"Todo:"; :mod:`.families.chat`: slots said in shorthand), the noun-phrase facts (:func:`.families.nouns.noun_facts`: "my sister
Anna"), every verb rule the families register for each clause's lemma (see
:mod:`graphmem.extract.rules.families`), and finally the lesson detector; then
:func:`.slots.settle` puts values into their slots. Questions state nothing but
what they take as given (the speaker's manager, new phone or car, named in passing).

Which clauses are read: main clauses and their coordinated or complement
verbs. A ``to``-infinitive under a wish or duty ("I want to work at Google")
is left to the rule of the governing verb, which turns it into a goal or a
todo instead of a fact; only aspectual heads ("started working at",
"I'm going to move to") pass their infinitive through as a statement.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, build_clause, tech_in
from graphmem.extract.rules.contrast import deny
from graphmem.extract.rules.families import FAMILIES
from graphmem.extract.rules.families.copula import copula, linking, passive_state
from graphmem.extract.rules.families.lesson import lesson_facts
from graphmem.extract.rules.families.chat import chat_facts
from graphmem.extract.rules.families.lexical import lexical_facts
from graphmem.extract.rules.families.mentions import mention_facts
from graphmem.extract.rules.families.nouns import noun_facts
from graphmem.extract.rules.families.prefs import clause_tech
from graphmem.extract.rules.families.states import progressive_slot
from graphmem.extract.rules.moves import one_reading
from graphmem.extract.rules.parties import PROJECT_NOUNS, Speech
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.questions import PRESUPPOSED_SLOTS, is_question, presupposed
from graphmem.extract.rules.slots import DIETS, settle

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_VERB_DEPS = frozenset({"ROOT", "conj", "ccomp", "xcomp", "advcl", "parataxis", "pcomp"})
#: Heads whose infinitive or gerund complement is itself a statement.
_PASS_THROUGH = frozenset({"start", "begin", "continue", "keep", "go", "get", "finish", "be"})
#: What a project can be said to have; "the app runs" is not a hobby.
_PROJECT_PREDICATES = frozenset({"PROJECT_USES", "LESSON"})
#: Every verb rule, by lemma; a lemma may have rules in several tables ("get" a job, a bike).
_TABLES = tuple(family.RULES for family in FAMILIES)
#: What a negated or ended clause may still assert: its own negative ("I don't like X" is a
#: dislike) and intentions whose rules read the negation themselves ("don't forget to...").
_NEGATION_AWARE = frozenset({"DISLIKES", "TODO", "GOAL", "PLANS", "LESSON", "LEARNING",
                             "PREFERRED_NAME"})
#: Modals that make a clause a possibility, not a statement.
_POSSIBILITY = frozenset({"might", "may", "could", "would", "should", "must"})
#: Predicates that say what may be (a plan, a goal, a todo, a subject one is taking up), and
#: a preference, which "would" says: "I'd rather use Postgres".
_MAY_BE = frozenset({"TODO", "GOAL", "PLANS", "LESSON", "LEARNING", "PREFERS"})
_REMIND_ME = re.compile(r"\bremind\s+me\b", re.IGNORECASE)


def sentence_findings(sent: Span, speech: Speech, earlier_tech: list[str]) -> list[Finding]:
    """Every finding in one sentence, each anchored to the verb it came from."""
    if is_question(sent) and not _REMIND_ME.search(sent.text):
        return _presupposed(sent, speech)
    found = lexical_facts(sent, speech) + chat_facts(sent, speech)
    found += noun_facts(sent, speech)
    found += mention_facts(sent, speech)
    found += progressive_slot(sent, speech)
    for token in sent:
        if token.pos_ not in ("VERB", "AUX") and not _diet_as_verb(token) \
                and not _verb_read_as_noun(token) or token.dep_ not in _VERB_DEPS:
            continue
        used_to = _used_to(token)
        if token.dep_ in ("xcomp", "pcomp") and token.head.lemma_ not in _PASS_THROUGH \
                and not used_to and not _had_to(token):
            continue
        if token.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to"
                                         for c in token.children):
            continue
        rules = _rules(token.lemma_.lower(), token.lower_)
        clause = build_clause(token, speech) if rules or _has_project_subject(token) else None
        if clause is None:
            continue
        clause.ended = clause.ended or used_to  # "I used to live in Paris": no longer
        findings = [f for rule in rules for f in rule(clause, speech)]
        findings += _stack(clause, findings)
        if clause.modal in _POSSIBILITY:
            # "I could work at Stripe", "I may switch to a vegan diet": what may be is no
            # fact, and would close the one that holds; plans and goals say it themselves
            findings = [f for f in findings if f.action != "assert" or f.predicate in _MAY_BE]
        if clause.negated or clause.ended:
            findings = [_never_asserted(f) for f in findings]
        for finding in findings:
            if finding.subject.type == "project" and finding.predicate not in _PROJECT_PREDICATES:
                continue
            finding.anchor = token.i
            if clause.hedged:
                finding.confidence *= 0.6
            found.append(finding)
    found += lesson_facts(sent, speech, earlier_tech)
    earlier_tech.extend(tech_in(sent))
    return one_reading(settle(_dedupe(deny([f for f in found if not _own_name(f)], sent))),
                       speech.all_towns)


def _presupposed(sent: Span, speech: Speech) -> list[Finding]:
    """What a question takes as given about the speaker ("how do I back up my new Galaxy
    S23?": their phone), read off its noun phrases alone: its verbs ask, they tell nothing."""
    names = presupposed(sent.text)
    if not names:
        return []
    found = noun_facts(sent, speech) + mention_facts(sent, speech)
    return [f for f in settle(_dedupe(found)) if f.action == "assert" and f.subject.is_speaker
            and f.predicate in PRESUPPOSED_SLOTS and f.obj.lower() in names]


def _had_to(token: Token) -> bool:
    """"we had to rehome Biscuit", "I had to sell my car", "I've had to stop the bowls": a
    past obligation is what was done (not "I have to sell my car", which is still to do)."""
    head = token.head
    past = head.tag_ == "VBD" or head.tag_ == "VBN" and any(
        a.dep_ == "aux" and a.lemma_ == "have" for a in head.children)
    return token.dep_ == "xcomp" and head.lemma_ == "have" and past and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in token.children) and not any(
        c.dep_ == "neg" for c in head.children)


def _diet_as_verb(token: Token) -> bool:
    """"I've been vegetarian my whole life" parsed with the diet as the sentence's head and
    "been" its auxiliary: read like a verb (families.diet.diet_word)."""
    return token.lower_ in DIETS and any(c.dep_ in ("aux", "auxpass") for c in token.children)


def _verb_read_as_noun(token: Token) -> bool:
    """"I live in Lisbon and work at Netflix" parsed with "work" a noun joined to "live", "i
    live in Graz, work at a brewery" with "work" a noun heading a clause: a bare noun joined
    to a verb, or heading a clause of one, and taking a preposition reads as the verb it is."""
    return token.pos_ == "NOUN" and token.dep_ in ("conj", "advcl") and token.head.pos_ == "VERB" \
        and token.tag_ == "NN" and not any(c.dep_ in ("det", "poss", "amod", "compound")
                                           for c in token.children) \
        and any(c.dep_ == "prep" for c in token.children) and token.head.i < token.i


def _own_name(finding: Finding) -> bool:
    """"Hi, I'm Maya" said by Maya: her name is already the subject's, so it says nothing."""
    return finding.predicate == "IS_NAMED" and finding.action == "assert" and \
        finding.obj.casefold() == finding.subject.name.casefold()


def _never_asserted(finding: Finding) -> Finding:
    """A negated clause closes what it names; it never states it."""
    if finding.action == "assert" and finding.predicate not in _NEGATION_AWARE:
        finding.action = "retract"
    return finding


def _used_to(verb: Token) -> bool:
    """"used to love jazz", "used to live in Paris": a state that has ended."""
    head = verb.head
    return verb.dep_ == "xcomp" and head.lemma_ == "use" and head.tag_ == "VBD" and any(
        c.lower_ == "to" for c in verb.children if c.dep_ == "aux")


def _stack(clause: Clause, findings: list[Finding]) -> list[Finding]:
    """Whatever a project's verb is ("talks to Kafka", "caches in Redis"), its tools are its stack."""
    projects = [s for s in clause.subjects if s.type == "project"]
    if not projects or clause.negated or clause.ended:
        return []
    known = {f.obj for f in findings if f.predicate == "PROJECT_USES"}
    return [Finding(p, "PROJECT_USES", n, "technology", confidence=0.75) for p in projects
            for t in clause_tech(clause.verb) if (n := phrase(t)) and n not in known]


def _rules(lemma: str, word: str) -> list[Rule]:
    rules = [rule for table in _TABLES for rule in table.get(lemma, ())]
    if word != lemma:  # "fencing" read as the verb "fence": the sport's own rules
        rules += [rule for table in _TABLES for rule in table.get(word, ()) if rule not in rules]
    if lemma == "be":
        rules.insert(0, copula)
    if lemma in ("get", "become"):
        rules.append(linking)
    if word in ("engaged", "based", "interested", "obsessed", "passionate", "allergic"):
        rules.append(passive_state)
    return rules


def _has_project_subject(verb: Token) -> bool:
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.lemma_.lower() in PROJECT_NOUNS
               for c in verb.children)


def _dedupe(found: list[Finding]) -> list[Finding]:
    seen: dict[tuple[str, str, str, str], Finding] = {}
    for f in found:
        key = (f.subject.name.lower(), f.predicate, f.obj.lower(), f.action)
        if key not in seen or seen[key].confidence < f.confidence or (
                f.timing == "last" and seen[key].timing != "last"):
            seen[key] = f  # "I quit, my last day is Friday": the ending that says when
    return list(seen.values())
