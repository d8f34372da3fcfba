"""What the LLM extractor says to the model and how it reads the answer.

Three parts, all pure functions of their inputs: the system prompt, the
response schema (pydantic models, sent as a strict JSON schema), and the
two translations around one call: :func:`render_user_message` (episode and
candidate facts in) and :func:`read_response` (the model's JSON out, to an
:class:`~graphmem.extract.base.Extraction`). Reading is forgiving per item
and strict at the top: a fact that breaks the schema is dropped with a
warning, a response that is not a JSON object of the right shape raises
:class:`UnusableResponse`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic import ValidationError as PydanticError

from graphmem.extract.base import (
    SELF,
    CandidateFact,
    ExistingFactDecision,
    ExtractedEntity,
    ExtractedFact,
    Extraction,
)
from graphmem.extract.llm.format import Format
from graphmem.models import Cardinality, Category, Episode, as_utc
from graphmem.predicates import DEFAULT_PREDICATES, PREDICATE_PATTERN

SCHEMA_NAME = "graphmem_extraction"


class UnusableResponse(ValueError):
    """The model's answer is not JSON, or not an object with a list of facts."""


# -- the response schema ---------------------------------------------------------
class LLMEntity(BaseModel):
    name: str = Field(description="as written in the conversation, not translated")
    type: str = Field(description="person, organization, place, product, technology, event, concept...")
    aliases: list[str] = Field(description="other names used for it in the episode")


class LLMFact(BaseModel):
    subject: str = Field(description="the speaker's name as given for 'I'; SELF if unknown")
    predicate: str = Field(description="English UPPER_SNAKE_CASE, e.g. WORKS_AT")
    object: str = Field(description="a short value; empty only to retract the current value")
    cardinality: Cardinality
    category: Category
    importance: float = Field(description="0 to 1")
    confidence: float = Field(description="0 to 1")
    valid_from: str | None = Field(description="ISO 8601, or null when not stated")
    valid_until: str | None = Field(description="ISO 8601, or null when not stated")
    action: Literal["assert", "retract"]
    message_id: str | None = Field(description="id of the message the fact comes from")
    text: str = Field(description="one third-person sentence in the conversation's language")


class LLMDecision(BaseModel):
    fact_id: str = Field(description="an id from existing_facts")
    decision: Literal["keep", "duplicate", "superseded", "retracted"]
    by_fact_index: int | None = Field(description="index in facts of the restating or new fact")


class LLMResponse(BaseModel):
    """The JSON object the model must return."""

    entities: list[LLMEntity]
    facts: list[LLMFact]
    decisions: list[LLMDecision]
    language: str = Field(description="ISO 639-1 code of the conversation: en, zh, ...")


class _Envelope(BaseModel):
    # the top level only; items are validated one by one so one bad fact costs one fact
    facts: list[Any]
    entities: list[Any] = Field(default_factory=list)
    decisions: list[Any] = Field(default_factory=list)
    language: str | None = None


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema in the form strict structured output accepts.

    References are inlined (the models are not recursive), every object lists
    all its properties as required and forbids others, and titles and
    defaults, which strict mode rejects or ignores, are removed.
    """
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        out = {k: walk(v) for k, v in node.items() if k not in ("title", "default")}
        if out.get("type") == "object":
            out["additionalProperties"] = False
            out["required"] = list(out.get("properties", {}))
        return out

    result: dict[str, Any] = walk(schema)
    return result


def response_format(fmt: Format, caps: dict[str, int] | None = None) -> dict[str, Any] | None:
    """The ``response_format`` of a request in ``fmt``; None means "send none".

    ``json_object`` carries the schema under ``schema`` too: llama.cpp's
    servers turn it into a grammar, so even a small model answers in the
    schema, and servers that ignore unknown keys lose nothing. There the
    arrays are capped by ``caps`` (see :func:`~graphmem.extract.llm.budget.item_caps`),
    so the grammar itself makes the answer end within its budget.
    """
    schema = strict_json_schema(LLMResponse)
    if fmt == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": True}}
    if fmt == "json_object":
        return {"type": "json_object", "schema": capped(schema, caps) if caps else schema}
    return None


#: Length limits of the strings in a capped schema: a name or value, a sentence, an id, a date.
MAX_CHARS = {"name": 60, "text": 200, "message_id": 80, "valid_from": 32, "valid_until": 32}


def capped(schema: dict[str, Any], caps: dict[str, int]) -> dict[str, Any]:
    """A copy of the response schema whose top-level arrays hold at most ``caps[name]`` items
    and whose strings have a length limit (:data:`MAX_CHARS`), so each item's size is bounded."""
    out: dict[str, Any] = json.loads(json.dumps(schema))
    props = out["properties"]
    for name, cap in caps.items():
        props[name]["maxItems"] = cap
    entity = props["entities"]["items"]["properties"]
    entity["aliases"]["maxItems"] = 3
    entity["aliases"]["items"]["maxLength"] = MAX_CHARS["name"]
    for field in ("name", "type"):
        entity[field]["maxLength"] = MAX_CHARS["name"]
    fact = props["facts"]["items"]["properties"]
    for field in ("subject", "predicate", "object"):
        fact[field]["maxLength"] = MAX_CHARS["name"]
    fact["text"]["maxLength"] = MAX_CHARS["text"]
    for field in ("valid_from", "valid_until", "message_id"):
        for option in fact[field]["anyOf"]:
            if option.get("type") == "string":
                option["maxLength"] = MAX_CHARS[field]
    props["decisions"]["items"]["properties"]["fact_id"]["maxLength"] = MAX_CHARS["message_id"]
    props["language"]["maxLength"] = 8
    return out


# -- the prompt ------------------------------------------------------------------
_SYSTEM = """\
You extract long-term memory from one conversation episode for a personal knowledge graph.

The input is a JSON object: reference_time, the episode's messages (id, speaker, role, \
timestamp, content) or its text, and existing_facts: stored facts this episode may restate, \
replace or contradict, each with an id.

Answer with one JSON object:
- entities: the people, organizations, places, products, technologies, events and concepts \
your facts mention: name, type (lower case), aliases (other names for it in the episode).
- facts: durable statements worth remembering about the people in the conversation: who \
they are, where they work and live, what they like, own, use, plan, prefer, decided or \
learned. Skip greetings, small talk and questions. For each fact:
  - subject: who the fact is about. When speakers talk about themselves ("I", "my", "我"), \
the subject is the speaker's name exactly as given in that message's speaker field; use \
"SELF" only when the speaker is null.
  - predicate: an English UPPER_SNAKE_CASE relation. Use a known predicate below when one \
fits; invent a new one only when none does.
  - object: the value as a short name (a company, a city, a thing, a name). An empty \
string only for a retraction of whatever the current value is.
  - cardinality: "one" when the subject holds one value at a time (works at, lives in, \
preferred name), otherwise "many".
  - category: preference, fact, lesson, goal, context, event, person, todo or skill.
  - importance and confidence: numbers from 0 to 1.
  - valid_from, valid_until: ISO 8601 dates when the episode says when the fact started or \
ended, resolved against the message timestamp or reference_time ("last year", "since \
March", "去年"); null when not stated.
  - action: "assert" for something that holds; "retract" when the speaker says it no \
longer holds ("I don't use Vue anymore", "我不再用Vue了").
  - message_id: the id of the message the fact comes from.
  - text: one third-person sentence stating the fact on its own, naming the subject \
("Alice works at Acme.", "王伟希望别人叫他王总。").
- decisions: one for each existing fact this episode affects: "duplicate" (restated; \
by_fact_index is the index in your facts of the restatement), "superseded" (replaced by a \
new value; by_fact_index is the new fact's index), "retracted" (no longer holds and nothing \
replaces it; by_fact_index null) or "keep". Use only ids from existing_facts.
- language: the ISO 639-1 code of the conversation's language ("en", "zh", ...).

Keep entity names, objects and fact text in the language of the conversation; never \
translate them: a Chinese conversation gives Chinese names and Chinese fact text. \
Predicates and JSON keys are always English.

Known predicates: {predicates}.
"""

_JSON_MODE = "\nAnswer with JSON only, no prose, matching this JSON Schema:\n{schema}\n"


def system_prompt(fmt: Format) -> str:
    """The system message; unless the server enforces the schema it carries the schema itself."""
    known = ", ".join(f"{p.name} ({p.cardinality.value})" for p in DEFAULT_PREDICATES)
    prompt = _SYSTEM.format(predicates=known)
    if fmt != "json_schema":
        schema = json.dumps(strict_json_schema(LLMResponse), ensure_ascii=False)
        prompt += _JSON_MODE.format(schema=schema)
    return prompt


def render_user_message(episode: Episode, candidates: list[CandidateFact]) -> str:
    """The episode and the candidate facts as one JSON document (UTF-8, not escaped)."""
    doc: dict[str, Any] = {"reference_time": episode.reference_time.isoformat()}
    if episode.messages:
        doc["messages"] = [
            {"id": m.id, "speaker": m.speaker, "role": m.role,
             "timestamp": m.timestamp.isoformat() if m.timestamp else None, "content": m.content}
            for m in episode.messages
        ]
    else:
        doc["text"] = episode.content
    doc["existing_facts"] = [
        {"id": c.id, "subject": c.subject, "predicate": c.predicate, "object": c.object,
         "valid_from": c.valid_from.isoformat(), "text": c.text}
        for c in candidates
    ]
    return json.dumps(doc, ensure_ascii=False)


# -- reading the answer ------------------------------------------------------------
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_LANGUAGE = re.compile(r"^([a-z]{2,3})(?:[-_][A-Za-z0-9]+)*$")
_FIRST_PERSON = {"i", "me", "myself", "我"}
#: A relation is a few words ("WORKS_AT", "HAS_FAVORITE_BOOK"); more reads like a sentence.
MAX_PREDICATE_WORDS = 5
#: A subject is a name ("Alice", "Alice's sister Ana"); more is a sentence.
MAX_SUBJECT_WORDS = 6


def _schema_texts() -> frozenset[str]:
    """Every description in the response schema: a small model that cannot do the task
    copies them into its answer ("a short value; empty only to retract...")."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("description"), str):
                found.add(node["description"].strip().lower())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(LLMResponse.model_json_schema())
    return frozenset(found)


_SCHEMA_TEXTS = _schema_texts()


def implausible(subject: str, predicate: str, obj: str, episode: Episode) -> str | None:
    """Why a schema-valid fact is still not one (a copied description, a sentence for a
    relation or a name), or None. Such answers come from models too small for the task;
    keeping them would store noise as memory."""
    for field, value in (("subject", subject), ("object", obj)):
        if value.strip().lower() in _SCHEMA_TEXTS:
            return f"its {field} is the schema's own description"
    if len(predicate.split("_")) > MAX_PREDICATE_WORDS:
        return f"predicate {predicate!r} is a sentence, not a relation"
    said = {" ".join(m.content.lower().split()) for m in episode.messages} | {
        " ".join(episode.content.lower().split())}
    if len(subject.split()) > MAX_SUBJECT_WORDS or (
            len(subject.split()) > 2 and " ".join(subject.lower().split()).rstrip(".") in {
                s.rstrip(".") for s in said}):
        return f"subject {subject!r} is not a name"
    return None


def read_response(content: str, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
    """Map the model's JSON to an :class:`Extraction`, dropping what does not fit.

    Raises :class:`UnusableResponse` when ``content`` is not a JSON object
    with a ``facts`` list, or when it has facts and none of them can be used
    (see :func:`implausible`); every smaller problem becomes a warning.
    """
    fenced = _FENCE.match(content)  # JSON mode on some servers still wraps its answer
    try:
        data = json.loads(fenced.group(1) if fenced else content)
    except json.JSONDecodeError as err:
        raise UnusableResponse(f"the answer is not JSON ({err.msg} at char {err.pos})") from err
    try:
        envelope = _Envelope.model_validate(data)
    except PydanticError as err:
        raise UnusableResponse(f"the answer is not an extraction: {_brief(err)}") from err

    warnings: list[str] = []
    entities = _entities(envelope.entities, warnings)
    facts, index = _facts(envelope.facts, episode, warnings)
    if envelope.facts and not facts:  # every fact was broken: the rules will do better
        raise UnusableResponse(f"none of its {len(envelope.facts)} facts could be used: "
                               + "; ".join(warnings[:3]))
    decisions = _decisions(envelope.decisions, {c.id for c in candidates}, index, warnings)
    return Extraction(entities=entities, facts=facts, decisions=decisions,
                      language=_language(envelope.language, episode), warnings=warnings)


def normalize_predicate(raw: str) -> str | None:
    """``"works at"``, ``"worksAt"``, ``"works-at"`` -> ``"WORKS_AT"``; None if impossible."""
    text = unicodedata.normalize("NFKC", raw).strip()
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text)
    text = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").upper()
    return text if PREDICATE_PATTERN.match(text) else None


def _entities(items: list[Any], warnings: list[str]) -> list[ExtractedEntity]:
    out: list[ExtractedEntity] = []
    for i, item in enumerate(items):
        try:
            wire = LLMEntity.model_validate(item)
            out.append(ExtractedEntity(name=wire.name.strip(), type=wire.type.strip().lower() or "concept",
                                       aliases=[a.strip() for a in wire.aliases if a.strip()]))
        except PydanticError as err:
            warnings.append(f"LLM entity {i} dropped: {_brief(err)}")
    return out


def _facts(items: list[Any], episode: Episode,
           warnings: list[str]) -> tuple[list[ExtractedFact], dict[int, int]]:
    """The valid facts, and where each kept answer index landed in them."""
    speakers = {m.id: m.speaker for m in episode.messages}
    out: list[ExtractedFact] = []
    index: dict[int, int] = {}
    for i, item in enumerate(items):
        try:
            wire = LLMFact.model_validate(item)
        except PydanticError as err:
            warnings.append(f"LLM fact {i} dropped: {_brief(err)}")
            continue
        predicate = normalize_predicate(wire.predicate)
        if predicate is None:
            warnings.append(f"LLM fact {i} dropped: predicate {wire.predicate!r} is not UPPER_SNAKE_CASE")
            continue
        message_id = wire.message_id if wire.message_id in speakers else None
        if wire.message_id is not None and message_id is None:
            warnings.append(f"LLM fact {i}: unknown message id {wire.message_id!r} ignored")
        subject = wire.subject.strip()
        if subject.lower() in _FIRST_PERSON or not subject:
            subject = (speakers.get(message_id) if message_id else None) or SELF
        why = implausible(subject, predicate, wire.object, episode)
        if why is not None:
            warnings.append(f"LLM fact {i} dropped: {why}")
            continue
        try:
            fact = ExtractedFact(
                subject=subject, predicate=predicate, object=wire.object.strip(),
                text=wire.text.strip(), category=wire.category, importance=wire.importance,
                confidence=wire.confidence, cardinality=wire.cardinality,
                valid_from=_when(wire.valid_from, i, warnings),
                valid_until=_when(wire.valid_until, i, warnings),
                action=wire.action, message_id=message_id)
        except PydanticError as err:
            warnings.append(f"LLM fact {i} dropped: {_brief(err)}")
            continue
        index[i] = len(out)
        out.append(fact)
    return out, index


def _decisions(items: list[Any], shown: set[str], index: dict[int, int],
               warnings: list[str]) -> list[ExistingFactDecision]:
    out: list[ExistingFactDecision] = []
    decided: set[str] = set()
    for i, item in enumerate(items):
        try:
            wire = LLMDecision.model_validate(item)
        except PydanticError as err:
            warnings.append(f"LLM decision {i} dropped: {_brief(err)}")
            continue
        if wire.fact_id not in shown:
            warnings.append(f"LLM decision {i} dropped: fact {wire.fact_id!r} was not a candidate")
            continue
        if wire.fact_id in decided:
            warnings.append(f"LLM decision {i} dropped: fact {wire.fact_id!r} already decided")
            continue
        by_index = None
        if wire.by_fact_index is not None and wire.decision in ("duplicate", "superseded"):
            by_index = index.get(wire.by_fact_index)
            if by_index is None:  # pointing at a dropped or missing fact: acting on it would lose data
                warnings.append(f"LLM decision {i} dropped: fact index {wire.by_fact_index} "
                                "is not a kept fact")
                continue
        decided.add(wire.fact_id)
        out.append(ExistingFactDecision(fact_id=wire.fact_id, decision=wire.decision,
                                        by_fact_index=by_index))
    return out


def _when(value: str | None, i: int, warnings: list[str]) -> datetime | None:
    if value is None or not value.strip():
        return None
    text = value.strip()
    if re.fullmatch(r"\d{4}(-\d{2})?", text):  # a year or a month: its first day
        text = f"{text}-01-01" if len(text) == 4 else f"{text}-01"
    try:
        return as_utc(datetime.fromisoformat(text))  # the one datetime rule, range included
    except ValueError:
        warnings.append(f"LLM fact {i}: date {value!r} is not ISO 8601 (or not a time both "
                        "stores hold) and was ignored")
        return None


def _language(value: str | None, episode: Episode) -> str:
    match = _LANGUAGE.match(value.strip().lower()) if value else None
    if match:
        return match.group(1)
    text = episode.content
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    return "en"


def _brief(err: PydanticError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "top level"
    more = f" (+{err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"
