"""Rules for "to be" sentences.

"I'm a nurse at St. Mary's", "Caroline is my best friend", "My favourite band
is Coldplay", "I'm married to Tom", "I'm good at Python": the verb says
nothing, the complement says everything. Facts a noun phrase carries wherever
it stands ("my sister Anna") are read by :mod:`.nouns`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.contrast import denied
from graphmem.extract.rules.clause import Clause, Finding, Rule, each, lasting
from graphmem.extract.rules.lexicon import (
    HOMES, SUBJECTS, inflections, is_company, is_named, is_occupation, is_org, is_place,
    object_type, pobjs)
from graphmem.extract.rules.owners import noun_owner
from graphmem.extract.rules.parties import (KIN, Speech, conjuncts, copula_subjects,
                                            is_person_name, possessor)
from graphmem.extract.rules.phrases import activity, phrase, verb_phrase
from graphmem.extract.rules.slots import (
    is_language, married, slot_finding, value_name, value_slot)
from graphmem.extract.rules.terms import TECH_LABEL
from graphmem.extract.rules.titles import is_joined_title
from graphmem.extract.rules.titled import (WORKPLACES, occupation_read_as_modifier,
                                           title_instead, town_of_work, workplaces)

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

STATUS_WORDS = frozenset({"married", "engaged", "divorced", "single", "separated", "widowed"})
SKILL_WORDS = frozenset({"good", "great", "skilled", "proficient", "fluent", "experienced", "expert",
                      "decent", "talented", "competent", "excellent", "strong", "comfortable"})
ATTITUDES = MappingProxyType({
    "interested": ("LIKES", ("in",)), "passionate": ("LOVES", ("about",)),
    "obsessed": ("LOVES", ("with",)), "fond": ("LIKES", ("of",)), "crazy": ("LOVES", ("about",)),
    "allergic": ("ALLERGIC_TO", ("to",)), "based": ("LIVES_IN", ("in",)),
    "keen": ("LIKES", ("on",))})
_FAVOURITE = re.compile(r"^favou?rite$", re.IGNORECASE)
_PREDICATE_WORD = re.compile(r"[^A-Z0-9]+")


def copula(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    out: list[Finding] = []
    subject_tokens = copula_subjects(verb)
    out += _favourite(verb, subject_tokens, speech, clause)
    out += _my_noun_is(verb, subject_tokens, speech, clause)
    if clause.modal in ("would", "could", "should", "might"):
        return out
    if clause.tense == "future" and clause.modal:
        # "I'll be a clinical nurse manager from March": a title with the day it starts
        return out + [f for attr in verb.children if attr.dep_ == "attr"
                      and clause.modal == "will" and not clause.hedged and _from_a_day(verb)
                      for f in _attribute(attr, subject_tokens, clause, speech)
                      if f.predicate == "JOB_TITLE"]
    # "I'm platform lead now": a joined title the parser reads as an adjective
    for attr in [c for c in verb.children if c.dep_ == "attr"
                 or c.dep_ == "acomp" and is_joined_title(c)]:
        out += _attribute(attr, subject_tokens, clause, speech)
        out += _based_in(attr, clause, speech)
    for comp in [c for c in verb.children if c.dep_ == "acomp"]:
        out += _adjective(comp, clause, speech)
    if not any(c.dep_ == "acomp" for c in verb.children):
        for prep in [c for c in verb.children if c.dep_ == "prep"]:
            out += _where(prep, clause, speech)
    out += _stack(verb, clause)
    out += _together(verb, clause)
    return out


def _from_a_day(verb: Token) -> bool:
    """Whether the clause says from when ("from March", "starting Monday", "as of June")."""
    sent = verb.sent
    return any(t.lower_ in ("from", "starting", "of") and t.i + 1 < sent.end
               and verb.doc[t.i + 1].ent_type_ == "DATE"
               and (t.lower_ != "of" or t.i > sent.start and verb.doc[t.i - 1].lower_ == "as")
               for t in sent)


def _based_in(attr: Token, clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm a freelance illustrator based in Bristol": where the subject lives, said of the
    title (as "I'm based in Bristol" is said of the subject). A town, not a ward ("a nurse
    based in the ICU"), and not when the sentence says where one lives ("a sales rep based
    in Manchester, but I live in Liverpool")."""
    if clause.negated or clause.tense == "past" or _LIVING.search(attr.sent.text):
        return []
    # "I'm Tom, 34, freelance photographer based in Bristol": said of the title beside a name
    said_of = [attr, *(c for c in attr.children if c.dep_ == "appos")]
    places = [t for held in said_of for c in held.children if c.dep_ == "acl"
              and c.lower_ == "based" for t in pobjs(c, ("in",))
              if t.ent_type_ in ("GPE", "LOC") or t.lower_ in speech.towns]
    return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place")
                                   for t in places if (n := phrase(t))])


_LIVING = re.compile(r"\b(?:i|we)\s+(?:live|'m\s+living|am\s+living)\b|\bliving\s+in\b",
                     re.IGNORECASE)


def _together(verb: Token, clause: Clause) -> list[Finding]:
    """"Mia and I are together now", "me n mia are officially together": the other one is
    the speaker's partner. Not "we were together for years" (past), nor "we're together
    in Rome" (a place, not a couple)."""
    if clause.negated or clause.modal or clause.tense == "past" or not any(
            c.dep_ == "advmod" and c.lower_ == "together" for c in verb.children) or any(
            c.dep_ == "prep" for c in verb.children):
        return []
    me = [s for s in clause.subjects if s.is_speaker]
    others = [s for s in clause.subjects if not s.is_speaker]
    if len(me) != 1 or len(others) != 1 or not others[0].name[:1].isupper():
        return []
    return [Finding(me[0], "HAS_PARTNER", others[0].name, "person")]


def _stack(verb: Token, clause: Clause) -> list[Finding]:
    """"Our stack is FastAPI, Postgres and React": what the project is made of."""
    projects = [s for s in clause.subjects if s.type == "project"]
    if not projects or clause.negated:
        return []
    attrs = [c for c in verb.children if c.dep_ in ("attr", "acomp", "dobj")]
    techs = [t for a in attrs for t in [a, *conjuncts(a)] if t.ent_type_ == TECH_LABEL]
    return [Finding(p, "PROJECT_USES", n, "technology") for p in projects
            for t in techs if (n := phrase(t))]


def linking(clause: Clause, speech: Speech) -> list[Finding]:
    """"got married to Olivia", "became a nurse": get/become with a complement."""
    if clause.modal in ("would", "could", "should", "might"):
        return []
    verb = clause.verb
    out: list[Finding] = []
    if verb.tag_ == "VBG" and clause.tense != "past" and not any(
            c.dep_ == "acomp" and c.lower_ in ("divorced", "separated") for c in verb.children):
        return out  # "is getting married in October" has not happened; "getting divorced" is
    for comp in [c for c in verb.children if c.dep_ == "acomp"]:
        out += _adjective(comp, clause, speech)
    if clause.lemma == "become":
        for attr in [c for c in verb.children if c.dep_ == "attr"]:
            out += _attribute(attr, [], clause, speech)
    return out


def passive_state(clause: Clause, speech: Speech) -> list[Finding]:
    """"I got married to Tom", "I'm based in Austin" parsed with the adjective as the verb."""
    lemma = clause.verb.lower_
    if lemma in ATTITUDES or lemma in STATUS_WORDS:
        return _adjective(clause.verb, clause, speech)
    return []


def _attribute(attr: Token, subjects: list[Token], clause: Clause, speech: Speech) -> list[Finding]:
    if _said_name(attr):
        # "I'm Dev", "I'm Omar, barista at Blue Bottle": a name (lexical.py), then the title
        roles = [c for c in attr.children if c.dep_ == "appos" and is_occupation(c)]
        if not roles:
            return []
        attr = roles[0]
    lemma = attr.lemma_.lower()
    out: list[Finding] = []
    owner = possessor(attr)
    if owner == "name" and is_occupation(attr) and any(
            c.dep_ == "poss" and c.lemma_.lower() in WORKPLACES for c in attr.children):
        owner = None  # "I'm the restaurant's general manager now": a title there
    if lemma in KIN and owner == "me" and speech.first_person and not clause.negated:
        predicate = KIN[lemma]
        for who in subjects:
            if who.lower_ in ("he", "she", "they", "it", "this", "that", "i"):
                continue
            if is_person_name(who, speech) or (who.text[:1].isupper()
                                               and who.pos_ in ("PROPN", "NOUN")):
                out.append(Finding(speech.me(), predicate, who.text, "person", timing="none",
                                   statement=f"{who.text} is {{s's}} {attr.lower_}"))
        return out
    if lemma == "fan":
        predicate = "DISLIKES" if clause.negated and not clause.ended else "LIKES"
        teams = pobjs(attr, ("of",)) or [c for c in attr.children if c.dep_ == "compound"]
        return [Finding(s, predicate, n, object_type(t), timing="none")  # "an Arsenal fan"
                for s in clause.subjects for t in teams if (n := phrase(t))]
    if lemma in ("friend", "friends") and owner is None:
        return [Finding(s, "HAS_FRIEND", t.text, "person")
                for s in clause.subjects for t in pobjs(attr, ("with",))
                if t.ent_type_ == "PERSON" or t.tag_ == "NNP"]
    if clause.negated and not clause.ended and owner is None and is_occupation(attr) \
            and (title := phrase(attr)) and title_instead(clause.verb):
        # "I'm not a customs broker, I'm a compliance officer": the title denied is left (as
        # a slip when the sentence says it corrects one); the next clause says the right one
        return [Finding(s, "JOB_TITLE", title, "role", "retract") for s in clause.subjects]
    if (clause.negated and not clause.ended) or owner is not None:
        return out  # "I'm no writer", "I'm not a doctor"; "not a manager anymore" ends one
    if lemma == "student":
        # "a computer science student (at Leeds)": the subject learnt, and the school
        return [Finding(s, "STUDIES_AT", n, "organization")
                for s in clause.subjects for t in pobjs(attr, ("at",)) if (n := phrase(t))] \
            + [Finding(s, "LEARNING", field, "skill") for s in clause.subjects
               if (field := _field(attr)) and clause.tense == "present"]
    attr = occupation_read_as_modifier(attr) or attr
    if is_occupation(attr) and (clause.tense != "past" or clause.perfect
                                or clause.lemma == "become"):
        title = phrase(attr)
        if title:  # "I'm Omar, barista at Blue Bottle", "I'm Zoe - photographer": not the name
            title = _AFTER_A_NAME.split(title)[-1].strip()
        if title:  # "the restaurant's general manager": the title, not whose
            title = re.sub(r"^\S+['\u2019]s\s+", "", title)
        past = [c for c in attr.children if c.dep_ in ("amod", "compound")
                and c.lower_ in _PAST_TITLE]
        if past and title:  # "I'm a retired English teacher": a title held, not held now
            held = " ".join(w for w in title.split() if w.lower() not in _PAST_TITLE)
            ended = [Finding(s, "JOB_TITLE", held, "role", "retract") for s in clause.subjects]
            return out + ended + ([Finding(s, "WORKS_AT", "", "organization", "retract")
                                   for s in clause.subjects]
                                  if any(c.lower_ == "retired" for c in past) else [])
        employers = [t for t in workplaces(attr, clause.verb) if (n := phrase(t))]
        towns = town_of_work(attr) if clause.tense == "present" and not employers else []
        # "I'm a Perl developer": the language one writes most, too
        coded = title.split()[0] if title and attr.lemma_.lower() in _CODERS \
            and len(title.split()) == 2 and is_language(title.split()[0]) else None
        for s in clause.subjects:
            if title:
                out.append(Finding(s, "JOB_TITLE", title, "role"))
            if coded and clause.tense == "present":
                out.append(Finding(s, "MAIN_LANGUAGE", coded, "technology", confidence=0.8))
            out += [Finding(s, "WORKS_AT", n, object_type(t))
                    for t in employers if (n := phrase(t))]
            out += [Finding(s, "LIVES_IN", n, "place", confidence=0.7)
                    for t in towns if (n := phrase(t))]
    return out


def _field(student: Token) -> str | None:
    """The field a student noun names by its modifiers, when it is one ("computer science
    student"; not "first year", "MBA", "Cambridge")."""
    words = [t.lower_ for t in student.subtree if t.i < student.i
             and t.dep_ in ("compound", "amod")]
    # the longest run of its last words that is a field: "a mature nursing student"
    return next((field for i in range(len(words)) if (field := " ".join(words[i:])) in SUBJECTS),
                None)


#: What parts a name from the title said after it: "Omar, barista", "Zoe - photographer".
_AFTER_A_NAME = re.compile(r",|\s[-\u2013\u2014]\s")
#: Titles of people who write code all day: "a Perl developer", "a Go dev".
_CODERS = frozenset({"developer", "dev", "engineer", "programmer", "coder"})
#: Words that make a title one held before: "a retired teacher", "a former nurse".
_PAST_TITLE = frozenset({"retired", "former", "ex"})


def _said_name(attr: Token) -> bool:
    """A complement written as a name, "Dev" in "I'm Dev": one capitalised word, not in
    capitals ("CTO"), with no article, after the verb."""
    return attr.tag_ == "NNP" and attr.text[:1].isupper() and attr.text[1:].islower() \
        and attr.i > attr.head.i and not any(c.dep_ in ("det", "prep") for c in attr.children)


def _adjective(comp: Token, clause: Clause, speech: Speech) -> list[Finding]:
    word = comp.lower_
    head = clause.verb if comp != clause.verb else None

    def targets(preps: tuple[str, ...]) -> list[Token]:
        found = pobjs(comp, preps) + (pobjs(head, preps) if head is not None else [])
        return found or _after(comp, preps)

    if word in STATUS_WORDS and clause.ended:  # "not married anymore", "no longer married"
        return [Finding(s, "RELATIONSHIP_STATUS", word, "status", "retract")
                for s in clause.subjects] + ([Finding(s, "MARRIED_TO", "", "person", "retract")
                                              for s in clause.subjects] if word == "married"
                                             else [])
    if word in STATUS_WORDS and not clause.negated:
        partners = [t for t in targets(("to",)) if t.ent_type_ == "PERSON" or t.tag_ == "NNP"]
        if word == "married":
            return married(clause.subjects, [t.text for t in partners])
        out: list[Finding] = []
        me = [s for s in clause.subjects if s.is_speaker]
        others = [s for s in clause.subjects if not s.is_speaker]
        if word == "engaged" and not partners and me and len(others) == 1:
            # "Tom and I got engaged": each other's partner, as "Tom and I got married"
            return [Finding(me[0], "RELATIONSHIP_STATUS", word, "status"),
                    Finding(me[0], "HAS_PARTNER", others[0].name, "person")]
        for s in clause.subjects:
            out.append(Finding(s, "RELATIONSHIP_STATUS", word, "status"))
            out += [Finding(s, "HAS_PARTNER", t.text, "person") for t in partners]
            if word == "divorced":
                out.append(Finding(s, "MARRIED_TO", "", "person", "retract"))
        return out
    if word in SKILL_WORDS and not clause.negated:
        return [Finding(s, "SKILLED_IN", n, "skill")
                for s in clause.subjects for t in targets(("at", "in", "with"))
                if (n := phrase(t)) and t.lower_ != "people"]
    if word in ATTITUDES and clause.ended:  # "not allergic to peanuts after all"
        predicate, preps = ATTITUDES[word]
        return [Finding(s, predicate, n, object_type(t), "retract", timing="none")
                for s in clause.subjects for t in targets(preps) if (n := phrase(t))]
    if word in ATTITUDES and not clause.negated:
        predicate, preps = ATTITUDES[word]
        found = targets(preps)
        if predicate == "LIVES_IN":
            found = [t for t in found if is_place(t)]
        return [Finding(s, predicate, n, object_type(t) if t.tag_ != "VBG" else "activity",
                        timing="none" if predicate != "LIVES_IN" else "start",
                        confidence=0.75 if word == "interested" else 0.85)
                for s in clause.subjects for t in found
                if (n := (activity(t, speech) if t.tag_ == "VBG" else phrase(t)))]
    return []


def _after(comp: Token, preps: tuple[str, ...]) -> list[Token]:
    """The noun right after "allergic to" when the parser lost the preposition."""
    doc = comp.doc
    i = comp.i + 1
    if i + 1 >= len(doc) or doc[i].lower_ not in preps:
        return []
    i += 1
    while i + 1 < len(doc) and doc[i + 1].pos_ in ("NOUN", "PROPN") and doc[i].pos_ in (
            "NOUN", "PROPN", "ADJ", "DET", "VERB"):
        i += 1
    word = doc[i]
    return [word] if word.pos_ in ("NOUN", "PROPN", "VERB", "ADJ") and not word.is_stop else []


def _phrase_text(tokens: list[Token]) -> str:
    return "".join(t.text_with_ws for t in tokens).strip()


#: Slots one can be "all about" or "all in on".
_ALL_IN_SLOTS = frozenset({"PLAYS_SPORT", "DIET", "MAIN_LANGUAGE", "HAS_PHONE"})


def _where(prep: Token, clause: Clause, speech: Speech) -> list[Finding]:
    word = prep.lower_
    targets = [c for c in prep.children if c.dep_ in ("pobj", "pcomp")]
    targets += [x for t in targets for x in conjuncts(t)]
    if clause.negated:
        if word != "into" or clause.tense == "past":
            return []
        if clause.ended:  # "I'm not into ramen anymore": the liking ends
            return [Finding(s, "LIKES", n, "activity", "retract", timing="none")
                    for s in clause.subjects for t in targets if (n := phrase(t))]
        return [Finding(s, "DISLIKES", n, "activity", timing="none", confidence=0.75)
                for s in clause.subjects for t in targets if (n := phrase(t))]
    if word in ("about", "on") and clause.tense == "present" and any(
            c.lower_ == "all" for c in prep.head.children if c.i < prep.i):
        # "I'm all about water polo now", "I'm all in on Erlang now": the value one is on
        values = [(slot, n) for t in targets if (n := value_name(t))
                  and (slot := value_slot(n, t) or ("MAIN_LANGUAGE" if is_language(n, said=True)
                                                     else None)) in _ALL_IN_SLOTS]
        return [slot_finding(s, slot, n, "assert") for s in clause.subjects for slot, n in values]
    if word == "from":
        return [Finding(s, "IS_FROM", n, "place", timing="none")
                for s in clause.subjects for t in targets if is_place(t) and (n := phrase(t))]
    if word == "into" and clause.tense != "past":
        # "I'm into squash now": a sport taken up now is the sport; otherwise a liking
        keen = any(c.lower_ in ("really", "seriously", "totally") for c in prep.head.children) \
            or any(value_slot(_phrase_text(p)) == "PLAYS_SPORT" for p in denied(prep.sent))
        now = any(c.lower_ in ("now", "lately", "nowadays") for c in prep.head.children)
        found = [(s, n) for s in clause.subjects for t in targets if (n := phrase(t))]
        # "I'm really into yoga": doing it (the sport, which a later "no sport for me" ends)
        return [Finding(s, "PLAYS_SPORT", n, "activity") if (now or keen) and
                value_slot(n) == "PLAYS_SPORT" else Finding(s, "LIKES", n, "activity",
                                                               timing="none")
                for s, n in found]
    if word == "in" and clause.tense == "present" and clause.ended:
        # "I'm no longer in Helsinki, living out of a suitcase": that home ends
        return [Finding(s, "LIVES_IN", n, "place", "retract") for s in clause.subjects
                for t in targets if (is_place(t) or is_named(t)) and not is_company(t)
                and (n := phrase(t))]
    if word == "in" and clause.tense == "present" and not clause.negated and speech.first_person \
            and any(c.lemma_.lower() in HOMES and possessor(c) == "me"
                    for c in copula_subjects(prep.head)):
        # "Our new apartment is in Buenos Aires, we moved in December": home
        return [Finding(speech.me(), "LIVES_IN", n, "place") for t in targets
                if (is_place(t) or is_named(t)) and not is_company(t) and (n := phrase(t))]
    if word == "in" and (clause.tense == "present" and _settled(prep) or clause.perfect
                         and not clause.negated and lasting(prep.head, long=True)):
        # "we're in Copenhagen now", "I'm in Adelaide, moved here for uni", "I've been in
        # Lisbon for two years": home
        # a place, whatever the tagger says ("Valencia" read as a person)
        return [Finding(s, "LIVES_IN", n, "place") for s in clause.subjects
                for t in targets if (is_place(t) or is_named(t) and t.ent_type_ == "PERSON")
                and not is_company(t) and (n := phrase(t))]
    if word == "in" and clause.tense == "past" and not clause.perfect:
        return [Finding(s, "HAS_VISITED", n, "place", timing="event")
                for s in clause.subjects if s.is_speaker
                for t in targets if t.ent_type_ in ("GPE", "LOC") and (n := phrase(t))]
    return []


def _settled(prep: Token) -> bool:
    """Whether "in <place>" is where one lives now, not a visit: said with "now" or "these
    days", beside "moved here", or to set one's time zone ("For context, I'm in Porto, so
    keep the timezone in mind")."""
    verb = prep.head
    text = verb.sent.text.lower()
    return any(c.lower_ in ("now", "nowadays") for c in verb.children) or \
        "these days" in text or bool(re.search(r"\bmoved\s+(?:here|there)\b|\btime\s?zone\b"
                                               r"|\blocal\s+time\b", text))


def _favourite(verb: Token, subjects: list[Token], speech: Speech, clause: Clause
               ) -> list[Finding]:
    """"My favourite band is Coldplay", "Python is my favorite language"."""
    if clause.negated:
        return []
    attrs = [c for c in verb.children if c.dep_ == "attr"]
    values = attrs + [c for c in verb.children if c.dep_ in ("advmod", "acomp", "npadvmod", "oprd")
                      and c.i > verb.i and (c.text[:1].isupper() or c.pos_ in ("NOUN", "PROPN"))
                      and c.ent_type_ not in ("DATE", "TIME")]
    pairs = [(s, values) for s in subjects] + [(a, subjects) for a in attrs]
    for noun, values in pairs:
        if not any(_FAVOURITE.match(c.text) for c in noun.children if c.dep_ == "amod"):
            continue
        owner = noun_owner(noun, speech)
        if owner is None:
            continue
        kind = _PREDICATE_WORD.sub("_", noun.lemma_.upper()).strip("_")
        if not kind or noun.lemma_.lower() in ("favorite", "favourite"):
            continue
        names = [(n, t) for v in values for t in [v, *conjuncts(v)] if (n := phrase(t))]
        predicate = f"FAVORITE_{kind}"[:64]
        if len(names) > 1:
            return [Finding(owner, "LOVES", n, object_type(t), timing="none") for n, t in names]
        return [Finding(owner, predicate, n, object_type(t), timing="none",
                        statement=f"{{s's}} favourite {noun.lemma_.lower()} is {n}")
                for n, t in names]
    return []


def _my_noun_is(verb: Token, subjects: list[Token], speech: Speech, clause: Clause
                ) -> list[Finding]:
    """"My hobby is painting", "My goal is to run a marathon", "My name is Priya"."""
    out: list[Finding] = []
    for noun in subjects:
        owner = noun_owner(noun, speech)
        lemma = noun.lemma_.lower()
        if owner is None or clause.negated:
            continue
        values = [c for c in verb.children if c.dep_ in ("attr", "acomp")]
        values += [x for v in values for x in conjuncts(v)]
        if lemma in ("hobby", "passion", "pastime"):
            out += [Finding(owner, "HOBBY", n, "activity") for v in values if (n := phrase(v))]
        elif lemma == "name" and owner.is_speaker:
            out += [Finding(owner, "IS_NAMED", v.text, "name", timing="none", confidence=0.9)
                    for v in values if v.text[:1].isupper()]
        elif lemma in ("goal", "dream", "plan", "aim", "ambition", "resolution"):
            predicate = "PLANS" if lemma == "plan" else "GOAL"
            for c in verb.children:
                if c.dep_ in ("xcomp", "ccomp") and c.pos_ in ("VERB", "AUX") and any(
                        a.lower_ == "to" for a in c.children):
                    text = verb_phrase(c, speech)
                    if text:
                        out.append(Finding(owner, predicate, text, "goal",
                                           timing="plan" if predicate == "PLANS" else "none",
                                           statement=f"{{s}} wants to {text}"))
    return out


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
#: The words those rules read, and the verbs they are reached by beside "be".
TRIGGERS: frozenset[str] = STATUS_WORDS | frozenset(ATTITUDES) | frozenset(
    form for lemma in ("become", "marry", "engage") for form in inflections(lemma))
#: "I'm in Lisbon now", "we've been in Porto for two years": being in a named place, which
#: the rules above may read as a home; no word of it is a trigger.
_IN_A_PLACE = re.compile(r"(?:'m|\b[Aa]m|'re|\b[Aa]re|\b[Bb]een)\s+(?:\w+\s+){0,2}in\s+[A-Z]")
PATTERNS: tuple[re.Pattern[str], ...] = (_IN_A_PLACE,)
