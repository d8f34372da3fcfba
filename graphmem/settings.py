"""Configuration: one pydantic-settings object, built at the edge and passed down.

Values come from arguments, environment variables prefixed ``GRAPHMEM_`` and
an optional ``.env`` file. Library modules never read the environment; the
CLI and the API build a :class:`Settings` and hand it to
:meth:`graphmem.memory.Memory.from_settings`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

#: The URI schemes Neo4j's driver speaks Bolt over: ``bolt`` to one server, ``neo4j`` with
#: routing (a cluster's or Aura's readers serve reads); ``+s`` verifies TLS, ``+ssc`` trusts
#: a self-signed certificate.
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
ENV_PREFIX = "GRAPHMEM_"
#: Names a new user tries for a setting that is called otherwise (spelling alone finds the
#: rest: GRAPHMEM_API_KEY -> GRAPHMEM_API_KEYS).
GUESSES = {guess: "DB_PATH" for guess in ("DATA_DIR", "DATA_PATH", "DB", "DB_FILE", "DATABASE",
                                          "DATABASE_PATH", "SQLITE_PATH", "DIR", "HOME")}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_file=".env", extra="ignore")

    # store
    store: Literal["embedded", "neo4j"] = "embedded"
    db_path: Path = Path("graphmem.db")
    neo4j_uri: str = Field(
        default="bolt://127.0.0.1:7687",
        description="bolt://host:7687 for one server; neo4j://host:7687 (or neo4j+s://) to "
        "route reads to a cluster's or Aura's readers")
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("")
    neo4j_database: str = "neo4j"
    neo4j_vector_cache_rows: int = Field(
        default=200_000, ge=0,
        description="fact and turn vectors each API process copies to rank a scope itself "
        "(about 1.5 KB each at 384 dimensions); 0: the Neo4j server ranks every search")

    # extraction
    extractor: Literal["rules", "llm"] = "rules"
    llm_base_url: str = "https://api.openai.com/v1"
    llm_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr = SecretStr("")
    llm_timeout: float = Field(default=30.0, gt=0, description="seconds per request")
    llm_max_concurrency: int = Field(default=4, ge=1)
    llm_max_retries: int = Field(default=2, ge=0)
    llm_response_format: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        default="auto", description="auto negotiates json_schema -> json_object -> prompt once "
        "per endpoint; any other value is used as is")
    llm_max_tokens: int = Field(
        default=4096, ge=1, description="cap on max_tokens, which grows with the episode's size")
    llm_circuit_seconds: float = Field(
        default=60.0, ge=0, description="how long episodes skip an endpoint after it failed")
    llm_fallback_to_rules: bool = True
    llm_queue_path: Path | None = None

    # embeddings
    embedder: Literal["onnx", "openai"] = "onnx"
    embed_precision: Literal["float32", "int8"] = Field(
        default="float32", description="the onnx embedder's arithmetic: float32 runs the "
        "packaged model as it is; int8 embeds 1.3-1.6x as fast and finds slightly less "
        "(graphmem/embed/onnx.py)")
    embed_worker: Literal["auto", "on", "off"] = Field(
        default="auto", description="whether the onnx embedder embeds large calls (an "
        "episode's turns) in a child process: auto does for int8, where it measured faster, "
        "and not for float32, where it measured slower (graphmem/embed/worker.py)")
    embed_base_url: str = "https://api.openai.com/v1"
    embed_model: str = "text-embedding-3-small"
    embed_api_key: SecretStr = SecretStr("")
    embed_dimension: int = 384

    # privacy: secrets and personal data are redacted before anything is stored
    redact: bool = True
    redact_disabled: list[str] = Field(
        default_factory=list, description="names of redaction patterns to switch off (e.g. phone)")

    # memory policy
    episode_retention_days: int | None = Field(default=None, ge=1)
    audit_log: Path | None = Field(
        default=None, description="the JSONL audit trail (what was forgotten, erased, restored, "
        "imported, exported or refused: ids only); none when unset")
    default_tenant: str = "default"

    # api
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    api_keys: dict[str, str] = Field(
        default_factory=dict,
        description="sha256 hex digest of an API key -> tenant id; empty means no auth (loopback only)",
    )
    rate_limit_per_minute: int = 600
    max_request_bytes: int = 1_000_000
    store_timeout_seconds: float = 10.0
    reminder_poll_seconds: float = Field(
        default=2.0, gt=0, le=3600, description="how often the server looks for due reminders")

    @model_validator(mode="after")
    def _bolt_uri(self) -> Settings:
        """The Neo4j store needs a URI its driver speaks Bolt over (the embedded one none)."""
        uri = self.neo4j_uri
        scheme = uri.split("://", 1)[0] if "://" in uri else "(none)"
        if self.store == "neo4j" and scheme not in BOLT_SCHEMES:
            raise ValueError(f"neo4j_uri: the scheme {scheme!r} is not a Neo4j one: use "
                             + ", ".join(f"{s}://" for s in BOLT_SCHEMES))
        return self


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """A line for each ``GRAPHMEM_*`` variable no setting reads, naming the closest one:
    pydantic-settings ignores them, so a misspelt name (``GRAPHMEM_DATA_DIR``) would leave
    its setting at the default without a word."""
    names = {name.upper() for name in Settings.model_fields}
    lines = []
    for variable in sorted(k for k in environ if k.upper().startswith(ENV_PREFIX)):
        name = variable.upper()[len(ENV_PREFIX):]
        if name in names:
            continue
        close = [GUESSES[name]] if name in GUESSES else difflib.get_close_matches(
            name, names, n=1, cutoff=0.75)
        hint = f"; did you mean {ENV_PREFIX}{close[0]}?" if close else ""
        lines.append(f"{variable} is not a graphmem setting and is ignored{hint}")
    return lines

