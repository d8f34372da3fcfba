"""Redaction of secrets and personal data before anything is stored.

A :class:`Redactor` replaces emails, phone numbers, payment card numbers
(Luhn-checked), IBANs (mod-97-checked), API keys and tokens (``sk-...``,
``ghp_...``, ``AKIA...``, JWTs, bearer tokens, private keys, ``password=...``)
with a placeholder such as ``[EMAIL]``. Apply it to an
:class:`~graphmem.ingest.inputs.EpisodeInput` before ingestion: the raw turn,
the facts extracted from it and their embeddings then never see the secret.

Patterns are configuration: pass your own :class:`RedactionPattern` list, add
to the defaults with ``extra`` or switch some off with ``disabled``. A pattern
may name a ``secret`` group, and then only that group is replaced
(``Bearer [TOKEN]`` keeps the word "Bearer"). Checks (``luhn``, ``iban``,
``phone``) drop matches that only look like the real thing, so order numbers
and dates survive. Findings record kind and position, never the value.

>>> Redactor().redact("mail me at alice@example.com").text
'mail me at [EMAIL]'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.jsonwalk import map_strings

Check = Literal["luhn", "iban", "phone"]


class RedactionPattern(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    pattern: str
    replacement: str
    check: Check | None = None
    ignore_case: bool = False


def _p(name: str, pattern: str, replacement: str, check: Check | None = None,
       ignore_case: bool = False) -> RedactionPattern:
    return RedactionPattern(name=name, pattern=pattern, replacement=replacement, check=check,
                            ignore_case=ignore_case)


#: Earlier patterns win where matches overlap.
DEFAULT_PATTERNS: tuple[RedactionPattern, ...] = (
    _p("private_key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
       "[PRIVATE_KEY]"),
    _p("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", "[TOKEN]"),
    _p("bearer", r"\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})", "[TOKEN]", ignore_case=True),
    _p("openai_key", r"\bsk-(?:proj-|ant-|live-)?[A-Za-z0-9_-]{20,}", "[API_KEY]"),
    _p("github_token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})", "[API_KEY]"),
    _p("aws_access_key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", "[API_KEY]"),
    _p("slack_token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}", "[API_KEY]"),
    _p("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}", "[API_KEY]"),
    _p("stripe_key", r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", "[API_KEY]"),
    _p("assigned_secret",
       r"\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|token|password|"
       r"passwd|pwd|aws_secret_access_key)\b\s*[:=]\s*[\"']?(?P<secret>[^\s\"',;]{6,})",
       "[SECRET]", ignore_case=True),
    # "my password is hunter2!": only a value with a digit or symbol, not "is strong"
    _p("stated_secret",
       r"\b(?:api key|password|passcode|pin code|secret|token)\s+is\s+[\"']?"
       r"(?P<secret>(?=[^\s\"',;]*[\d!@#$%^&*_+=-])[^\s\"',;]{4,}?)[\"'.,;!]?(?=\s|$)",
       "[SECRET]", ignore_case=True),
    _p("email", r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b", "[EMAIL]"),
    _p("iban", r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b", "[IBAN]",
       check="iban"),
    _p("card_number", r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])", "[CARD]", check="luhn"),
    _p("phone", r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){1,4}"
                r"(?![\w])", "[PHONE]", check="phone"),
)

_PHONE_CUE = re.compile(r"\b(?:call|phone|tel|mobile|cell|reach|text|whatsapp|fax|ring|contact)\b",
                        re.I)
_NOT_PHONE = re.compile(r"\b(?:order|ticket|invoice|account|ref|reference|id|isbn|no\.|#)\s*"
                        r"(?:number|no\.?|#)?\s*:?\s*$", re.I)
_DATE_LIKE = re.compile(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$")


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in moved)
    return int(number) % 97 == 1


def _phone_ok(match: str, text: str, start: int) -> bool:
    """Digits that look like a phone number where they stand, not a date, version or order id."""
    digits = re.sub(r"\D", "", match)
    if not 7 <= len(digits) <= 15 or _DATE_LIKE.match(match.strip()) or len(set(digits)) == 1:
        return False
    before = text[max(0, start - 30):start]
    if _NOT_PHONE.search(before):
        return False
    if match.startswith("+") or "(" in match or _PHONE_CUE.search(before):
        return True
    if re.fullmatch(r"\d+(?:\.\d+)+", match):
        return False  # versions, IP addresses
    return bool(re.search(r"\d[\s.-]\d", match)) and 10 <= len(digits) <= 11


def _passes(check: Check | None, value: str, text: str, start: int) -> bool:
    if check is None:
        return True
    if check == "luhn":
        digits = re.sub(r"\D", "", value)
        return 13 <= len(digits) <= 19 and luhn_ok(digits)
    if check == "iban":
        return iban_ok(value)
    return _phone_ok(value, text, start)


class Finding(BaseModel):
    """One redacted span of the original text: what kind, where (never the value)."""

    kind: str
    start: int
    end: int


class Redaction(BaseModel):
    text: str
    findings: list[Finding] = Field(default_factory=list)


class RedactedEpisode(BaseModel):
    episode: EpisodeInput
    findings: list[Finding] = Field(default_factory=list)


class Redactor:
    """Applies redaction patterns; compiled once, stateless afterwards (thread-safe)."""

    def __init__(self, patterns: Sequence[RedactionPattern] = DEFAULT_PATTERNS, *,
                 extra: Sequence[RedactionPattern] = (), disabled: Sequence[str] = ()) -> None:
        self.patterns = [p for p in [*patterns, *extra] if p.name not in set(disabled)]
        self._compiled = [(p, re.compile(p.pattern, re.IGNORECASE if p.ignore_case else 0))
                          for p in self.patterns]

    def redact(self, text: str) -> Redaction:
        """``text`` with every secret replaced; earlier patterns win on overlaps."""
        taken: list[tuple[int, int, RedactionPattern]] = []
        for pattern, regex in self._compiled:
            for match in regex.finditer(text):
                group = "secret" if "secret" in regex.groupindex and match.group("secret") else 0
                start, end = match.span(group)
                if not _passes(pattern.check, match.group(group), text, start):
                    continue
                if any(start < e and s < end for s, e, _ in taken):
                    continue
                taken.append((start, end, pattern))
        out = text
        for start, end, pattern in sorted(taken, key=lambda t: t[0], reverse=True):
            out = out[:start] + pattern.replacement + out[end:]
        findings = [Finding(kind=p.name, start=s, end=e) for s, e, p in sorted(taken, key=lambda t: t[0])]
        return Redaction(text=out, findings=findings)

    def redact_episode(self, data: EpisodeInput) -> RedactedEpisode:
        """A copy of the episode with its messages, text or document values redacted."""
        findings: list[Finding] = []

        def clean(value: str) -> str:
            result = self.redact(value)
            findings.extend(result.findings)
            return result.text

        update: dict[str, object] = {}
        if data.messages:
            update["messages"] = [m.model_copy(update={"content": clean(m.content)})
                                  for m in data.messages]
        if data.text is not None:
            update["text"] = clean(data.text)
        if data.document is not None:
            update["document"] = map_strings(data.document, clean)
        return RedactedEpisode(episode=data.model_copy(update=update), findings=findings)

    def redact_fact(self, data: FactInput) -> tuple[FactInput, list[Finding]]:
        findings: list[Finding] = []
        update: dict[str, object] = {}
        for name in ("subject", "object", "text"):
            value = getattr(data, name)
            if value:
                result = self.redact(value)
                findings += result.findings
                update[name] = result.text
        return data.model_copy(update=update), findings


class LabelledText(BaseModel):
    """A corpus line: a text and the secrets in it (kind and exact value)."""

    split: str = "dev"
    text: str
    secrets: list[dict[str, str]] = Field(default_factory=list)


class RedactionScore(BaseModel):
    lines: int
    secrets: int
    caught: int
    findings: int
    true_findings: int
    missed: list[str] = Field(default_factory=list, description="kinds of the missed secrets")
    false_findings: list[str] = Field(default_factory=list, description="kinds that fired wrongly")

    @property
    def recall(self) -> float:
        return self.caught / self.secrets if self.secrets else 1.0

    @property
    def precision(self) -> float:
        return self.true_findings / self.findings if self.findings else 1.0


def score_redaction(redactor: Redactor, corpus: Sequence[LabelledText]) -> RedactionScore:
    """Precision and recall of ``redactor`` on a labelled corpus (check your own patterns).

    A secret is caught when its value is gone from the output; a finding is
    true when it overlaps a labelled secret.
    """
    score = RedactionScore(lines=len(corpus), secrets=0, caught=0, findings=0, true_findings=0)
    for case in corpus:
        result = redactor.redact(case.text)
        spans = [(m.start(), m.end()) for s in case.secrets
                 for m in re.finditer(re.escape(s["value"]), case.text)]
        for secret in case.secrets:
            score.secrets += 1
            if secret["value"] in result.text:
                score.missed.append(secret["kind"])
            else:
                score.caught += 1
        for finding in result.findings:
            score.findings += 1
            if any(finding.start < e and s < finding.end for s, e in spans):
                score.true_findings += 1
            else:
                score.false_findings.append(finding.kind)
    return score
