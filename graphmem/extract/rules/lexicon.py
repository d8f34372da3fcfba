"""Word lists and small tree helpers shared by the rule families.

Rules decide by verb lemma first and by the kind of object second ("play the
guitar" is a hobby, "play a role" is not), so the object kinds live here as
frozen sets; the helpers read objects and prepositional objects off a verb.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.parties import KIN, PETS, conjuncts, has_det
from graphmem.extract.rules.terms import TECH_LABEL
from graphmem.extract.rules.titles import is_joined_title

if TYPE_CHECKING:
    from spacy.tokens import Token

EVENT_NOUNS = frozenset({
    "class", "concert", "conference", "meeting", "festival", "party", "wedding", "show", "game",
    "workshop", "seminar", "group", "fair", "parade", "exhibition", "exhibit", "event",
    "retreat", "camp", "race", "marathon", "ceremony", "service", "match", "tournament",
    "appointment", "interview", "date", "exam", "presentation", "recital", "gala", "meetup",
    "hackathon", "lecture", "session", "course", "competition", "contest", "rally",
    "protest", "march", "fundraiser", "screening", "premiere", "performance", "play",
    "musical", "opera", "ballet", "convention", "expo", "summit", "reunion", "funeral",
    "graduation", "shower", "surgery", "checkup", "check-up", "deadline", "trial", "audition",
    "tour", "cruise", "hike", "picnic", "barbecue", "bbq", "dinner", "lunch", "brunch",
})
TRIP_NOUNS = frozenset({"trip", "vacation", "holiday", "flight", "getaway",
                        "visit", "honeymoon", "tour", "cruise", "roadtrip"})
POSSESSIONS = frozenset({
    "car", "house", "bike", "bicycle", "boat", "apartment", "flat", "condo",
    "motorcycle", "motorbike", "truck", "van", "piano", "guitar", "laptop", "computer", "phone",
    "camera", "cabin", "farm", "yacht", "scooter", "suv", "jeep", "tesla", "drone", "telescope",
    "console", "tablet", "ipad", "iphone", "macbook", "kayak", "canoe", "rv", "property",
    "cottage", "villa", "garden", "ranch", "horse", "violin", "drum", "keyboard", "watch",
})
NOT_POSSESSIONS = frozenset({"ticket", "tickets", "grocery", "groceries", "food", "lunch",
                             "dinner", "breakfast", "coffee", "drink", "gift", "present",
                             "clothes", "stuff", "supplies", "snack", "round", "time"})
#: What one lives in: "a small flat", "our new apartment".
HOMES = frozenset({"flat", "apartment", "house", "home", "place", "room", "studio", "condo",
                   "loft", "cottage", "townhouse", "bungalow"})
BUSINESSES = frozenset({"store", "shop", "bakery", "business", "company", "restaurant",
                        "studio", "cafe", "café", "startup", "salon", "gym", "clinic",
                        "practice", "brand", "boutique", "bar", "firm", "agency", "nonprofit",
                        "charity", "foundation", "label", "podcast", "channel", "blog"})
ACTIVITY_VERBS = frozenset({
    "paint", "draw", "knit", "sew", "crochet", "bake", "garden", "hike", "run", "jog", "swim",
    "climb", "surf", "skate", "ski", "dance", "sing", "read", "cook", "fish", "camp", "cycle",
    "bike", "meditate", "journal", "sketch", "skateboard", "snowboard", "kayak", "sail", "golf",
    "boulder", "write", "compose", "garden", "volunteer", "hunt", "sculpt", "quilt", "birdwatch",
    "bowl", "box", "row", "scuba", "dive", "paddle", "canoe", "backpack", "skydive", "travel",
    "photograph", "woodwork", "play",
})
ACTIVITY_NOUNS = frozenset({
    "yoga", "pilates", "crossfit", "karate", "judo", "taekwondo", "ballet", "gymnastics",
    "meditation", "ceramics", "pottery", "woodworking", "photography", "gardening", "painting",
    "drawing", "knitting", "sewing", "baking", "cooking", "hiking", "running", "swimming",
    "climbing", "bouldering", "surfing", "skating", "skiing", "dancing", "singing", "reading",
    "fishing", "camping", "cycling", "chess", "tennis", "soccer", "football", "basketball",
    "baseball", "golf", "volleyball", "hockey", "rugby", "cricket", "badminton", "boxing",
    "martial", "archery", "calligraphy", "origami", "journaling", "birdwatching", "kayaking",
    "sailing", "rowing", "jogging", "writing", "poetry", "piano", "guitar", "violin", "drums",
    "ukulele", "bass", "saxophone", "cello", "flute", "trumpet", "harp", "volunteering",
    "scrapbooking", "embroidery", "quilting", "sculpting", "gaming", "coding", "sketching",
    "skateboarding", "snowboarding", "triathlon", "marathons", "weightlifting", "lifting",
})
_QUANTITIES = frozenset({"bit", "lot", "lots", "little", "touch", "couple", "kind", "sort", "type",
                         "piece", "cup", "glass"})
ADVICE_VERBS = frozenset({
    "use", "set", "add", "run", "clear", "pin", "check", "disable", "enable", "restart", "bump",
    "upgrade", "downgrade", "install", "remove", "delete", "avoid", "keep", "update", "rebuild",
    "retry", "increase", "reduce", "switch", "export", "configure", "pass", "mount", "wrap",
    "lock", "cache", "purge", "flush", "turn", "raise", "lower", "limit", "prefer", "try",
    "make", "put", "move", "rename", "split", "commit", "tag", "test", "run", "call", "start",
    "stop", "kill", "reset", "drop", "migrate", "seed", "backup", "verify", "never", "always"})
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
ORG_LABELS = frozenset({"ORG", "FAC"})
LANGUAGE_LABELS = frozenset({"LANGUAGE", "NORP"})
#: Languages people learn, named the way they say them; the tagger often reads one as a
#: place or a people ("I gave up Spanish": GPE).
SPOKEN_LANGUAGES = frozenset({
    "arabic", "basque", "bengali", "cantonese", "catalan", "chinese", "czech", "danish", "dutch",
    "english", "farsi", "finnish", "french", "gaelic", "german", "greek", "hebrew", "hindi",
    "hungarian", "icelandic", "indonesian", "irish", "italian", "japanese", "korean", "latin",
    "malay", "mandarin", "norwegian", "persian", "polish", "portuguese", "romanian",
    "russian", "spanish", "swahili", "swedish", "tagalog", "thai", "turkish", "ukrainian",
    "urdu", "vietnamese", "welsh"})
#: Irregular forms of verbs the rules read (past tense, participle, third person).
IRREGULAR = MappingProxyType({
    "buy": "bought", "sell": "sold", "teach": "taught", "meet": "met", "know": "knew known",
    "speak": "spoke spoken", "go": "went gone goes", "fly": "flew flown flies",
    "drive": "drove driven", "leave": "left", "lose": "lost", "run": "ran", "begin": "began begun",
    "take": "took taken", "grow": "grew grown", "come": "came", "give": "gave given",
    "get": "got gotten", "write": "wrote written", "build": "built", "lay": "laid",
    "swim": "swam swum", "sing": "sang sung", "draw": "drew drawn", "dream": "dreamt",
    "learn": "learnt", "stand": "stood", "break": "broke broken", "bear": "born borne bore",
    "become": "became", "eat": "ate eaten", "hold": "held", "find": "found", "ride": "rode ridden",
    "spend": "spent",
})


#: Adverbs a place hangs off rather than off the verb: "moved back to", "moved home to".
_PARTICLES = frozenset({"back", "over", "away", "out", "down", "up", "home"})


def pobjs(token: Token, preps: tuple[str, ...]) -> list[Token]:
    """Objects of ``token``'s prepositions named in ``preps``, with their conjuncts."""
    found: list[Token] = []
    for prep in token.children:
        if prep.dep_ == "advmod" and prep.lower_ in _PARTICLES:
            found += pobjs(prep, preps)  # "moved back to Chicago", "moved back home to Ohio"
            continue
        if prep.dep_ not in ("prep", "agent", "dative") or prep.lower_ not in preps:
            continue
        direct = [_misread_doer(c) for c in prep.children if c.dep_ in ("pobj", "pcomp")]
        for c in direct:
            found += [unwrap(x) for x in (c, *conjuncts(c))]
        if not direct:  # "over to", "back to"
            found += pobjs(prep, tuple(c.lower_ for c in prep.children if c.dep_ == "prep"))
    return found


def _misread_doer(token: Token) -> Token:
    """"a job at Tesco stacking shelves": the parser makes "Tesco" the subject of "stacking",
    and "stacking" the object of "at"; the name is what "at" governs."""
    if token.dep_ == "pcomp" and token.tag_ == "VBG":
        for c in token.children:
            if c.dep_ == "nsubj" and c.tag_ == "NNP" and c.i < token.i:
                return c
    return token


def dobjs(token: Token) -> list[Token]:
    """The direct objects of ``token`` and their conjuncts; of "I have no car and two bikes"
    only the bikes: an object under "no" is had by no one, and when every object is
    (:func:`graphmem.extract.rules.clause.build_clause`), the clause is the one denied."""
    found: list[Token] = []
    for c in token.children:
        if c.dep_ in ("dobj", "obj"):
            found += [unwrap(x) for x in (c, *[x for x in conjuncts(c) if x.dep_ == "conj"])]
    return [t for t in found if not has_det(t, ("no",))] or found


def unwrap(token: Token) -> Token:
    """"a bit of French" -> French; "lots of jazz" -> jazz."""
    if token.lemma_.lower() not in _QUANTITIES:
        return token
    for prep in token.children:
        if prep.dep_ == "prep" and prep.lower_ == "of":
            for c in prep.children:
                if c.dep_ == "pobj":
                    return c
    return token


def object_type(token: Token) -> str:
    label = token.ent_type_
    if label == TECH_LABEL:
        return "technology"
    if label == "PERSON":
        return "person"
    if label in PLACE_LABELS:
        return "place"
    if label == "ORG":
        return "organization"
    if label == "PRODUCT":
        return "product"
    if label == "EVENT":
        return "event"
    if label == "WORK_OF_ART":
        return "work"
    if label in LANGUAGE_LABELS:
        return "language"
    return "concept"


def is_place(token: Token) -> bool:
    if token.ent_type_ in PLACE_LABELS:
        return True
    return token.tag_ in ("NNP", "NNPS") and token.ent_type_ in ("", "ORG", "NORP") and \
        token.text[:1].isupper()


def is_org(token: Token) -> bool:
    if token.ent_type_ in ("ORG", "FAC", "PRODUCT"):
        return True
    return token.tag_ in ("NNP", "NNPS") and token.ent_type_ == "" and token.text[:1].isupper()


def is_named(token: Token) -> bool:
    """A capitalised name, whatever the NER thinks it names.

    Where the verb already says what the object is ("moved to X" is a place,
    "joined X" an organisation), the small model's label is more often wrong
    than helpful ("Manchester" as a person, "OpenAI" as a country).
    """
    return (token.tag_ in ("NNP", "NNPS") or token.ent_type_ in ("ORG", "GPE", "LOC", "FAC",
                                                                 "PERSON", "PRODUCT")) \
        and capitalised(token) and token.ent_type_ not in ("DATE", "TIME", "CARDINAL",
                                                                 "ORDINAL", "TECH")


def is_named_business(token: Token) -> bool:
    """A business noun named by the capitalised word before it: "Crumbs bakery", "Luigi's
    pizzeria" is a firm, where "the bakery" is not one."""
    return token.lemma_.lower() in BUSINESSES and any(
        c.dep_ in ("compound", "poss") and c.i < token.i and capitalised(c)
        and c.tag_ in ("NNP", "NNPS") for c in token.children)


def capitalised(token: Token) -> bool:
    """Whether a name is written with a capital, also when the NER merged its article into
    it ("the University of Porto")."""
    text = token.text
    return text[4:5].isupper() if text.startswith("the ") else text[:1].isupper()


def is_occupation(token: Token) -> bool:
    return token.lemma_.lower() in OCCUPATIONS or token.lower_ in OCCUPATIONS \
        or is_joined_title(token)


def dies(subject: Token) -> bool:
    """Whether the subject of "die" or "pass away" is who died: not when it only names them
    as kin of the one who did ("My wife Ann's mother passed away", "My girlfriend Ava's dog
    died"), nor when the death did not happen ("nearly died", "didn't die")."""
    verb = subject.head
    if subject.dep_ != "nsubj" or not (verb.lemma_ == "die" or verb.lemma_ == "pass"
                                       and has_prt(verb, "away")):
        return False
    if any(c.dep_ == "case" for c in subject.subtree) or any(
            c.dep_ == "appos" and c.lemma_.lower() in KIN.keys() | PETS for c in subject.children):
        return False
    return sum(c.dep_ == "nsubj" for c in verb.children) == 1 and not any(
        c.dep_ == "neg" or c.dep_ == "advmod" and c.lower_ in ("nearly", "almost")
        or c.dep_ == "aux" and c.lower_ in ("might", "could", "would", "may")
        for c in verb.children)


def has_prt(verb: Token, word: str) -> bool:
    """A particle ("give up", "gave away"), also when the parser calls it an adverb."""
    return any(c.dep_ in ("prt", "advmod") and c.lower_ == word and c.i > verb.i
               for c in verb.children)


def imperative(verb: Token) -> bool:
    """A command to the listener: base form, no subject ("Remind me to...", "Use proxy-env")."""
    if verb.tag_ != "VB" or any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children):
        return False
    if verb.dep_ == "conj" and verb.head != verb and not imperative(verb.head):
        return False  # "They motivate me and remind me": the subject is shared
    return not any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children) and \
        not any(c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)


def inflections(lemma: str) -> set[str]:
    """A generous set of inflections: a superset is harmless, a gap loses facts."""
    forms = {lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "d", lemma + "ing"}
    if lemma.endswith("e"):
        forms |= {lemma[:-1] + "ing", lemma[:-1] + "ed"}
    if lemma.endswith("y"):
        forms |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
    if lemma.endswith("ie"):
        forms.add(lemma[:-2] + "ying")
    if len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou":
        forms |= {lemma + lemma[-1] + "ed", lemma + lemma[-1] + "ing"}
    forms |= set(IRREGULAR.get(lemma, "").split())
    return forms


#: Words that make a name a school's: "Leeds University", "the University of Porto".
_SCHOOL_WORDS = frozenset({"university", "college", "school", "academy", "institute",
                           "polytechnic", "uni", "conservatory", "conservatoire", "seminary"})
#: Schools known by their letters, which no word of the name gives away.
_SCHOOL_ACRONYMS = frozenset({"mit", "ucla", "nyu", "ucl", "lse", "eth", "epfl", "kth", "usc",
                              "cmu", "caltech", "ut austin", "uc berkeley", "tu delft"})


def is_school(token: Token) -> bool:
    """Whether a name names a school or university (the token's whole phrase is read)."""
    words = [w for t in token.subtree if not t.is_punct for w in t.lower_.split()]
    return " ".join(words).removeprefix("the ") in _SCHOOL_ACRONYMS or any(
        w in _SCHOOL_WORDS for w in words)


#: What a student is wherever it is said: "started at Stanford as a freshman", "as a PhD
#: student" (read by the phrase's head word and its modifiers).
_STUDENT_YEARS = frozenset({"freshman", "fresher", "sophomore", "undergrad", "undergraduate",
                            "postgrad", "postgraduate", "phd", "doctoral", "pupil"})
#: What a student is at a school only: "as a junior at Leeds University", where "joined
#: Deloitte as a junior" or "as a summer student" at a bank is a job.
_SCHOOL_STANDINGS = frozenset({"junior", "senior", "student", "grad"})


def is_student_role(token: Token, place: Token | None = None) -> bool:
    """Whether a title after "as" says a student, not a job, at ``place`` ("as a freshman";
    "as a senior engineer" is a job, "as a junior" one unless the place is a school)."""
    words = {token.lemma_.lower(), token.lower_}
    modifiers = {c.lower_ for c in token.children if c.dep_ in ("compound", "amod")}
    if words & _STUDENT_YEARS or words & {"student"} and modifiers & _STUDENT_YEARS:
        return True
    return bool(words & _SCHOOL_STANDINGS) and place is not None and is_school(place)


#: Last words of a street's name: "Great Pulteney Street", "Elm Road".
_STREET_WORDS = frozenset({"street", "road", "avenue", "lane", "drive", "way", "close",
                           "crescent", "terrace", "square", "boulevard", "row", "st", "rd",
                           "ave"})


def is_street(token: Token) -> bool:
    """A named street ("on Great Pulteney Street"): a home's place when no town is said."""
    words = token.text.split()
    return capitalised(token) and words[-1].lower().rstrip(".") in _STREET_WORDS and (
        len(words) > 1 or any(c.dep_ == "compound" and capitalised(c) for c in token.children))


#: Words that make a present tense a habit: "every Thursday", "usually", "on Sundays".
_HABIT_WORDS = frozenset({"every", "each", "usually", "often", "regularly", "weekly", "daily",
                          "monthly", "always", "sometimes", "normally", "mondays", "tuesdays",
                          "wednesdays", "thursdays", "fridays", "saturdays", "sundays"})


#: Habit words that say how often something recurs, not just that it does ("always",
#: "each" are also said of a single occasion: "I'm always playing the bad guy").
_SCHEDULE_WORDS = _HABIT_WORDS - {"always", "each", "sometimes", "often", "usually", "normally"}


def said_as_habit(verb: Token, scheduled: bool = False) -> bool:
    """Whether a present tense says a habit ("I attend a class every Thursday"), not a time
    ahead ("I attend the conference next week"). ``scheduled``: only by when it recurs ("I am
    playing chess in a club every Tuesday"), as a progressive is otherwise one occasion ("I'm
    always playing the bad guy", "playing the piano for each guest tonight")."""
    words = _SCHEDULE_WORDS if scheduled else _HABIT_WORDS
    return any(w in words for t in verb.subtree for w in t.lower_.split())


#: What a message asks for, never a thing one has or does: "any tips for ...", "ideas?".
ASKED_FOR = frozenset({"tip", "advice", "idea", "suggestion", "recommendation", "pointer",
                       "thought", "hint", "help", "feedback", "rec"})
#: Nouns that name a job: "quit my job", "a placement at the BBC", "accepted the offer".
JOB_NOUNS = frozenset({"job", "position", "role", "internship", "gig", "career", "post",
                       "offer", "placement", "apprenticeship", "traineeship"})
#: Fields of study, as "a computer science student" names them.
SUBJECTS = frozenset({
    "computer science", "science", "history", "law", "medicine", "maths", "math",
    "mathematics", "physics", "chemistry", "biology", "engineering", "economics", "psychology",
    "philosophy", "english", "literature", "art", "music", "nursing", "architecture",
    "business", "marketing", "design", "geography", "politics", "sociology", "languages",
    "linguistics", "accounting", "finance", "dentistry", "pharmacy", "veterinary", "film",
    "journalism", "drama", "education", "statistics", "data science", "software engineering",
    "mechanical engineering", "civil engineering", "electrical engineering", "anthropology",
    "archaeology", "classics", "theology", "media", "fashion", "graphic design", "biochemistry",
    "neuroscience", "astrophysics", "geology", "midwifery", "physiotherapy", "criminology",
    "international relations", "computing", "it", "cs", "pe", "sports science", "social work",
    "agriculture", "game design", "cybersecurity", "comp sci", "vet", "physio",
    "marine biology", "nursing"})
#: Words of a message about a job: being let go or moving on ends one there.
_WORK_TALK = re.compile(r"\b(?:job|jobs|work|boss|company|firm|employer|manager|redundan\w*|"
                        r"contract\w*|freelanc\w*|office|shifts?|layoffs?|restructur\w*|"
                        r"colleagues?|career|last\s+day|notice|resign\w*|hired|poached|"
                        r"laid\s+off)\b",
                        re.IGNORECASE)


def talks_of_work(message: str) -> bool:
    """Whether ``message`` speaks of a job ("the company let me go", "my boss...")."""
    return _WORK_TALK.search(message) is not None


def studies_or_works(place: Token, titles: list[Token]) -> str:
    """Whether being at ``place`` (as ``titles``) is study or work: "I'm at Leeds University
    now", "started at the University of Porto" is a student's school, unless a title says it
    is a job there ("at Leeds University as a lecturer"); and any place one is at as a
    student ("started at Stanford as a freshman")."""
    if titles and all(is_student_role(t, place) for t in titles):
        return "STUDIES_AT"
    return "STUDIES_AT" if is_school(place) and not titles else "WORKS_AT"


def job_titles(titles: list[Token], places: list[Token]) -> list[Token]:
    """The titles that are jobs: "as a freshman" is a student's year, not a title."""
    if not places:
        return [t for t in titles if not is_student_role(t)]
    return [t for t in titles if not any(is_student_role(t, p) for p in places)]


#: Last words that make a name a company's: "Brightline Health", "Redwing Aerospace".
_COMPANY_WORDS = frozenset({
    "inc", "inc.", "ltd", "llc", "gmbh", "corp", "corporation", "co", "company", "labs", "lab",
    "health", "analytics", "systems", "capital", "consulting", "technologies", "technology",
    "tech", "games", "media", "studios", "studio", "bank", "group", "partners", "software",
    "solutions", "aerospace", "robotics", "energy", "bio", "biotech", "payments", "cloud",
    "cloudworks", "logistics", "dynamics", "industries", "holdings", "ventures", "digital",
    "networks", "pharma", "pharmaceuticals", "insurance", "financial", "motors", "airlines",
    "foods", "entertainment", "interactive", "security", "data", "ai", "works", "clinic",
    "hospital", "bakery", "agency", "forge"})


def is_company(token: Token) -> bool:
    """Whether a capitalised name is a company's by its last word ("Blue Harbor Analytics")."""
    return is_company_name(token.text)


def is_company_name(name: str) -> bool:
    """:func:`is_company` of a name's text, also when the parser left its words apart."""
    words = name.split()
    return len(words) > 1 and name[:1].isupper() and words[-1].lower() in _COMPANY_WORDS


def taken_up(verb: Token) -> set[int]:
    """Where the objects of an exchange are: "dropped Java for Go", "ditched my iPhone for a
    Pixel": what comes after "for"/"with" is taken up, not given up (token indices)."""
    return {t.i for t in pobjs(verb, ("for", "with"))} | {
        x.i for o in dobjs(verb) for x in pobjs(o, ("for",))}


#: Capitalised words a name pattern may run into that are no part of a name.
NOT_NAMES = frozenset({"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                       "Sunday", "Maybe", "Later", "Back", "Tomorrow", "Tonight", "Today", "I",
                       "Sorry", "So", "Just", "Not", "Here", "Sure", "Glad", "Happy", "Excited",
                       "Ok", "Okay", "The", "A", "An", "Really"})


def clean_name(raw: str) -> str | None:
    """A name matched by a pattern, without the words after it that are no name
    ("Maya Tomorrow" -> "Maya")."""
    words = []
    for w in raw.split():
        if w in NOT_NAMES:
            break
        words.append(w.strip("'\u2019"))
    name = " ".join(words)
    return name or None


#: Conditions people live with, as they are said (lower case).
CONDITIONS = frozenset({
    "asthma", "diabetes", "type 1 diabetes", "type 2 diabetes", "arthritis",
    "rheumatoid arthritis", "osteoarthritis", "migraines", "migraine", "epilepsy", "adhd",
    "add", "autism", "dyslexia", "depression", "anxiety", "ocd", "ptsd", "bipolar disorder",
    "coeliac disease", "celiac disease", "crohn's disease", "crohn's", "ibs", "colitis",
    "eczema", "psoriasis", "hypertension", "high blood pressure", "high cholesterol",
    "hypothyroidism", "hyperthyroidism", "lupus", "multiple sclerosis", "ms", "long covid",
    "chronic fatigue syndrome", "fibromyalgia", "sleep apnea", "sleep apnoea", "insomnia",
    "tinnitus", "glaucoma", "endometriosis", "pcos", "gout", "copd", "cancer",
    "breast cancer", "heart disease", "a heart condition", "scoliosis", "sciatica",
    "a bad back", "back pain", "chronic pain", "anemia", "anaemia", "hay fever",
})


def condition_name(name: str | None) -> str | None:
    """The condition a noun phrase names, as typed ("ADHD"), or None: "type 2 diabetes",
    "my migraines"."""
    if not name:
        return None
    typed = name.strip()
    bare = re.sub(r"^(?:my|a|an|the|some|bad|severe|mild)\s+", "", typed, flags=re.IGNORECASE)
    for candidate in (typed, bare):
        if candidate.lower() in CONDITIONS:
            return candidate if candidate.isupper() else candidate.lower()  # "ADHD" as typed
    return None
