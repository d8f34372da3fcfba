"""Who writes session summaries and profile narratives, and what they are given.

:class:`TemplateWriter` is the offline default: deterministic, built from the
session's messages and facts (summaries) and from current facts per category
(profiles), so every layer works with no network. :class:`~graphmem.lifecycle.llm_writer.LLMWriter`
writes the same things with an LLM and falls back to the template.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, Field

from graphmem.models import Category, Message

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
SMALL_TALK = frozenset({
    "hi", "hello", "hey", "thanks", "thank", "bye", "goodbye", "good", "morning", "evening",
    "night", "fine", "okay", "cool", "great", "lol", "yes", "yeah", "nope", "sure", "nice",
    "welcome", "cheers", "see", "later", "how", "are", "you", "doing", "well", "too", "much",
    "pleasure", "np", "hiya", "howdy", "alright", "awesome", "ok", "yep", "glad", "hear",
    "talk", "soon", "take", "care", "have", "day", "what's", "up", "not", "bad",
})
STOP = frozenset({
    "the", "and", "but", "for", "with", "that", "this", "what", "which", "who", "when", "where",
    "why", "was", "were", "are", "is", "be", "been", "being", "have", "has", "had", "do", "does",
    "did", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "i'm",
    "i've", "i'll", "i'd", "you're", "it's", "that's", "there", "their", "they", "them", "then",
    "than", "from", "into", "about", "just", "also", "some", "any", "all", "very", "really",
    "your", "mine", "yours", "our", "ours", "his", "her", "hers", "its", "our", "out", "off",
    "over", "under", "again", "once", "here", "only", "own", "same", "so", "too", "don't",
    "doesn't", "didn't", "won't", "can't", "isn't", "aren't", "wasn't", "one", "get", "got",
    "like", "know", "think", "want", "need", "going", "make", "let", "me", "my", "myself", "we",
    "us", "he", "she", "him", "it", "a", "an", "of", "to", "in", "on", "at", "by", "or", "if",
    "as", "no", "yes", "not", "now", "still", "yet", "how", "help", "please", "thing", "things",
    "something", "anything", "everything", "today", "tomorrow", "yesterday", "week", "tell",
})
_REQUEST = re.compile(r"^\s*(?:can you|could you|would you|please|help me|i want|i need|i'd like|"
                      r"how do|how can|how should|what|why|where|when|which|who|should i|is there)\b",
                      re.I)
_UNRESOLVED = re.compile(r"\b(?:still|not sure|haven't|hasn't|not yet|need to|have to|figure out|"
                         r"doesn't work|don't know|no idea|waiting for|pending|tbd|unresolved)\b",
                         re.I)
#: Predicates whose object is a clause ("send the report"), not a topic.
_CLAUSE_OBJECTS = frozenset({"TODO", "GOAL", "PLANS", "NOTE"})
#: Predicates whose subject is the topic ("Lesson for Docker: ...").
SUBJECT_TOPICS = frozenset({"LESSON"})
TONES: dict[str, frozenset[str]] = {
    "frustrated": frozenset({"frustrated", "frustrating", "annoying", "annoyed", "stuck", "broken",
                             "fails", "failing", "failed", "ugh", "argh", "again", "useless"}),
    "anxious": frozenset({"worried", "worry", "nervous", "anxious", "stressed", "stress", "afraid",
                          "scared", "concerned", "overwhelmed", "panic"}),
    "negative": frozenset({"sad", "upset", "angry", "hate", "terrible", "awful", "disappointed",
                           "horrible", "miserable", "unhappy", "lonely", "tired"}),
    "positive": frozenset({"love", "loved", "great", "awesome", "happy", "glad", "excited",
                           "thanks", "thank", "wonderful", "amazing", "nice", "perfect",
                           "fantastic", "enjoy", "enjoyed", "yay", "proud", "fun"}),
}


class DigestFact(BaseModel):
    text: str
    category: Category
    predicate: str
    subject: str
    object: str
    importance: float


class SessionDigest(BaseModel):
    """What a writer sees of a finished session."""

    session_id: str
    owner: str
    started_at: datetime
    ended_at: datetime
    messages: list[Message]
    facts: list[DigestFact] = Field(default_factory=list)


class SummaryDraft(BaseModel):
    summary: str
    topics: list[str] = Field(default_factory=list)
    intent: str = ""
    tone: str = "neutral"
    key_facts: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)


class ProfileSection(BaseModel):
    title: str
    sentences: list[str]


class ProfileDigest(BaseModel):
    """What a writer sees of a user: current facts as sentences, grouped, with their traces."""

    owner: str
    sections: list[ProfileSection]
    previous: str | None = None


class Writer(Protocol):
    name: str

    def summarize(self, digest: SessionDigest, *, max_topics: int, max_key_facts: int,
                  max_unresolved: int) -> SummaryDraft: ...

    def write_profile(self, digest: ProfileDigest) -> str: ...


def content_words(text: str) -> list[str]:
    """Words that carry content: not stop words, not greetings and thanks."""
    return [w for w in (m.lower() for m in _WORD.findall(text))
            if len(w) >= 3 and w not in STOP and w not in SMALL_TALK]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text.strip()) if s.strip()]


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?", "\u2026")) else text + "."


def _join(items: list[str]) -> str:
    return "; ".join(i.rstrip(". ") for i in items)


class TemplateWriter:
    """Deterministic summaries and profiles: same input, same text, no network."""

    name = "template"

    def summarize(self, digest: SessionDigest, *, max_topics: int = 5, max_key_facts: int = 5,
                  max_unresolved: int = 5) -> SummaryDraft:
        user = [m for m in digest.messages if m.role == "user"] or digest.messages
        topics = self._topics(digest, user, max_topics)
        key = [f.text for f in sorted(digest.facts, key=lambda f: -f.importance)
               if f.predicate != "TODO"][:max_key_facts]
        unresolved = self._unresolved(digest, max_unresolved)
        intent = self._intent(digest, user, topics)
        tone = self._tone(user)
        parts = [f"Session on {digest.ended_at:%Y-%m-%d}: {digest.owner} talked about "
                 f"{', '.join(topics) or 'several things'}.", _sentence(intent)]
        if key:
            parts.append(f"Key points: {_join(key)}.")
        if unresolved:
            parts.append(f"Still open: {_join(unresolved)}.")
        parts.append(f"Tone: {tone}.")
        return SummaryDraft(summary=" ".join(parts), topics=topics, intent=intent, tone=tone,
                            key_facts=key, unresolved=unresolved)

    def _topics(self, digest: SessionDigest, user: list[Message], limit: int) -> list[str]:
        """What the facts are about, then the content words and pairs the user repeated."""
        found: dict[str, str] = {}
        for fact in sorted(digest.facts, key=lambda f: -f.importance):
            if fact.predicate in _CLAUSE_OBJECTS:
                continue
            name = (fact.subject if fact.predicate in SUBJECT_TOPICS else fact.object).strip()
            if name and name.casefold() != digest.owner.casefold():
                found.setdefault(name.casefold(), name)
        per_message = [content_words(m.content) for m in user]
        pairs = Counter(" ".join(p) for words in per_message for p in zip(words, words[1:]))
        words = [w for ws in per_message for w in ws]
        counts = Counter(words)
        ranked = [p for p in pairs if pairs[p] >= 2]
        ranked += sorted((w for w in counts if counts[w] >= 2),
                         key=lambda w: (-counts[w], words.index(w)))
        for term in ranked:
            if not any(term in k or k in term for k in found):
                found[term] = term
        return list(found.values())[:limit]

    def _intent(self, digest: SessionDigest, user: list[Message], topics: list[str]) -> str:
        for message in user:
            for sentence in sentences(message.content):
                if sentence.endswith("?") or _REQUEST.match(sentence):
                    return f"{digest.owner} asked: {_clip(sentence)}"
        if topics:
            return f"{digest.owner} shared news about {topics[0]}"
        return f"{digest.owner} chatted"

    def _tone(self, user: list[Message]) -> str:
        words = [w.lower() for m in user for w in _WORD.findall(m.content)]
        scores = {tone: sum(w in lexicon for w in words) for tone, lexicon in TONES.items()}
        upset = scores["frustrated"] + scores["anxious"] + scores["negative"]
        if scores["positive"] and upset and scores["positive"] == upset:
            return "mixed"
        best = max(scores, key=lambda t: (scores[t], -list(TONES).index(t)))
        return best if scores[best] else "neutral"

    def _unresolved(self, digest: SessionDigest, limit: int) -> list[str]:
        found = [f.text for f in digest.facts if f.predicate == "TODO"]
        answered_after = [any(m.role == "assistant" for m in digest.messages[i + 1:])
                          for i in range(len(digest.messages))]
        for i, message in enumerate(digest.messages):
            if message.role != "user":
                continue
            for sentence in sentences(message.content):
                if (sentence.endswith("?") and not answered_after[i]) or _UNRESOLVED.search(sentence):
                    found.append(_clip(sentence))
        return list(dict.fromkeys(found))[:limit]

    def write_profile(self, digest: ProfileDigest) -> str:
        paragraphs = [f"{s.title}: {' '.join(s.sentences)}" for s in digest.sections if s.sentences]
        return "\n\n".join(paragraphs)
