"""Technical terms for the entity ruler: languages, frameworks, databases, tools.

The small English model was trained on news: it tags React as a place, Java as
a person and misses Vue and Python entirely. :class:`TermMarker` labels these
terms ``TECH`` before the statistical NER runs, and the NER then leaves them
alone (the same contract as an EntityRuler placed before ``ner``, but faster).

Each term has a canonical spelling (the entity id, so "postgres" and "Postgres"
both become ``PostgreSQL``) and a kind; the kind decides between ``USES`` and the
functional ``USES_FRAMEWORK``. Words that are also ordinary English or first
names ("Go", "Rust", "React", "Slack") only match with their exact
capitalisation; some ("Swift", "Ruby", "Julia", "Spring") are left out because
as names of people they are more common in conversation than as technologies.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

TECH_LABEL = "TECH"

LANGUAGE, FRAMEWORK, DATABASE, LIBRARY, TOOL, PLATFORM = (
    "language", "framework", "database", "library", "tool", "platform")

#: (canonical name, kind, other spellings). A leading "=" asks for an exact-case match.
_TERMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # languages
    ("Python", LANGUAGE, ()), ("TypeScript", LANGUAGE, ()), ("JavaScript", LANGUAGE, ("=JS",)),
    ("=Java", LANGUAGE, ()), ("=Go", LANGUAGE, ("Golang",)), ("=Rust", LANGUAGE, ()),
    ("C++", LANGUAGE, ()), ("C#", LANGUAGE, ()), ("F#", LANGUAGE, ()), ("Kotlin", LANGUAGE, ()), ("PHP", LANGUAGE, ()),
    ("Scala", LANGUAGE, ()), ("Haskell", LANGUAGE, ()), ("Elixir", LANGUAGE, ()),
    ("Erlang", LANGUAGE, ()), ("Clojure", LANGUAGE, ()), ("Perl", LANGUAGE, ()),
    ("=Lua", LANGUAGE, ()), ("=Dart", LANGUAGE, ()), ("SQL", LANGUAGE, ()), ("Bash", LANGUAGE, ()),
    ("HTML", LANGUAGE, ()), ("CSS", LANGUAGE, ()), ("=Zig", LANGUAGE, ()), ("OCaml", LANGUAGE, ()),
    ("Fortran", LANGUAGE, ()), ("COBOL", LANGUAGE, ()), ("MATLAB", LANGUAGE, ()),
    ("Solidity", LANGUAGE, ()), ("WebAssembly", LANGUAGE, ("Wasm",)),
    # application frameworks (one at a time: USES_FRAMEWORK is functional)
    ("=React", FRAMEWORK, ("React.js", "ReactJS")), ("Vue", FRAMEWORK, ("Vue.js", "VueJS")),
    ("=Angular", FRAMEWORK, ("AngularJS",)), ("Svelte", FRAMEWORK, ()),
    ("SvelteKit", FRAMEWORK, ()), ("Nuxt", FRAMEWORK, ("Nuxt.js",)),
    ("Next.js", FRAMEWORK, ("NextJS",)), ("=Remix", FRAMEWORK, ()), ("=Astro", FRAMEWORK, ()),
    ("=Ember", FRAMEWORK, ("Ember.js",)), ("Django", FRAMEWORK, ()), ("=Flask", FRAMEWORK, ()),
    ("FastAPI", FRAMEWORK, ()), ("Ruby on Rails", FRAMEWORK, ("=Rails",)),
    ("Spring Boot", FRAMEWORK, ()), ("Laravel", FRAMEWORK, ()), ("Symfony", FRAMEWORK, ()),
    ("Express.js", FRAMEWORK, ("ExpressJS",)), ("NestJS", FRAMEWORK, ()),
    ("ASP.NET", FRAMEWORK, ()), (".NET", FRAMEWORK, ()), ("Flutter", FRAMEWORK, ()),
    ("React Native", FRAMEWORK, ()), ("SwiftUI", FRAMEWORK, ()), ("=Electron", FRAMEWORK, ()),
    ("Tauri", FRAMEWORK, ()), ("Streamlit", FRAMEWORK, ()), ("=Gatsby", FRAMEWORK, ()),
    ("Solid.js", FRAMEWORK, ("SolidJS",)), ("Qwik", FRAMEWORK, ()),
    # databases and data stores
    ("PostgreSQL", DATABASE, ("Postgres", "psql")), ("MySQL", DATABASE, ()),
    ("MariaDB", DATABASE, ()), ("SQLite", DATABASE, ()), ("MongoDB", DATABASE, ("Mongo",)),
    ("Redis", DATABASE, ()), ("Neo4j", DATABASE, ()), ("Cassandra", DATABASE, ()),
    ("DynamoDB", DATABASE, ()), ("Elasticsearch", DATABASE, ()), ("OpenSearch", DATABASE, ()),
    ("ClickHouse", DATABASE, ()), ("BigQuery", DATABASE, ()), ("Supabase", DATABASE, ()),
    ("Firebase", DATABASE, ()), ("Firestore", DATABASE, ()), ("CockroachDB", DATABASE, ()),
    ("DuckDB", DATABASE, ()), ("InfluxDB", DATABASE, ()), ("SQL Server", DATABASE, ()),
    ("Pinecone", DATABASE, ()), ("Qdrant", DATABASE, ()), ("Weaviate", DATABASE, ()),
    ("pgvector", DATABASE, ()), ("Memcached", DATABASE, ()), ("=Snowflake", DATABASE, ()),
    # libraries, ORMs, build and test tooling
    ("Drizzle ORM", LIBRARY, ("=Drizzle",)), ("Prisma", LIBRARY, ()), ("SQLAlchemy", LIBRARY, ()),
    ("TypeORM", LIBRARY, ()), ("Sequelize", LIBRARY, ()), ("Hibernate", LIBRARY, ()),
    ("pandas", LIBRARY, ()), ("NumPy", LIBRARY, ()), ("scikit-learn", LIBRARY, ("sklearn",)),
    ("PyTorch", LIBRARY, ()), ("TensorFlow", LIBRARY, ()), ("Keras", LIBRARY, ()),
    ("Pydantic", LIBRARY, ()), ("spaCy", LIBRARY, ()), ("Tailwind CSS", LIBRARY, ("Tailwind",)),
    ("Redux", LIBRARY, ()), ("=Zod", LIBRARY, ()), ("Vite", LIBRARY, ()), ("Webpack", LIBRARY, ()),
    ("Babel", LIBRARY, ()), ("ESLint", LIBRARY, ()), ("=Prettier", LIBRARY, ()),
    ("=Jest", LIBRARY, ()), ("Vitest", LIBRARY, ()), ("pytest", LIBRARY, ()),
    ("Playwright", LIBRARY, ()), ("=Cypress", LIBRARY, ()), ("Selenium", LIBRARY, ()),
    ("Storybook", LIBRARY, ()), ("GraphQL", LIBRARY, ()), ("gRPC", LIBRARY, ()),
    ("tRPC", LIBRARY, ()), ("Three.js", LIBRARY, ()), ("LangChain", LIBRARY, ()),
    ("jQuery", LIBRARY, ()), ("Bootstrap CSS", LIBRARY, ("=Bootstrap",)),
    ("Hugging Face", LIBRARY, ("HuggingFace",)), ("Apache Spark", LIBRARY, ("=Spark", "PySpark")),
    ("Kafka", TOOL, ("Apache Kafka",)), ("RabbitMQ", TOOL, ()),
    # tools
    ("Docker", TOOL, ()), ("Docker Compose", TOOL, ("docker-compose",)),
    ("Kubernetes", TOOL, ("k8s",)), ("=Helm", TOOL, ()), ("Terraform", TOOL, ()),
    ("Ansible", TOOL, ()), ("Git", TOOL, ()), ("GitHub", PLATFORM, ()), ("GitLab", PLATFORM, ()),
    ("GitHub Actions", TOOL, ()), ("Jenkins", TOOL, ()), ("CircleCI", TOOL, ()),
    ("Travis CI", TOOL, ()), ("Nginx", TOOL, ()), ("Vim", TOOL, ()), ("Neovim", TOOL, ()),
    ("Emacs", TOOL, ()), ("VS Code", TOOL, ("VSCode", "Visual Studio Code")),
    ("Visual Studio", TOOL, ()), ("IntelliJ", TOOL, ()), ("PyCharm", TOOL, ()),
    ("Xcode", TOOL, ()), ("Jira", TOOL, ()), ("Confluence", TOOL, ()), ("=Slack", TOOL, ()),
    ("=Notion", TOOL, ()), ("Figma", TOOL, ()), ("Postman", TOOL, ()), ("npm", TOOL, ()),
    ("pnpm", TOOL, ()), ("=Yarn", TOOL, ()), ("=Bun", TOOL, ()), ("Deno", TOOL, ()),
    ("Node.js", TOOL, ("NodeJS", "=Node")), ("Homebrew", TOOL, ()), ("Linux", PLATFORM, ()),
    ("Ubuntu", PLATFORM, ()), ("Debian", PLATFORM, ()), ("macOS", PLATFORM, ()),
    ("=Excel", TOOL, ()), ("Tableau", TOOL, ()), ("Power BI", TOOL, ()), ("Airflow", TOOL, ()),
    ("Hadoop", TOOL, ()), ("dbt", TOOL, ()), ("Grafana", TOOL, ()), ("Prometheus", TOOL, ()),
    ("Datadog", TOOL, ()), ("=Sentry", TOOL, ()), ("Vercel", PLATFORM, ()),
    ("Netlify", PLATFORM, ()), ("Heroku", PLATFORM, ()), ("AWS", PLATFORM, ()),
    ("Azure", PLATFORM, ()), ("GCP", PLATFORM, ("Google Cloud",)), ("Cloudflare", PLATFORM, ()),
    ("ChatGPT", TOOL, ()), ("=Copilot", TOOL, ("GitHub Copilot",)), ("Ollama", TOOL, ()),
    ("Trello", TOOL, ()), ("Obsidian", TOOL, ()), ("Poetry", TOOL, ()),
    # design, media, office and business software (the tools of people who do not code)
    ("Photoshop", TOOL, ("Adobe Photoshop",)), ("Adobe Illustrator", TOOL, ()),
    ("InDesign", TOOL, ()), ("Lightroom", TOOL, ()), ("Procreate", TOOL, ()),
    ("Affinity Designer", TOOL, ()), ("Affinity Photo", TOOL, ()),
    ("=Blender", TOOL, ()), ("Premiere Pro", TOOL, ()), ("After Effects", TOOL, ()),
    ("Final Cut Pro", TOOL, ()), ("DaVinci Resolve", TOOL, ()), ("Logic Pro", TOOL, ()),
    ("Ableton", TOOL, ("Ableton Live",)), ("GarageBand", TOOL, ()), ("Pro Tools", TOOL, ()),
    ("AutoCAD", TOOL, ()), ("Revit", TOOL, ()), ("SketchUp", TOOL, ()), ("GIMP", TOOL, ()),
    ("Inkscape", TOOL, ()), ("Krita", TOOL, ()), ("PowerPoint", TOOL, ()),
    ("Google Sheets", TOOL, ()), ("Google Docs", TOOL, ()), ("QuickBooks", TOOL, ()),
    ("Xero", TOOL, ()),
    # (not Canva, Shopify, Salesforce or HubSpot: more people work at them than say they use
    # them; not Illustrator or Miro: a job title and a name)
)

#: Canonical name -> kind, read-only.
TERM_KINDS = MappingProxyType({name.lstrip("="): kind for name, kind, _ in _TERMS})

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_VERSION = re.compile(r"^v?\d+(\.\d+)*(\.x)?$")
_DATE_CUE = re.compile(r"\b(?:yesterday|today|tomorrow|tonight|last|next|this|coming|past|these|"
                       r"those|every|ago|weekends?|weekdays|mornings|evenings|nights|afternoons)\b",
                       re.IGNORECASE)
_VERSION_TAIL = re.compile(r"\s+(v?\d+(?:\.\d+)*(?:\.x)?)$")


def time_patterns() -> list[list[dict[str, Any]]]:
    """Token patterns for lower-case relative dates ("last week", "3 days ago").

    The NER finds these too, but it only runs on sentences that need it (see
    :mod:`graphmem.extract.rules.gate`); rules rely on time words being entities
    so that they stay out of objects ("the hiking trip next week").
    """
    units = {"IN": ["week", "month", "year", "weekend", "summer", "winter", "spring", "fall",
                    "autumn", "night", "morning", "evening", "afternoon", "semester", "season",
                    *_WEEKDAYS]}
    counts = {"IN": ["a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight",
                     "nine", "ten", "few", "couple", "several", "of"]}
    plural_units = {"REGEX": r"^(day|week|month|year|hour|minute)s?$"}
    day_parts = {"IN": ["morning", "afternoon", "evening", "night"]}
    return [
        [{"LOWER": {"IN": ["yesterday", "today", "tomorrow", "tonight"]}},
         {"LOWER": day_parts, "OP": "?"}],
        [{"LOWER": {"IN": ["last", "next", "this", "coming", "past"]}}, {"LOWER": units}],
        [{"LOWER": {"IN": ["these", "those"]}}, {"LOWER": "days"}],
        [{"LOWER": "every"}, {"LOWER": units}],
        [{"LOWER": counts, "OP": "+"}, {"LOWER": plural_units}, {"LOWER": "ago"}],
        [{"LIKE_NUM": True}, {"LOWER": plural_units}, {"LOWER": "ago"}],
        [{"LOWER": "the"}, {"LOWER": "weekend"}],
        [{"LOWER": {"IN": ["on", "in", "at", "during", "over"]}},
         {"LOWER": {"IN": ["weekends", "weekdays", "mornings", "evenings", "nights",
                           "afternoons"]}}],
    ]


class TermMarker:
    """Marks ``TECH`` terms and relative dates as entities on a tagged doc.

    Hundreds of token patterns make spaCy's EntityRuler slow; two phrase
    matchers (case-insensitive, and exact-case for ambiguous words) are an order
    of magnitude faster. A version number after a term joins it ("Vue 3"). Run
    it before the NER, which then respects these spans.
    """

    def __init__(self, nlp: Language) -> None:
        from spacy.matcher import Matcher, PhraseMatcher

        self._any_case = PhraseMatcher(nlp.vocab, attr="LOWER")
        self._exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        for name, _kind, aliases in _TERMS:
            canonical = name.lstrip("=")
            for spelling in (name, *aliases):
                matcher = self._exact if spelling.startswith("=") else self._any_case
                matcher.add(canonical, [nlp.make_doc(spelling.lstrip("="))])
        self._dates = Matcher(nlp.vocab)
        self._dates.add("DATE", time_patterns())

    def __call__(self, doc: Doc) -> Doc:
        from spacy.tokens import Span
        from spacy.util import filter_spans

        spans = []
        strings = doc.vocab.strings
        for match_id, start, end in [*self._any_case(doc), *self._exact(doc)]:
            if doc[start].text == "Go" and doc[start].pos_ != "PROPN" and doc[start].dep_ not in (
                    "dobj", "pobj", "nsubj", "nsubjpass", "appos", "compound", "attr"):
                continue  # "Go for it!" is a verb, "I write Go" is not
            if end < len(doc) and _VERSION.match(doc[end].text):
                end += 1
            spans.append(Span(doc, start, end, label=TECH_LABEL, span_id=strings[match_id]))
        if _DATE_CUE.search(doc.text):
            spans += [Span(doc, start, end, label="DATE") for _, start, end in self._dates(doc)]
        # "unmodified" leaves the other tokens unannotated, so the NER may still label them
        doc.set_ents(filter_spans([*doc.ents, *spans]), default="unmodified")
        return doc


def spellings() -> list[str]:
    """Every spelling of every term, for cheap matching before any parse."""
    return [s.lstrip("=") for name, _kind, aliases in _TERMS for s in (name, *aliases)]


def canonical_name(surface: str, term_id: str) -> str:
    """The canonical spelling of a matched term, keeping its version: "vue 3" -> "Vue 3"."""
    if not term_id:
        return surface
    version = _VERSION_TAIL.search(surface)
    return f"{term_id} {version.group(1)}" if version else term_id


def kind_of(name: str) -> str | None:
    """The kind of a canonical term name, with or without a version, or None."""
    base = _VERSION_TAIL.sub("", name)
    return TERM_KINDS.get(base)


#: Canonical term names by their lower case: "rust" -> "Rust".
_BY_LOWER = MappingProxyType({name.lower(): name for name in TERM_KINDS})


def term_typed(name: str) -> str | None:
    """The canonical name of a term typed in any case ("rust", "TYPESCRIPT"), or None.

    Only for a sentence that says what kind of thing it names ("rust is my main
    language"): lower case, "rust" and "go" are words first."""
    return _BY_LOWER.get(name.lower())
