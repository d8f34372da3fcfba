"""Session summaries and profiles written by an LLM (any OpenAI-compatible endpoint).

Used when an LLM is configured (the same ``llm_*`` settings as the LLM
extractor). It answers in JSON mode; anything unusable raises
:class:`~graphmem.errors.LLMError`, and the lifecycle then falls back to
:class:`~graphmem.lifecycle.writer.TemplateWriter`, so a summary or profile is
never lost to an outage. Retries are the OpenAI client's own (``max_retries``).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from graphmem.endpoint import OpenAIEndpoint
from graphmem.errors import LLMError
from graphmem.lifecycle.writer import (
    ProfileDigest,
    SessionDigest,
    SummaryDraft,
    TemplateWriter,
    Writer,
)

SUMMARY_PROMPT = (
    "You summarise one finished conversation between a user and an assistant for the "
    "assistant's long-term memory. Answer with a JSON object with the keys: summary (2-4 "
    "sentences, third person, about the user), topics (list of short noun phrases), intent "
    "(what the user wanted, one sentence), tone (one word: positive, neutral, negative, "
    "frustrated, anxious or mixed), key_facts (list of sentences), unresolved (list of what is "
    "still open). At most {topics} topics, {facts} key facts and {open} unresolved items. Use "
    "only what the conversation says.")
PROFILE_PROMPT = (
    "You write the profile of a user that an assistant carries into every conversation: a few "
    "short natural-language paragraphs in the third person, from the facts given (grouped by "
    "section). Newer information wins, but keep the trace of changes the facts mention (\"used "
    "to work at A, moved to B in March 2024\"). Do not invent anything. Answer with a JSON "
    "object with one key: profile (the text, paragraphs separated by blank lines).")


class LLMWriter:
    """Writes with one chat completion per summary or profile."""

    def __init__(self, base_url: str, api_key: str, model: str, *, timeout: float = 30.0,
                 max_retries: int = 2, temperature: float = 0.2) -> None:
        self.name = f"llm/{model}"
        self.base_url = base_url
        self.model = model
        self.temperature = temperature
        self.endpoint = OpenAIEndpoint(base_url, api_key, timeout=timeout,
                                        max_retries=max_retries)

    def __repr__(self) -> str:
        return f"LLMWriter(base_url={self.base_url!r}, model={self.model!r})"

    def close(self) -> None:
        self.endpoint.close()

    def summarize(self, digest: SessionDigest, *, max_topics: int = 5, max_key_facts: int = 5,
                  max_unresolved: int = 5) -> SummaryDraft:
        system = SUMMARY_PROMPT.format(topics=max_topics, facts=max_key_facts, open=max_unresolved)
        transcript = "\n".join(f"{m.speaker or m.role}: {m.content}" for m in digest.messages)
        user = json.dumps({"user": digest.owner, "ended_at": digest.ended_at.isoformat(),
                           "conversation": transcript,
                           "facts_extracted": [f.text for f in digest.facts]}, ensure_ascii=False)
        answer = self._ask(system, user)
        try:
            draft = SummaryDraft.model_validate(answer)
        except PydanticValidationError as err:
            raise LLMError(f"{self.model} returned an unusable summary: {err}") from err
        if not draft.summary.strip():
            raise LLMError(f"{self.model} returned an empty summary")
        return draft.model_copy(update={"topics": draft.topics[:max_topics],
                                        "key_facts": draft.key_facts[:max_key_facts],
                                        "unresolved": draft.unresolved[:max_unresolved]})

    def write_profile(self, digest: ProfileDigest) -> str:
        user = json.dumps({"user": digest.owner, "previous_profile": digest.previous,
                           "sections": {s.title: s.sentences for s in digest.sections}},
                          ensure_ascii=False)
        text = self._ask(PROFILE_PROMPT, user).get("profile")
        if not isinstance(text, str) or not text.strip():
            raise LLMError(f"{self.model} returned no profile text")
        return text.strip()

    def _ask(self, system: str, user: str) -> dict[str, Any]:
        import openai

        try:
            response = self.endpoint.client().chat.completions.create(
                model=self.model, temperature=self.temperature,
                response_format={"type": "json_object"},
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}])
        except openai.OpenAIError as err:
            raise LLMError(f"{self.base_url} failed: {self.endpoint.scrub(str(err))}") from None
        choices = response.choices or []
        content = choices[0].message.content if choices else None
        try:
            loaded = json.loads(content or "")
        except json.JSONDecodeError as err:
            raise LLMError(f"{self.model} did not answer with JSON: {err}") from None
        if not isinstance(loaded, dict):
            raise LLMError(f"{self.model} answered with JSON that is not an object")
        return loaded

