"""Lessons: technical advice worth keeping ("the Docker build failed; use proxy-env").

A lesson needs a technical context (a known technology, or words such as
"deploy", "CI", "migration") and a sign that it is advice rather than chat: a
"Tip:"/"Lesson learned:" prefix, an imperative backed by a failure or an
"always"/"never"/"make sure", or a technical thing that "needs" something.
Imperatives alone are everywhere in conversation ("Keep at it!"), so they are
never enough. The lesson's subject is the technology it is about, else the
project; its object keeps the advice itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule, tech_in
from graphmem.extract.rules.lexicon import ADVICE_VERBS, imperative
from graphmem.extract.rules.parties import Party, Speech
from graphmem.extract.rules.phrases import verb_phrase

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

PREFIX = re.compile(
    r"^\s*(?:pro\s+tip|tip|lessons?\s+learned|lesson|note\s+to\s+self|note|gotcha|heads[\s-]up|"
    r"til|fyi|important|learned|reminder|warning|caveat|psa|rule\s+of\s+thumb)\s*"
    r"[:\-\u2013\u2014]\s*", re.IGNORECASE)
TECH_WORDS = frozenset({
    "deploy", "deploys", "deployment", "ci", "cd", "migration", "migrations", "env", "config",
    "configuration", "dependency", "dependencies", "compile", "compiler", "proxy", "cache",
    "endpoint", "api", "repo", "branch", "commit", "container", "containers", "cluster",
    "pipeline", "build", "builds", "tests", "test", "database", "db", "query", "schema",
    "server", "port", "logs", "lockfile", "package", "packages", "version", "upgrade", "image",
    "staging", "production", "prod", "timeout", "ssl", "tls", "certificate", "dns", "token",
    "secret", "credentials", "index", "indexes", "script", "cron", "build", "linter", "lint",
    "bundle", "bundler", "runtime", "install", "healthcheck", "wal", "orm", "sdk", "cli",
    "flag", "variable", "variables", "regex", "unit", "integration", "docker", "kubernetes",
})
_FAILURE = frozenset({"fail", "break", "crash", "error", "timeout", "hang", "flaky", "bug",
                      "broken", "leak", "otherwise", "because", "slow", "fix", "workaround"})
_ALWAYS = frozenset({"always", "never"})
_NOT_ADVICE = frozenset({"remind", "forget", "call", "let", "thank", "tell", "see", "keep",
                         "take", "have", "enjoy", "say", "guess", "imagine", "look"})


def lesson_facts(sent: Span, speech: Speech, earlier_tech: list[str]) -> list[Finding]:
    """The lesson stated in ``sent``, if any; ``earlier_tech`` names earlier context."""
    techs = tech_in(sent)
    words = {t.lower_ for t in sent}
    lemmas = {t.lemma_.lower() for t in sent}
    technical = bool(techs) or bool(words & TECH_WORDS)
    if not technical:
        return []
    prefix = PREFIX.match(sent.text)
    prefixed = prefix is not None
    after_prefix = sent.start_char + (prefix.end() if prefix else 0)
    failure = bool(lemmas & _FAILURE or words & _FAILURE)
    advice = _advice(sent, speech, strict=not (prefixed or failure), prefixed=prefixed,
                     after=after_prefix)
    if advice is None and (prefixed or failure):
        advice = _after_turn(sent, speech)
    if advice is None:
        advice = _needs(sent, speech, prefixed or bool(techs))
    if advice is None:
        return []
    subject = techs[0] if techs else (earlier_tech[-1] if earlier_tech else "project")
    kind = "project" if subject == "project" else "technology"
    body = PREFIX.sub("", sent.text).strip()
    body = body[:1].upper() + body[1:]
    if body and body[-1] not in ".!?":
        body += "."
    return [Finding(Party(subject, kind), "LESSON", advice, "lesson", timing="none",
                    confidence=0.75 if prefixed or failure else 0.65,
                    statement=f"Lesson for {_display(subject)}: {body.rstrip('.')}")]


def _display(subject: str) -> str:
    return "the project" if subject == "project" else subject


def _advice(sent: Span, speech: Speech, *, strict: bool, prefixed: bool, after: int
            ) -> str | None:
    allowed = {"ROOT", "conj", "ccomp", "advcl", "parataxis"}
    if prefixed:
        allowed |= {"acl", "appos", "dep", "relcl"}  # "Tip: pin ..." hangs off the noun "Tip"
    for token in sent:
        if token.idx < after:
            continue  # "Note to self:" is not itself the advice
        if token.pos_ != "VERB" or not imperative(token) or token.lemma_ in _NOT_ADVICE:
            continue
        if token.dep_ not in allowed or any(c.dep_ == "prt" and c.lower_ == "out"
                                            for c in token.children):
            continue
        adverbs = [c.lower_ for c in token.children if c.lower_ in _ALWAYS]
        sure = token.lemma_ == "make" and any(c.lower_ == "sure" for c in token.children)
        if token.lemma_ == "make" and not sure:
            continue
        if strict and not adverbs and not sure:
            continue
        text = verb_phrase(token, speech, generic_you=True)
        if not text:
            continue
        if sure:
            text = _after_sure(token, speech) or text
        return " ".join([*adverbs, text])
    return None


def _after_turn(sent: Span, speech: Speech) -> str | None:
    """The advice after "; " or ", so" when the tagger missed the imperative ("so clear it")."""
    for token in sent:
        before = token.nbor(-1) if token.i > sent.start else None
        if before is None or before.lower_ not in (";", "so", "then", ":"):
            continue
        if token.lower_ not in ADVICE_VERBS:
            continue
        end = next((t.i for t in sent if t.i > token.i and t.lower_ in (";", ".", "!", "?")),
                   sent.end)
        words = [t.text_with_ws for t in sent.doc[token.i: end]]
        return "".join(words).strip(" ,.;:") or None
    return None


def _after_sure(token: Token, speech: Speech) -> str | None:
    for c in token.subtree:
        if c.pos_ == "VERB" and c != token and c.dep_ in ("xcomp", "ccomp", "advcl"):
            return verb_phrase(c, speech, generic_you=True)
    return None


def _needs(sent: Span, speech: Speech, allowed: bool) -> str | None:
    if not allowed:
        return None
    for token in sent:
        if token.lemma_ in ("need", "require") and token.pos_ == "VERB":
            subject = [c for c in token.children if c.dep_ == "nsubj"]
            if not subject or subject[0].lower_ in ("i", "we", "you", "he", "she", "they"):
                continue
            if any(c.dep_ == "xcomp" for c in token.children):
                continue
            return verb_phrase(token, speech)
    return None


#: No verb rules: :func:`lesson_facts` reads the whole sentence.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = TECH_WORDS
PATTERNS: tuple[re.Pattern[str], ...] = (PREFIX,)
