"""Verb rules about work: a job, its employer and title, joining, starting, promotion.

Each rule takes a :class:`Clause` whose subject is already resolved and returns
:class:`Finding` objects. Negating a job ("I don't work at Acme") retracts it;
"I'm not working at the moment" ends whichever job there was. Leaving a job (quitting,
being let go, a last day, a notice) is in :mod:`graphmem.extract.rules.families.leaving`;
the home in :mod:`graphmem.extract.rules.families.home`; family, pets and possessions in
:mod:`graphmem.extract.rules.families.life`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import (Action, Clause, Finding, Rule, Timing, action_of, each,
                                           past_stretch, past_until, reworded)
from graphmem.extract.rules.lexicon import (
    BUSINESSES, JOB_NOUNS, capitalised, dobjs, is_company, is_named, is_named_business,
    is_occupation, is_student_role, job_titles, object_type, pobjs, studies_or_works)
from graphmem.extract.rules.parties import VAGUE, Party, Speech, has_det, possessor
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import value_slot
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Verbs that make an offer a job: "accepted the offer from Stripe" (not "got an offer").
_TAKING_OFFERS = frozenset({"accept", "take", "sign"})
_NOT_WORKPLACES = frozenset({"home", "night", "moment", "end", "same", "place", "office",
                             "living"})  # "I work for a living"
#: Institutions English names bare after "at": "I work at school", "at uni".
_BARE_WORKPLACES = frozenset({"school", "uni", "university", "college", "church", "hospital",
                              "court", "sea"})


#: Places one works in with an article: "I work in a hospital", "in the pharmacy".
_WORKED_IN = BUSINESSES | {"hospital", "factory", "warehouse", "pharmacy", "school", "bank",
                           "hotel", "lab", "laboratory", "nursery", "garage"}


def _worked_in(token: Token, verb: Token) -> bool:
    """"I am working in Siemens since 2019" (as many who learnt English elsewhere say it), "I
    work in a hospital": a firm by its name, said as a job (for a while, as a title, or under
    way: "I work in Google Sheets" names a tool), or a workplace with an article. Not a town
    ("in London"), a field ("in IT", "in finance") or a room ("in an office")."""
    if is_company(token):
        return True
    if token.ent_type_ == "ORG" and capitalised(token):
        return verb.tag_ == "VBG" or bool(pobjs(verb, ("as",))) or any(
            c.dep_ == "prep" and c.lower_ == "since" for c in verb.children)
    return token.lemma_.lower() in _WORKED_IN and has_det(token, ("a", "an", "the"))


def _a_workplace(token: Token) -> bool:
    """"at Tesco", "at a bakery", "for my dad", "at school": a place of work. A bare
    lower-case noun is a manner or a measure instead ("I work at scale", "at speed", "for
    hours"), unless English names institutions that way."""
    if token.lower_ in _NOT_WORKPLACES or token.lower_ in VAGUE or token.ent_type_ in (
            "DATE", "TIME"):
        return False
    if not token.text[:1].islower() or token.lower_ in _BARE_WORKPLACES:
        return True
    # "for the council", "at a bakery", "for my dad"; not "for the accounts" (what for)
    deps = {c.dep_ for c in token.children}
    return "poss" in deps or token.tag_ != "NNS" and bool(
        deps & {"det", "compound", "amod", "nummod"})


def work(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if any(c.dep_ == "prep" and c.lower_ == "on" for c in verb.children) and \
            not pobjs(verb, ("at", "for", "as")):
        return []
    places = [t for t in pobjs(verb, ("at", "for")) if _a_workplace(t)]
    places += [t for t in pobjs(verb, ("in",)) if _worked_in(t, verb)]
    titles = [t for t in pobjs(verb, ("as",)) if t.ent_type_ != TECH_LABEL]
    tools = [t for t in pobjs(verb, ("with",)) if t.ent_type_ == TECH_LABEL]
    if _out_of_work(clause, places, titles, tools):
        return each(clause, lambda s: [Finding(s, "WORKS_AT", "", "organization", "retract")])
    stretch = past_stretch(clause)  # "I worked at Google from 2015 to 2020"
    ended = past_until(clause)  # "I worked at Google until 2020": it ended then
    if clause.tense == "past" and not clause.perfect and not clause.negated and not (
            stretch or ended):
        return []
    action: Action = "assert" if stretch else "retract" if ended else action_of(clause)
    timing: Timing = "span" if stretch else "start"

    def make(s: Party) -> list[Finding]:
        out = [Finding(s, "WORKS_AT", name, object_type(t), action, timing=timing)
               for t in places if (name := phrase(t))]
        for t in titles:
            for attached in pobjs(t, ("at", "for")):
                if (org := phrase(attached)) and not places:
                    out.append(Finding(s, "WORKS_AT", org, object_type(attached), action,
                                       timing=timing))
            if title := phrase(t):
                out.append(Finding(s, "JOB_TITLE", title, "role", action, timing=timing))
        out += [Finding(s, "USES", name, "technology", action, timing=timing)
                for t in tools if (name := phrase(t))]
        return [reworded(f, _PAST) for f in out] if stretch else out
    return each(clause, make)


#: Verbs of work done for someone: "I freelance for Acme", "I tutor for MyTutor".
_WORKING_VERBS = frozenset({"freelance", "tutor", "consult", "contract", "temp"})
#: Work one does for a firm: "doing online tutoring for a company called MyTutor".
_WORK_DONE = frozenset({"work", "tutoring", "consulting", "freelancing", "contracting",
                        "shift", "teaching", "coaching", "design", "illustration",
                        "copywriting", "translation", "admin"})


def work_done_for(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm doing online tutoring for a company called MyTutor", "I freelance for Acme",
    "doing freelance work for Acme": an employer now. Only a firm by its name: not "for my
    sister's wedding invitations", "for Sarah", "for children's books"; not volunteering,
    and not a past job (history, not said as such)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or \
            clause.tense == "past" and not clause.perfect or _VOLUNTEERING.search(verb.sent.text):
        return []
    if clause.lemma == "do":
        done = [t for t in dobjs(verb) if t.lemma_.lower() in _WORK_DONE]
        clients = [c for d in done for c in pobjs(d, ("for",))] + (
            pobjs(verb, ("for",)) if done else [])
    else:
        clients = pobjs(verb, ("for",))
    firms = [t for t in dict.fromkeys(clients) if _a_firm(t, speech)]
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, object_type(t))
                                   for t in firms if (n := phrase(t))])


def _a_firm(token: Token, speech: Speech) -> bool:
    """A firm by its name ("Acme"), or a business noun given one ("a company called MyTutor");
    not a person, a first name, or someone's thing."""
    if possessor(token) is not None or token.ent_type_ == "PERSON" and " " in token.text:
        return False  # "for Tom Baker" (the NER calls many a firm a person: "for Acme")
    if capitalised(token):
        return token.lower_ not in speech.first_names  # not "for Sarah"
    name = phrase(token) or ""
    return token.lemma_.lower() in BUSINESSES and name[:1].isupper()


#: "as a volunteer", "volunteering": unpaid, no employer.
_VOLUNTEERING = re.compile(r"\bvolunteer\w*|\bvoluntar\w*|\bunpaid\b", re.IGNORECASE)


#: How a stretch of work history is worded: "Maya worked at Acme from 2015 to 2020".
_PAST = MappingProxyType({"WORKS_AT": "{s} worked at {o}", "JOB_TITLE": "{s} worked as {a_o}",
                          "USES": "{s} used {o}"})


def _out_of_work(clause: Clause, places: list[Token], titles: list[Token],
                 tools: list[Token]) -> bool:
    """"I'm not working at the moment": no job now, whichever it was (not "I'm not working
    today", a day off, nor "not working on X", a task)."""
    verb = clause.verb
    return (clause.negated and clause.tense == "present" and verb.tag_ == "VBG"
            and not (places or titles or tools) and not dobjs(verb)
            and not any(c.dep_ == "prep" for c in verb.children if c.lower_ != "at")
            and not any(t.ent_type_ in ("DATE", "TIME") for t in verb.sent))


#: What one joins to take up a sport: "the rowing club", "a handball team".
_SPORTS_GROUPS = frozenset({"club", "team", "league", "squad", "crew", "class", "group"})


#: What people say they do at work: "I build logistics software at Tidewater Logistics".
_WORK_VERBS = frozenset({"build", "develop", "design", "code", "program", "engineer", "manage",
                         "lead", "research", "sell", "market", "analyze", "analyse", "write",
                         "run", "teach", "advise", "consult"})


def work_at(clause: Clause, speech: Speech) -> list[Finding]:
    """"I build logistics software at Tidewater Logistics", "I design games at Fernhill
    Games": a present habit done at a company is a job there (a company by its name's last
    word or the tagger's ORG, never a place: "I write at the Berlin library" is not)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "present" or \
            verb.tag_ not in ("VBP", "VBZ") or not any(s.is_speaker for s in clause.subjects):
        return []
    orgs = [t for t in pobjs(verb, ("at", "for")) + [x for o in dobjs(verb)
                                                     for x in pobjs(o, ("at", "for"))]
            if is_company(t) or t.ent_type_ == "ORG" and capitalised(t)]
    return [Finding(s, "WORKS_AT", n, "organization") for s in clause.subjects if s.is_speaker
            for t in orgs if (n := phrase(t))]


def join(clause: Clause, speech: Speech) -> list[Finding]:
    """"joined Datadog as a staff engineer": an employer, and a title when one is given."""
    orgs = [t for t in dobjs(clause.verb) if (is_named(t) or t.ent_type_ == TECH_LABEL)
            and t.text not in speech.speakers]
    if clause.negated or clause.modal:
        return []
    sports = [n for t in dobjs(clause.verb) if t.lemma_.lower() in _SPORTS_GROUPS
              for c in t.children if c.dep_ in ("compound", "amod")
              and value_slot(n := c.lower_) == "PLAYS_SPORT"]
    if sports:  # "joined the rowing club", "joined a handball team": the sport
        return each(clause, lambda s: [Finding(s, "PLAYS_SPORT", n, "activity") for n in sports])
    titles = pobjs(clause.verb, ("as",)) if orgs else []
    # "joined Harvard as a freshman": a school joined as a student, no job there
    place = orgs[0] if orgs else None
    predicate = "STUDIES_AT" if titles and all(is_student_role(t, place) for t in titles) \
        else "WORKS_AT"
    titles = [t for t in titles if not is_student_role(t, place)]
    return each(clause, lambda s: [Finding(s, predicate, n, "organization", timing="start")
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := _title(t))])


def start_job(clause: Clause, speech: Speech) -> list[Finding]:
    """"started a new job at Spotify", "got a job at X", "got hired by X", "landed a role at"."""
    verb = clause.verb
    if clause.negated:
        return []
    orgs: list[Token] = []
    titles: list[Token] = []
    # "got an offer from Stripe" is no job yet: only an offer accepted is one
    jobs = [t for t in dobjs(verb) if t.lemma_.lower() in JOB_NOUNS
            and (t.lemma_.lower() != "offer" or verb.lemma_ in _TAKING_OFFERS
                 or _taken_after(verb))]
    for t in jobs:
        orgs += pobjs(t, ("at", "with", "for", "from"))
        titles += pobjs(t, ("as",))
        if t.lemma_.lower() == "job" and has_det(t, ("the",)):  # "got the Costa job"
            # a town's job is a job there ("the London job"), not the employer
            orgs += [c for c in t.children if c.dep_ == "compound" and c.tag_ == "NNP"
                     and c.ent_type_ != "GPE"]
    for t in list(titles):  # "a job as a barista at Blue Bottle"
        orgs += [o for o in pobjs(t, ("at", "with", "for")) if o not in orgs]
    if verb.lemma_ == "hire":
        if any(t.lower_ in ("me", "us") for t in dobjs(verb)):
            return []  # "Apple hired me as a designer": the hirer is the employer (states)
        orgs += pobjs(verb, ("by", "at"))
        titles += pobjs(verb, ("as",))
    if jobs:
        orgs += pobjs(verb, ("at", "with", "for"))
        titles += pobjs(verb, ("as",))
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, object_type(t))
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := _title(t))])


#: Words of study in a sentence make a start somewhere a school's ("started at Stanford as a
#: freshman", "started at MIT for my PhD").
_STUDY_WORDS = frozenset({"university", "college", "school", "academy", "uni", "study",
                          "student", "degree", "course", "semester", "freshman", "major", "phd",
                          "masters", "master", "undergrad", "class", "term", "lecture", "grad",
                          "bachelor"})


def start_at(clause: Clause, speech: Speech) -> list[Finding]:
    """A place started at, with no job noun (see :func:`start_job`): "I started at Ledgerly
    last week", "starting at Ledgerly as Head of Finance on 1 July", "started as a junior data
    analyst at Kestrel Insurance" (the employer hangs off the title), "I started at Crumbs
    bakery as head baker" (the title off the employer). A school started at as a student is
    study: "I started at Stanford as a freshman", "just started freshman year at UC Davis".
    Not a time ("started at 9"), a place one starts from ("at the bottom"), nor a start that
    may never be ("I'd start at Google if they asked")."""
    verb = clause.verb
    # "just started freshman year at UC Davis": a student's year begun there
    year = any(is_student_role(c) for t in verb.children if t.dep_ in ("npadvmod", "dobj")
               for c in t.children if c.dep_ in ("compound", "amod"))
    if clause.negated or clause.modal in ("would", "could", "should", "might") or (
            dobjs(verb) and not year):
        return []
    titles = pobjs(verb, ("as",))
    places = _started_at(verb) + pobjs(verb, ("with",)) + [
        o for t in titles if is_occupation(t) for o in pobjs(t, ("at", "with", "for"))]
    orgs = list(dict.fromkeys(t for t in places if _started_workplace(t, speech)))
    if not orgs:
        return []
    titles += [t for o in orgs for t in pobjs(o, ("as",))]  # "at Crumbs bakery as head baker"
    # "as Head of Finance", hung by the parser on "called" when the firm is introduced
    titles += [t for o in orgs if o.i > 0 and o.nbor(-1).lower_ in ("called", "named")
               for t in pobjs(o.nbor(-1), ("as",))]
    # "I started at Etsy this week": when the week began; "I start at Etsy on Monday": ahead
    timing: Timing = "event" if clause.tense == "past" else "start"
    return each(clause, lambda s: [
        Finding(s, "STUDIES_AT" if year else studies_or_works(t, titles), n, "organization",
                timing=timing) for t in orgs if (n := phrase(t) or t.text)]
        + [Finding(s, "JOB_TITLE", title, "role", timing=timing)
           for t in job_titles(titles, orgs) if (title := _title(t))])


def _started_at(verb: Token) -> list[Token]:
    """What follows "at" after the verb, the firm a noun introduces named instead ("a
    startup called Ledgerly"); the parser may hang "at" as an adverb ("Starting at X as")
    and the name as one ("at Ledgerly", "Ledgerly" an adverb)."""
    places = pobjs(verb, ("at",))
    for prep in verb.children:
        if prep.dep_ not in ("prep", "advmod") or prep.lower_ != "at":
            continue
        named = [c for c in prep.children if c.dep_ == "pobj"]
        if prep.dep_ == "advmod":
            places += named
        if not named and prep.i + 1 < len(prep.doc):
            after = prep.doc[prep.i + 1]
            places += [after] if after.head == verb and after.dep_ == "advmod" else []
    return [_called(t) or t for t in places]


def _started_workplace(token: Token, speech: Speech) -> bool:
    """A name one starts at: a firm, a school, a named business ("Crumbs bakery"), a
    capitalised technology company ("Figma"); not a time, a number or a speaker."""
    if token.ent_type_ in ("TIME", "DATE", "CARDINAL") or token.text in speech.speakers:
        return False
    return is_named(token) or token.ent_type_ == TECH_LABEL and capitalised(token) \
        or is_named_business(token) or capitalised(token) and token.tag_ == "RB"


#: Nouns a firm is introduced by before its name: "a fintech startup called Ledgerly".
_FIRM_NOUNS = BUSINESSES | {"start-up", "bank", "consultancy", "place", "pub", "hotel", "nursery",
                            "garage", "lab", "brewery"}


def _called(token: Token) -> Token | None:
    """The name after "a startup called": the token after "called"/"named", if capitalised."""
    doc = token.doc
    if token.lemma_.lower() not in _FIRM_NOUNS or token.i + 2 >= len(doc):
        return None
    word, name = doc[token.i + 1], doc[token.i + 2]
    return name if word.lower_ in ("called", "named") and name.text[:1].isupper() else None


def _taken_after(verb: Token) -> bool:
    """"Got the offer from Deloitte and signed it": a verb joined to this one takes it."""
    return any(c.dep_ == "conj" and c.lemma_ in _TAKING_OFFERS
               and not any(n.dep_ == "neg" for n in c.children)
               and any(o.lower_ in ("it", "that") for o in dobjs(c)) for c in verb.children)


def _title(token: Token) -> str | None:
    """"head of design" keeps its "of" phrase; other titles are plain noun phrases."""
    name = phrase(token)
    if name is None:
        return None
    tail = [t for p in token.children if p.dep_ == "prep" and p.lower_ == "of" for t in p.subtree]
    return " ".join([name, *[t.text for t in tail]]) if tail else name


def promote(clause: Clause, speech: Speech) -> list[Finding]:
    """"promoted to staff engineer", and "they promoted me to team lead": the speaker holds
    the title. The parser often reads "to staff" or "me to team lead" as an infinitive."""
    verb = clause.verb
    doc = verb.doc
    if clause.negated or clause.modal or clause.hedged:
        return []
    at = verb.i + 1
    me = at < len(doc) and doc[at].lower_ in ("me", "us") and speech.first_person
    titles = [n for t in pobjs(verb, ("to",)) if (n := phrase(t))]
    if not titles and at + me < len(doc) and doc[at + me].lower_ == "to":
        words = []
        for t in doc[at + me + 1: verb.sent.end]:
            if t.pos_ not in ("NOUN", "PROPN", "ADJ", "VERB") or t.ent_type_ in ("DATE", "TIME"):
                break
            words.append(t.text)
        titles = [" ".join(words)] if words else []
    if me:
        return [Finding(speech.me(), "JOB_TITLE", n, "role") for n in titles]
    if any(t.pos_ in ("PROPN", "PRON") for t in dobjs(verb)):
        return []  # "they promoted Tom to director": Tom's title, and Tom is not the subject
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", n, "role") for n in titles])


def bumped_up(clause: Clause, speech: Speech) -> list[Finding]:
    """"I got bumped up to staff engineer": a promotion, in chat's words."""
    ups = [c for c in clause.verb.children if c.lower_ == "up" and c.dep_ in ("prt", "advmod")]
    if not ups or clause.negated or clause.modal or clause.hedged:
        return []
    titles = [n for up in ups for t in pobjs(up, ("to",)) if (n := phrase(t))]
    return promote(clause, speech) or each(
        clause, lambda s: [Finding(s, "JOB_TITLE", n, "role") for n in titles])


def train_as(clause: Clause, speech: Speech) -> list[Finding]:
    """"Left nursing, I'm training as a paramedic now": the title one works towards is the
    job now (a trainee paramedic); not "I trained as a chef" years ago, nor a wish."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "present" or \
            verb.tag_ != "VBG":
        return []
    titles = [n for t in pobjs(verb, ("as",)) if is_occupation(t) and (n := _title(t))]
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", n, "role") for n in titles])


def teach(clause: Clause, speech: Speech) -> list[Finding]:
    """"I teach yoga": a yoga teacher; "I teach third grade at Hillcrest", "I'm teaching at
    Hillcrest Elementary now": a teacher there (a progressive says a job only with a school:
    not "I'm teaching a class tonight")."""
    verb = clause.verb
    schools = [t for t in pobjs(verb, ("at",)) if is_named(t) or capitalised(t)]
    current = verb.tag_ in ("VBP", "VBZ") or clause.perfect or (
        verb.tag_ == "VBG" and clause.tense == "present" and bool(schools))
    if not current or clause.negated or clause.modal or verb.dep_ == "xcomp":
        return []
    subjects = [t for t in dobjs(clause.verb) if t.pos_ in ("NOUN", "PROPN")]
    titles = [f"{_taught(t)} teacher" for t in subjects[:1]] or (["teacher"] if schools else [])
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", title, "role") for title in titles]
                + [Finding(s, "WORKS_AT", n, "organization") for t in schools
                   if (n := phrase(t))])


def _taught(subject: Token) -> str:
    """What a teacher teaches, with its modifiers: "third grade", "English", "yoga"."""
    words = [t for t in subject.subtree if t.i < subject.i and t.dep_ in ("amod", "compound")]
    head = subject.text if subject.text[:1].isupper() else subject.lemma_.lower()
    return " ".join([*(t.text if t.text[:1].isupper() else t.lower_ for t in words), head])


_VERB_RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "work": (work,), "join": (join,), "start": (start_job, start_at), "get": (start_job,),
    "land": (start_job,), "accept": (start_job,), "take": (start_job,),
    "sign": (start_job,), "hire": (start_job,), "promote": (promote,), "bump": (bumped_up,),
    "teach": (teach,), "train": (train_as,), "retrain": (train_as,), "do": (work_done_for,),
    **{verb: (work_done_for,) for verb in _WORKING_VERBS},
})
#: A work verb also reads "at <company>" (:func:`work_at`) beside its own rules.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType(
    {**_VERB_RULES, **{verb: (*_VERB_RULES.get(verb, ()), work_at) for verb in _WORK_VERBS}})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
