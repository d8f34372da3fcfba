"""Single-valued slots: which slot a value or a noun belongs to.

"My car is a Tesla", "I traded in my Prius", "Tesla Model 3 is what I drive
now" and "I sold my Tesla" all speak of one slot, the car a person drives, and
a new value must close the old one whatever verb introduced it. The rules
therefore decide the *slot* from the words that name it ("my phone", "my
manager", "my main language") or from the kind of value ("vegan" is a diet,
"padel" a sport, "Pixel 8" a phone, "Subaru Outback" a car, "Kotlin" a
programming language), and the verb only decides whether the value opens,
closes or replaces.

:func:`settle` runs once per sentence over every finding: a hobby that is a
sport becomes ``PLAYS_SPORT``, a possession that is a car or a phone becomes
``DRIVES``/``HAS_PHONE``, giving up a programming language also ends it as the
main one, and a sentence that both asserts and retracts one fact keeps only the
retraction (a negated statement is never asserted).
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Action, Finding
from graphmem.extract.rules.lexicon import capitalised, is_place, pobjs
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.owners import noun_owner
from graphmem.extract.rules.parties import PETS, Party, Speech, antecedent, is_person_name
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.terms import LANGUAGE, TECH_LABEL, kind_of, term_typed

if TYPE_CHECKING:
    from spacy.tokens import Token

DIETS = frozenset({
    "vegan", "vegetarian", "veggie", "pescatarian", "pescetarian", "keto", "ketogenic", "paleo",
    "carnivore", "omnivore", "flexitarian", "gluten-free", "halal", "kosher", "low-carb",
    "plant-based", "dairy-free", "whole30", "fruitarian", "lacto-vegetarian", "raw",
    "mediterranean", "low-fat", "intermittent fasting", "atkins", "dash", "low-fodmap",
    "low-salt", "low-sodium", "low-sugar", "sugar-free", "lactose-free"})
#: Sports, and the verbs that name them ("I swim" is swimming).
SPORTS = frozenset({
    "yoga", "pilates", "crossfit", "karate", "judo", "taekwondo", "kickboxing", "boxing", "mma",
    "wrestling", "fencing", "archery", "tennis", "padel", "squash", "badminton", "pickleball",
    "soccer", "football", "basketball", "baseball", "softball", "volleyball", "handball",
    "hockey", "rugby", "cricket", "lacrosse", "netball", "golf", "running", "jogging",
    "swimming", "cycling", "climbing", "bouldering", "rowing", "surfing", "skiing",
    "snowboarding", "skating", "skateboarding", "triathlon", "weightlifting", "powerlifting",
    "gymnastics", "diving", "sailing", "kayaking", "canoeing", "spinning", "athletics",
    "polo", "curling", "table tennis", "ping pong", "water polo", "martial arts", "trail running",
    "marathon running", "sprinting", "triathlons", "marathons", "calisthenics", "parkour",
    "rock climbing", "mountain biking", "biking", "paddleboarding", "orienteering", "kitesurfing",
    "windsurfing", "wakeboarding", "jiu-jitsu", "muay thai", "capoeira", "aikido", "kendo",
    "korfball", "floorball", "futsal", "cheerleading", "horse riding", "dressage", "duathlon",
    "biathlon", "ultimate frisbee", "ultimate", "frisbee", "disc golf", "bjj"})
SPORT_VERBS = MappingProxyType({
    "swim": "swimming", "run": "running", "jog": "jogging", "cycle": "cycling", "bike": "biking",
    "climb": "climbing", "boulder": "bouldering", "row": "rowing", "box": "boxing",
    "ski": "skiing", "surf": "surfing", "skate": "skating", "golf": "golf", "fence": "fencing",
    "sail": "sailing", "kayak": "kayaking", "dive": "diving", "snowboard": "snowboarding"})
PHONE_WORDS = frozenset({
    "iphone", "pixel", "galaxy", "fairphone", "oneplus", "xiaomi", "huawei", "nokia", "motorola",
    "moto", "xperia", "blackberry", "redmi", "oppo", "vivo", "realme", "android", "samsung",
    "sony", "asus", "zenfone", "htc", "lg", "poco"})
CAR_WORDS = frozenset({
    "toyota", "honda", "ford", "tesla", "volkswagen", "vw", "bmw", "audi", "mercedes",
    "mercedes-benz", "subaru", "mazda", "kia", "hyundai", "nissan", "volvo", "jeep", "chevrolet",
    "chevy", "porsche", "mini", "fiat", "peugeot", "renault", "skoda", "škoda", "lexus", "dacia",
    "citroen", "citroën", "opel", "polestar", "rivian", "lucid", "jaguar", "land", "range",
    "suzuki", "mitsubishi", "cupra", "alfa", "ferrari", "lamborghini", "dodge", "ram", "gmc",
    "cadillac", "buick", "lincoln", "acura", "infiniti", "genesis", "saab", "smart", "byd",
    "prius", "civic", "corolla", "camry", "outback", "forester", "mustang", "rav4", "wrangler",
    "beetle", "leaf", "miata", "model", "tata", "mahindra", "maruti", "proton", "perodua",
    "geely", "chery", "haval", "mg", "lada", "vauxhall", "holden", "isuzu", "daihatsu",
    "ssangyong", "zeekr", "nio", "xpeng"}) | frozenset({
    # models sold widely enough to be named alone ("my Clio needs new tyres"); not the ones
    # English uses as words or names ("Focus", "Swift", "Note", "Jazz", "Golf", "Polo", "Leon")
    "yaris", "aygo", "auris", "avensis", "hilux", "fortuner", "innova", "etios", "vitz", "axio",
    "4runner", "c-hr", "cr-v", "hr-v", "elantra", "ioniq", "i10", "i20", "i30",
    "creta", "sportage", "sorento", "picanto", "ceed", "niro", "seltos", "stonic", "ev6",
    "micra", "qashqai", "x-trail", "navara", "altima", "sentra", "almera", "tiida", "mazda3",
    "mazda2", "cx-3", "cx-30", "cx-5", "cx-60", "impreza", "crosstrek", "wrx", "clio", "megane",
    "mégane", "captur", "kadjar", "twingo", "kwid", "sandero", "e-208", "e-2008", "berlingo",
    "xsara", "corsa", "astra", "mokka", "zafira", "octavia", "fabia", "kodiaq", "karoq",
    "kamiq", "enyaq", "citigo", "ibiza", "arona", "ateca", "tarraco", "formentor", "tiguan",
    "passat", "jetta", "touran", "touareg", "t-roc", "t-cross", "arteon", "id.3", "id.4",
    "id.buzz", "e-golf", "mondeo", "kuga", "f-150", "f150", "silverado", "cruze", "onix",
    "camaro", "giulia", "stelvio", "punto", "500e", "xc40", "xc60", "xc90", "ex30", "v60",
    "v90", "s60", "e-tron", "cayenne", "macan", "taycan", "baleno", "ertiga", "vitara", "jimny",
    "celerio", "wagonr", "nexon", "tiago", "tigor", "xuv700", "xuv300", "pajero", "lancer",
    "hb20", "saveiro", "cybertruck", "mg4", "mg5", "polestar2"})
#: Generic nouns for a slot's object: "I sold my car" ends the current car, whichever it is.
SLOT_THINGS = MappingProxyType({
    "car": "DRIVES", "suv": "DRIVES", "truck": "DRIVES", "van": "DRIVES", "hatchback": "DRIVES",
    "sedan": "DRIVES", "minivan": "DRIVES", "vehicle": "DRIVES", "ev": "DRIVES",
    "phone": "HAS_PHONE", "smartphone": "HAS_PHONE", "cellphone": "HAS_PHONE",
    "mobile": "HAS_PHONE"})
#: Nouns that name a slot when possessed: "my manager is X", "X is my go-to language".
SLOT_NOUNS = MappingProxyType({
    **SLOT_THINGS, "ride": "DRIVES", "manager": "REPORTS_TO", "boss": "REPORTS_TO",
    "supervisor": "REPORTS_TO", "line manager": "REPORTS_TO", "lead": "REPORTS_TO",
    "team lead": "REPORTS_TO", "title": "JOB_TITLE",
    "job title": "JOB_TITLE", "role": "JOB_TITLE", "position": "JOB_TITLE",
    "employer": "WORKS_AT", "company": "WORKS_AT", "job": "WORKS_AT", "workplace": "WORKS_AT",
    "home": "LIVES_IN", "city": "LIVES_IN", "base": "LIVES_IN", "home base": "LIVES_IN",
    "diet": "DIET", "sport": "PLAYS_SPORT", "language": "MAIN_LANGUAGE",
    "programming language": "MAIN_LANGUAGE", "partner": "HAS_PARTNER",
    "relationship status": "RELATIONSHIP_STATUS", "daily driver": "HAS_PHONE",
    "day job": "WORKS_AT"})
#: Object types the slots store their values as.
SLOT_TYPES = MappingProxyType({
    "DRIVES": "product", "HAS_PHONE": "product", "REPORTS_TO": "person", "JOB_TITLE": "role",
    "WORKS_AT": "organization", "LIVES_IN": "place", "DIET": "diet", "PLAYS_SPORT": "activity",
    "MAIN_LANGUAGE": "technology", "HAS_PARTNER": "person", "RELATIONSHIP_STATUS": "status"})


def slot_noun(token: Token) -> str | None:
    """The slot a noun names, with its compound ("job title", "programming language")."""
    lemma = token.lemma_.lower()
    for c in token.children:
        if c.dep_ in ("compound", "amod") and f"{c.lower_} {lemma}" in SLOT_NOUNS:
            return SLOT_NOUNS[f"{c.lower_} {lemma}"]
    return SLOT_NOUNS.get(lemma)


#: Words after a value that only say "that": "the low-carb thing", "the CrossFit stuff".
_VAGUE_TAILS = frozenset({"thing", "things", "stuff", "phase", "lifestyle", "kick", "craze",
                          "routine", "habit"})


#: Car words that are common words or names too: a car only when capitalised.
_WORDY_MAKES = frozenset({"land", "range", "alfa", "smart", "genesis", "lincoln", "mini", "leaf",
                          "beetle", "ram", "model", "proton", "mg"})


def value_slot(name: str, token: Token | None = None) -> str | None:
    """The slot a value belongs to by its own words: a diet, a sport, a phone, a car, a language."""
    low = name.lower().strip()
    words = low.split()
    if not words:
        return None
    if len(words) > 1 and words[-1] in _VAGUE_TAILS:  # "the low-carb thing", "my keto phase"
        return value_slot(" ".join(name.split()[:-1]), None)
    if low in DIETS or (len(words) == 2 and words[1] == "diet" and words[0] in DIETS):
        return "DIET"
    if len(words) > 1 and words[0] in CAR_WORDS and words[0] not in _WORDY_MAKES:
        return "DRIVES"  # a make and its model before a sport's name: "VW Golf", "Kia Rio"
    if low in SPORTS or (len(words) > 1 and words[-1] in SPORTS and words[-1] != "polo"
                         and not words[0].endswith(("ing", "ed")) and words[0] not in (
                             "play", "plays", "do", "does", "did", "go", "went")):
        return "PLAYS_SPORT"  # "cross-country skiing", "beach volleyball", "trail running"
    if words[0] == "android" and len(words) > 1 and words[1] not in ("phone", "smartphone"):
        return None  # "Android Studio", "Android Auto": software
    if words[0] in PHONE_WORDS or (token is not None and token.lemma_.lower() in PHONE_WORDS) \
            or (len(words) > 1 and words[1] in PHONE_WORDS and name[:1].isupper()) \
            or (len(words) > 1 and words[1] == "phone" and name[:1].isupper()
                and words[0] not in ("my", "the", "a", "an", "your", "new", "old", "work")):
        return "HAS_PHONE"  # "Google Pixel 8", "Nothing Phone 2"
    if words[0] in CAR_WORDS and (words[0] != "model" or len(words) > 1) and \
            (words[0] not in _WORDY_MAKES or name[:1].isupper()):
        return "DRIVES"
    if kind_of(name) == LANGUAGE and (token is None or token.ent_type_ == TECH_LABEL
                                      or name[:1].isupper()):
        return "MAIN_LANGUAGE"
    return None


#: Languages whose names are more often people's ("Ruby", "Julia") or words ("Swift"):
#: the term marker leaves them alone, so they count only where a language is asked for
#: ("my main language is Ruby", "I write everything in Julia").
_NAME_LIKE_LANGUAGES = frozenset({"Ruby", "Julia", "Swift", "F#", "Crystal", "Nim", "R"})


def is_language(name: str, *, said: bool = False) -> bool:
    """Whether a name is a programming language; ``said`` when the sentence asks for one
    (then "Ruby", a name too, and "rust", a word too, typed in lower case, are languages)."""
    return kind_of(name) == LANGUAGE or said and language_typed(name) is not None


def language_typed(name: str) -> str | None:
    """The language ``name`` spells in any case ("rust" -> "Rust", "ruby" -> "Ruby"), or None."""
    typed = term_typed(name) or name.capitalize()
    return typed if kind_of(typed) == LANGUAGE or typed in _NAME_LIKE_LANGUAGES else None


def _retyped(f: Finding, predicate: str, obj: str | None = None) -> Finding:
    return Finding(f.subject, predicate, f.obj if obj is None else obj, SLOT_TYPES.get(
        predicate, f.object_type), f.action, None, f.confidence, f.timing, None, f.anchor)


#: Words before a model's name that only say its state: "the", "my", "a second-hand".
_THE = re.compile(r"^(?:(?:the|my|our)\s+)?(?:(?:second-hand|secondhand|used|pre-owned|"
                  r"brand-new|new|old|electric|little)\s+)*(?=[A-Z0-9])")


#: Parts of a phone or a car said after its model: "my Galaxy A52 battery", "the Clio's tyres".
_PART = re.compile(r"(?<=\w)(?:'s)?\s+(?:battery|screen|display|camera|charger|charging\s+port|"
                   r"port|case|speaker|mic|microphone|lens|keyboard|engine|tyres?|tires?|brakes?|"
                   r"clutch|gearbox|heater|headlights?|wipers?|windscreen|windshield|dashboard|"
                   r"bumper|exhaust|radiator|aircon|a/c)$", re.IGNORECASE)


def model_name(value: str) -> str:
    """A phone's or car's model as a value names it, without the words the tagger merged
    with it: its article or state ("the Galaxy S23", "a used Peugeot e-208") and the part
    talked about ("my Galaxy A52 battery")."""
    return _PART.sub("", _THE.sub("", value))


def settle(findings: list[Finding]) -> list[Finding]:
    """Put slot values into their slots, and let a retraction beat its own assertion."""
    out: list[Finding] = []
    for f in findings:
        if f.predicate in ("MAIN_LANGUAGE", "USES") and (typed := language_typed(f.obj)):
            f = replace(f, obj=typed)  # "rust is my main language": Rust, as it is spelt
        if f.predicate in ("HAS_PHONE", "DRIVES") and f.obj:
            f = replace(f, obj=model_name(f.obj))
        slot = value_slot(f.obj) if f.obj else None
        thing = SLOT_THINGS.get(f.obj.lower()) if f.obj else None
        model = model_name(f.obj)
        if slot is None and model != f.obj:
            slot = value_slot(model)
        if f.predicate == "HOBBY" and slot == "PLAYS_SPORT":
            out.append(_retyped(f, "PLAYS_SPORT"))
        elif f.predicate in ("OWNS", "USES", "HAS") and slot in ("DRIVES", "HAS_PHONE"):
            if f.action == "retract" and f.predicate == "OWNS":
                out.append(f)
            out.append(_retyped(f, slot, model))
        elif f.predicate == "OWNS" and thing is not None and f.action == "retract":
            out += [f, _retyped(f, thing, "")]  # "I sold my car": whichever car it was
        elif f.predicate == "USES" and f.action == "retract" and is_language(f.obj):
            out += [f, _retyped(f, "MAIN_LANGUAGE")]
        else:
            out.append(f)
    # "My Pixel 8 broke, I'm phoneless now": a slot said to be empty (by a state, not by
    # a verb: "sold my car and bought a Kia" empties none) holds none of the values named
    emptied = {(f.subject.name.lower(), f.predicate) for f in out
               if f.action == "retract" and not f.obj and f.anchor is None}
    out = [replace(f, action="retract") if f.action == "assert" and f.obj
           and (f.subject.name.lower(), f.predicate) in emptied else f for f in out]
    retracted = {(f.subject.name.lower(), f.predicate, f.obj.lower()) for f in out
                 if f.action == "retract"}
    filled = {(f.subject.name.lower(), f.predicate) for f in out if f.action == "assert"}
    valued = {(f.subject.name.lower(), f.predicate, f.anchor) for f in out
              if f.action == "retract" and f.obj}
    reporting = {(f.subject.name.lower(), f.obj.lower()) for f in out
                 if f.predicate == "REPORTS_TO" and f.action == "assert"}
    # "we adopted a kitten, her name is Miso": the kitten is Miso, not a second pet
    named_pets = {(f.subject.name.lower(), word) for f in out
                  if f.predicate == "HAS_PET" and f.action == "assert" and f.obj.lower() not in PETS
                  for word in re.findall(r"[a-z]+", (f.statement or "").lower()) if word in PETS}
    kept = []
    for f in out:
        if f.predicate == "KNOWS" and (f.subject.name.lower(), f.obj.lower()) in reporting:
            continue  # "my boss Gerald": the reporting line says it, and ends when it changes
        if f.predicate == "HAS_PET" and f.action == "assert" and \
                (f.subject.name.lower(), f.obj.lower()) in named_pets:
            continue
        if f.action == "assert" and (f.subject.name.lower(), f.predicate, f.obj.lower()) \
                in retracted:
            continue  # "Our dog Rex was rehomed": the noun phrase does not bring Rex back
        if f.action == "assert" and f.predicate == "OWNS" and \
                (f.subject.name.lower(), SLOT_THINGS.get(f.obj.lower(), "")) in filled:
            continue  # "Got a new car, a Kia Niro": the car is the Kia Niro
        if f.action == "retract" and not f.obj and \
                (f.subject.name.lower(), f.predicate, f.anchor) in valued:
            continue  # "I sold my Tesla" names the car: no need to close "whichever car"
        kept.append(f)
    return [f for f in kept if not (f.action == "assert" and any(
        g is not f and g.action == "assert" and g.predicate == f.predicate
        and g.subject.name == f.subject.name and g.obj.lower().startswith(f.obj.lower() + " ")
        for g in kept))]  # "Pixel" and "Pixel 8" from two rules: the fuller name


# ---------------------------------------------------------------- helpers for the slot rules


#: Modals under which a state is not stated as holding ("I would drive a Tesla").
NOT_SO = ("would", "could", "should", "might")


def value_name(token: Token) -> str | None:
    """A slot value's name: "a Pixel 8" -> "Pixel 8", "a keto diet" -> "keto"."""
    if token.lemma_.lower() == "diet":
        words = [c.lower_ for c in token.children if c.dep_ in ("amod", "compound")
                 and c.lower_ in DIETS]
        return words[0] if words else None
    if token.lemma_.lower() in _VAGUE_TAILS:  # "the low-carb thing", "the CrossFit stuff"
        words = [c.text for c in token.children if c.dep_ in ("amod", "compound")
                 and value_slot(c.text) in ("DIET", "PLAYS_SPORT")]
        if words:
            return words[0].lower()
    if token.lower_ in DIETS:
        return token.lower_
    if token.pos_ in ("VERB", "AUX") and token.text[:1].isupper():
        return token.text  # "Go is my main language": the parser read a verb
    name = phrase(token)
    if name is None and token.pos_ == "PROPN":  # "an iPhone 12" merged as a number
        words = token.text.split()
        name = " ".join(words[1:] if words[0].lower() in ("a", "an", "the", "my") else words)
    after = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if name and after is not None and after.tag_ == "CD" and token.pos_ == "PROPN" and \
            after.head != token and not name.endswith(after.text):
        name = f"{name} {after.text}"  # "a Pixel 8 as my phone": the parser lost the "8"
    return name


def _said_before(slot: str, pronoun: Token) -> Token | None:
    """The last value of ``slot`` the sentence named before ``pronoun``."""
    for t in reversed(pronoun.doc[:pronoun.i]):  # the message's earlier sentences too
        if t.pos_ in ("NOUN", "PROPN", "ADJ") and (n := value_name(t)) \
                and value_slot(n, t) == slot:
            return t
    return None


def fits(slot: str, token: Token) -> str | None:
    """Check a value fits the slot its noun names; None when it does not. "she" in "so
    she's my boss now" is the person the sentence named just before (:func:`antecedent`)."""
    if slot in ("REPORTS_TO", "HAS_PARTNER") and (named := antecedent(token)) is not None:
        token = named
    if token.lower_ in ("that", "this", "it") and (said := _said_before(slot, token)) is not None:
        token = said  # "My doctor suggested paleo, so that's my diet now"
    name = value_name(token)
    if not name or name.lower() in ("it", "this", "that", "what", "who", "one"):
        return None
    if slot == "REPORTS_TO" and not (is_person_name(token, _NOBODY) or token.text[:1].isupper()):
        return None
    if slot == "HAS_PARTNER" and (any(c.dep_ == "det" for c in token.children)
                                  or token.lemma_.lower() in OCCUPATIONS):
        return None  # "my partner Rhona is still a vet": what she is, not who she is
    if slot == "LIVES_IN" and not (is_place(token) or token.text[:1].isupper()):
        return None
    if slot == "WORKS_AT" and not token.text[:1].isupper():
        return None
    if slot == "MAIN_LANGUAGE" and not is_language(name, said=True):
        return None
    if slot == "PLAYS_SPORT" and value_slot(name) != "PLAYS_SPORT" and token.tag_ != "VBG":
        return None
    if slot == "DIET" and value_slot(name) != "DIET":
        return None
    if slot in ("DRIVES", "HAS_PHONE") and not (capitalised(token) or value_slot(name) == slot):
        return None  # "my car is a mess", "my phone is a brick": no model named
    return name.lower() if slot in ("PLAYS_SPORT", "DIET") else name  # "Tennis is my sport"


_NOBODY = Speech("", False, frozenset())


def owner_of(noun: Token, speech: Speech) -> Party | None:
    """"my manager" -> the speaker; "Ana's car" -> Ana; "home for me" -> the speaker;
    "the phone I carry around" -> the speaker."""
    if any(c.dep_ in ("poss", "relcl") for c in noun.children):
        return noun_owner(noun, speech)
    for t in pobjs(noun, ("for",)):
        if t.lower_ in ("me", "us") and speech.first_person:
            return speech.me()
    home = noun.lower_ == "home" or noun.lower_ == "base" and any(
        c.dep_ == "compound" and c.lower_ == "home" for c in noun.children)
    if home and noun.dep_ in ("attr", "nsubj", "advmod") and speech.first_person \
            and not any(c.dep_ in ("det", "poss", "prep") for c in noun.children):
        return speech.me()  # "Lisbon is home now", "Home is Tel Aviv now", "home base is X"
    if noun.dep_ == "nsubj" and noun.i == noun.sent.start + 1 and speech.first_person and \
            noun.doc[noun.i - 1].lower_ == "new" and not any(
            c.dep_ in ("det", "poss") for c in noun.children):
        return speech.me()  # "new manager at msft is raj patel": news of the speaker's own
    return None


def slot_finding(s: Party, slot: str, name: str, action: Action, **kw: object) -> Finding:
    return Finding(s, slot, name, SLOT_TYPES.get(slot, "concept"), action, **kw)  # type: ignore[arg-type]


def married(subjects: list[Party], partners: list[str]) -> list[Finding]:
    """"Tom and I got married", "I'm married to Tom", "We got married".

    With a partner named this is ``MARRIED_TO``; without one, ``RELATIONSHIP_STATUS``.
    """
    if partners:
        return [Finding(s, "MARRIED_TO", p, "person") for s in subjects for p in partners]
    me = [s for s in subjects if s.is_speaker]
    others = [s for s in subjects if not s.is_speaker]
    if me and len(others) == 1:
        return [Finding(me[0], "MARRIED_TO", others[0].name, "person")]
    return [Finding(s, "RELATIONSHIP_STATUS", "married", "status") for s in subjects]
