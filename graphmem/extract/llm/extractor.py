"""Extraction by one call per episode to any OpenAI-compatible chat endpoint.

OpenAI itself or a local server (vLLM, llama.cpp, Ollama, LM Studio...).
The model sees the episode and the stored facts it may affect, and answers
with JSON in the schema of :mod:`graphmem.extract.llm.prompt`. How that JSON
is asked for is negotiated once per endpoint (:mod:`graphmem.extract.llm.format`):
strict ``json_schema``, else ``json_object``, else plain JSON in the prompt.
Every request carries ``max_tokens`` (from the episode's size) and a timeout,
so no request can generate or wait without bound.

The client's own retries are off so every HTTP call is counted here: 429s
(honouring Retry-After), 5xx, timeouts, dropped connections and unusable
answers are retried with exponential backoff and jitter, other 4xx are not.
When every attempt fails the episode is put on the retry queue if there is
one, and either the fallback extractor answers or :class:`~graphmem.errors.LLMError`
is raised, which the pipeline turns into "episode stored without facts". A
failure of the endpoint itself opens a :class:`~graphmem.extract.llm.circuit.Circuit`:
later episodes skip it for a while, and the cause is logged once.
"""

from __future__ import annotations

import email.utils
import logging
import random
import threading
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from graphmem.endpoint import OpenAIEndpoint
from graphmem.errors import LLMError, StoreError
from graphmem.extract.base import CandidateFact, Extraction, Extractor
from graphmem.extract.llm.budget import answer_budget, item_caps
from graphmem.extract.llm.circuit import Circuit
from graphmem.extract.llm.format import Format, FormatMode, FormatNegotiator, names_the_format
from graphmem.extract.llm.prompt import (
    UnusableResponse,
    read_response,
    render_user_message,
    response_format,
    system_prompt,
)
from graphmem.extract.llm.queue import RetryQueue
from graphmem.models import Episode

if TYPE_CHECKING:
    import openai

logger = logging.getLogger(__name__)

#: Episodes in a row whose answers could not be used before the endpoint counts as broken
#: (a model that never answers in the schema is skipped like a server that is down).
UNUSABLE_TO_TRIP = 3


class LLMUsage(BaseModel):
    """What an :class:`LLMExtractor` has spent so far.

    ``calls`` counts HTTP requests, ``retries`` the ones that repeated an
    earlier attempt, ``failures`` the episodes given up on; tokens are summed
    from the ``usage`` the server reported (0 if it reports none).
    """

    calls: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    skipped: int = 0  # episodes sent to the fallback without a request: the circuit was open
    response_format: Format = "json_schema"


class Budget(NamedTuple):
    """One episode's answer budget: ``max_tokens``, and how many candidates it may decide on."""

    tokens: int
    candidates: int


class _Transient(Exception):
    """An attempt failed in a way worth repeating."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _FormatRefused(Exception):
    """The server refused the ``response_format`` of the request."""


class _Failed(LLMError):
    """Every attempt failed; ``endpoint`` says whether the endpoint (not the answer) was at fault."""

    def __init__(self, message: str, *, endpoint: bool) -> None:
        super().__init__(message)
        self.endpoint = endpoint


class _CutOff(UnusableResponse):
    """The answer hit ``max_tokens``; asking again would cut it at the same place."""


class LLMExtractor:
    """Extracts entities, facts and verdicts on stored facts with one LLM call per episode.

    >>> extractor = LLMExtractor("http://localhost:8000/v1", api_key, "qwen2.5-7b-instruct",
    ...                          queue=RetryQueue(data_dir / "llm-retry.db"))  # doctest: +SKIP
    >>> Ingestor(store, extractor, OnnxEmbedder()).ingest(tenant, episode)  # doctest: +SKIP
    >>> extractor.usage().calls  # doctest: +SKIP
    1

    At most ``max_concurrency`` requests are in flight at once, however many
    threads call :meth:`extract`. An attempt is retried up to ``max_retries``
    times, waiting ``backoff * 2**n`` seconds with jitter, or what the
    server's Retry-After asks, never more than ``max_backoff``.
    ``response_format`` is ``auto`` (negotiate) or the one format to use;
    ``max_tokens`` caps every answer's budget (see
    :func:`~graphmem.extract.llm.budget.answer_budget`); after an endpoint
    failure, episodes skip the endpoint for ``circuit_cooldown`` seconds. The HTTP
    client is created on first use; ``base_url`` and ``api_key`` are passed to
    it explicitly, so ``OPENAI_BASE_URL``/``OPENAI_API_KEY`` have no effect.
    The key never appears in ``repr()``, logs or error messages.
    """

    uses_candidates = True  # the model judges the stored facts an episode may change

    @staticmethod
    def longest_seconds(timeout: float, max_retries: int, max_backoff: float = 30.0) -> float:
        """The longest an episode's requests can take: every attempt to its timeout, with
        the longest pause between them (a server's Retry-After is capped at
        ``max_backoff``). A format refusal is answered at once and not counted."""
        return (max_retries + 1) * timeout + max_retries * max_backoff

    def __init__(
        self,
        base_url: str,
        api_key: str,
        model: str,
        *,
        timeout: float = 30.0,
        max_retries: int = 2,
        max_concurrency: int = 4,
        temperature: float = 0.0,
        queue: RetryQueue | None = None,
        fallback: Extractor | None = None,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        response_format: FormatMode = "auto",
        max_tokens: int = 4096,
        circuit_cooldown: float = 60.0,
    ) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be >= 1, got {max_concurrency}")
        if backoff < 0 or max_backoff < 0:
            raise ValueError("backoff and max_backoff must be >= 0 seconds")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        self.name = f"llm/{model}"
        self.base_url = base_url
        self.model = model
        self.max_retries = max_retries
        self.max_concurrency = max_concurrency
        self.temperature = temperature
        self.queue = queue
        self.fallback = fallback
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_tokens = max_tokens
        self._formats = FormatNegotiator(response_format)
        self._circuit = Circuit(circuit_cooldown)
        self._slots = threading.BoundedSemaphore(max_concurrency)
        # The extractor retries by itself (with backoff and Retry-After), so the client does not.
        self.endpoint = OpenAIEndpoint(base_url, api_key, timeout=timeout, max_retries=0)
        self._lock = threading.Lock()
        self._usage = LLMUsage(response_format=self._formats.current)
        self._unusable_in_a_row = 0
        self._random = random.Random()

    def __repr__(self) -> str:
        return (f"LLMExtractor(base_url={self.base_url!r}, model={self.model!r}, "
                f"response_format={self._formats.current!r})")

    def usage(self) -> LLMUsage:
        """A snapshot of the counters."""
        with self._lock:
            return self._usage.model_copy()

    def close(self) -> None:
        """Close the HTTP connection pool; the next call opens a new one."""
        self.endpoint.close()

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        """One LLM call (more only to retry) -> entities, facts and decisions on ``candidates``.

        Raises :class:`LLMError` when every attempt failed and there is no fallback.
        """
        skipped = self._circuit.open_reason()
        if skipped is not None:
            self._count(skipped=1)
            return self._failed(episode, candidates, LLMError(
                f"{self.base_url} is skipped for {self._circuit.cooldown:g}s after it failed: "
                f"{skipped}"), log=False)
        try:
            extraction = self._attempts(episode, candidates)
        except _Failed as err:
            with self._lock:
                self._unusable_in_a_row = 0 if err.endpoint else self._unusable_in_a_row + 1
                broken = err.endpoint or self._unusable_in_a_row >= UNUSABLE_TO_TRIP
            opened = broken and self._circuit.trip(str(err))
            if opened:
                err = _Failed(f"{err}; episodes skip {self.base_url} for the next "
                              f"{self._circuit.cooldown:g}s", endpoint=True)
            return self._failed(episode, candidates, err, log=opened or not broken)
        with self._lock:
            self._unusable_in_a_row = 0
        self._circuit.close()
        return extraction

    def _failed(self, episode: Episode, candidates: list[CandidateFact], err: LLMError,
                *, log: bool) -> Extraction:
        """Queue the episode, then the fallback's extraction, or ``err`` raised.

        ``log``: one warning naming the cause (not repeated while the circuit is open).
        """
        self._count(failures=1)
        queued = self._enqueue(episode, str(err))
        then = (f"facts from {self.fallback.name!r} instead" if self.fallback
                else "episode stored without facts")
        (logger.warning if log else logger.debug)(
            "LLM extraction of episode %s failed, %s: %s", episode.id, then, err)
        if self.fallback is None:
            if not queued:
                raise err
            raise LLMError(f"{err} ({queued})") from err
        extraction = self.fallback.extract(episode, candidates)
        notes = [f"LLM extraction failed: {err}", *([queued] if queued else []),
                 f"facts extracted by the fallback extractor {self.fallback.name!r}"]
        return extraction.model_copy(update={"warnings": [*notes, *extraction.warnings]})

    def _enqueue(self, episode: Episode, reason: str) -> str:
        """Queue the episode for re-extraction; says what happened ("" with no queue)."""
        if self.queue is None:
            return ""
        try:
            self.queue.enqueue(episode.tenant, episode.id, reason)
        except StoreError as err:  # losing the queue entry must not lose the episode too
            logger.warning("could not queue episode %s for re-extraction: %s", episode.id, err)
            return f"NOT queued for re-extraction: {err}"
        return "queued for re-extraction"

    def _attempts(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        user = render_user_message(episode, candidates)
        budget = Budget(answer_budget(episode, candidates, self.max_tokens), len(candidates))
        wait: float | None = None
        failure, endpoint = "", True
        for attempt in range(self.max_retries + 1):
            if attempt:
                self._count(retries=1)
                time.sleep(self._delay(attempt, wait))
            try:
                content = self._complete(user, budget)
                extraction = read_response(content, episode, candidates)
            except _Transient as err:
                failure, wait, endpoint = str(err), err.retry_after, True
            except _CutOff as err:
                raise _Failed(str(err), endpoint=False) from None
            except UnusableResponse as err:
                failure, wait, endpoint = str(err), None, False
            else:
                for note in extraction.warnings:
                    logger.info("episode %s: %s", episode.id, note)
                return extraction
            logger.info("LLM attempt %d/%d for episode %s failed: %s",
                        attempt + 1, self.max_retries + 1, episode.id, failure)
        raise _Failed(f"{self.model} at {self.base_url} failed {self.max_retries + 1} "
                      f"time(s); last: {failure}", endpoint=endpoint)

    def _complete(self, user: str, budget: Budget) -> str:
        """One request in the negotiated format; on a refusal of that format, the next rung.

        Until the endpoint has answered in the current format, requests go
        one at a time, so concurrent episodes do not each learn the refusal.
        """
        while True:
            if self._formats.settled:
                content = self._try(user, self._formats.current, budget)
            else:
                with self._formats.probing:
                    if self._formats.settled:  # learned while this thread waited
                        continue
                    content = self._try(user, self._formats.current, budget)
            if content is not None:
                return content

    def _try(self, user: str, fmt: Format, budget: Budget) -> str | None:
        """The answer in ``fmt``, or None when ``fmt`` was refused and the next rung is set."""
        try:
            content = self._request(user, fmt, budget)
        except _FormatRefused as err:
            self._step_down(fmt, err)
            return None
        self._formats.accepted(fmt)
        return content

    def _step_down(self, fmt: Format, refusal: _FormatRefused) -> None:
        step = self._formats.refused(fmt)
        if step is None:
            raise _Failed(f"{self.base_url} refused response_format {fmt!r} (response format "
                          f"setting: {self._formats.mode}): {refusal}", endpoint=True) from None
        with self._lock:
            self._usage.response_format = step
        logger.info("%s refused response_format %r, using %r from now on: %s",
                    self.base_url, fmt, step, refusal)

    def _request(self, user: str, fmt: Format, budget: Budget) -> str:
        import openai

        try:
            client = self.endpoint.client()
        except openai.OpenAIError as err:  # a setting the client cannot start with
            raise _Failed(f"cannot use {self.base_url}: {self._scrub(str(err))}",
                          endpoint=True) from None
        self._count(calls=1)
        extra: dict[str, Any] = {}
        wanted = response_format(fmt, item_caps(budget.tokens, budget.candidates))
        if wanted is not None:
            extra["response_format"] = wanted
        try:
            with self._slots:
                response = client.chat.completions.create(
                    model=self.model,
                    messages=[{"role": "system", "content": system_prompt(fmt)},
                              {"role": "user", "content": user}],
                    temperature=self.temperature,
                    max_tokens=budget.tokens,
                    timeout=self.endpoint.timeout,
                    **extra,
                )
        except openai.APIStatusError as err:
            status, message = err.status_code, self._scrub(str(err))
            if fmt != "prompt" and names_the_format(status, message):
                raise _FormatRefused(f"{status}: {message}") from None
            if status == 429:
                raise _Transient(f"rate limited (429): {message}", _retry_after(err)) from None
            if status >= 500:
                raise _Transient(f"server error ({status}): {message}", _retry_after(err)) from None
            raise _Failed(f"{self.base_url} refused the request ({status}): {message}",
                          endpoint=True) from self._cause(err)
        except openai.APITimeoutError:
            raise _Transient(f"no answer within {self.endpoint.timeout:g}s") from None
        except openai.APIConnectionError as err:
            raise _Transient(f"cannot reach {self.base_url}: {self._scrub(str(err))}") from None
        except openai.OpenAIError as err:
            raise _Failed(f"request to {self.base_url} failed: {self._scrub(str(err))}",
                          endpoint=True) from self._cause(err)

        usage = getattr(response, "usage", None)
        self._count(prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                    completion_tokens=getattr(usage, "completion_tokens", 0) or 0)
        choices = getattr(response, "choices", None) or []
        reply = getattr(choices[0], "message", None) if choices else None
        content = getattr(reply, "content", None)
        if choices and getattr(choices[0], "finish_reason", None) == "length":
            raise _CutOff(f"the answer was cut off at max_tokens={budget.tokens}")
        if not isinstance(content, str) or not content.strip():
            refusal = getattr(reply, "refusal", None)
            raise _Transient(f"the model refused: {refusal}" if refusal else "empty answer")
        return content

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(self.max_backoff, retry_after)
        ceiling = min(self.max_backoff, self.backoff * 2.0 ** (attempt - 1))
        return ceiling * (0.5 + self._random.random() / 2)  # jitter: spread retries of many workers

    def _count(self, **deltas: int) -> None:
        with self._lock:
            for key, value in deltas.items():
                setattr(self._usage, key, getattr(self._usage, key) + value)

    def _scrub(self, message: str) -> str:
        return self.endpoint.scrub(message)

    def _cause(self, cause: Exception) -> Exception | None:
        """``cause`` to chain, unless it would carry the key into a traceback."""
        return None if self.endpoint.holds_key(str(cause)) else cause


def _retry_after(err: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``Retry-After``), if any."""
    headers = err.response.headers
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        if "retry-after" in headers:
            value = headers["retry-after"]
            try:
                return max(0.0, float(value))
            except ValueError:
                when = email.utils.parsedate_to_datetime(value)
                return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None
    return None
