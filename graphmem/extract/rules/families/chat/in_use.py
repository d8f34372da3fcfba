"""The value in use of a slot that holds one at a time (a sport, a diet, a phone, a car, a
programming language), in chat shorthand: "Most of my code is in C#", "it's OCaml for me
now", "Handball is how I keep fit", "traded lacrosse for surfing", "Brazilian jiu-jitsu
instead of handball these days"; or a value left ("no more rowing for me", "No more Perl for
me", "I barely touch Kotlin anymore", "hung up my boxing gloves"). The value's own words tell
its slot (:func:`graphmem.extract.rules.slots.value_slot`)."""

from __future__ import annotations

import re

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.parties import Party
from graphmem.extract.rules.slots import SLOT_TYPES, is_language, model_name, value_slot

#: Slots one value can be said to take the place of another in.
_EXCHANGED = frozenset({"PLAYS_SPORT", "DIET", "HAS_PHONE", "DRIVES", "MAIN_LANGUAGE"})
#: "a junior developer at an agency, mostly PHP and WordPress", "I work at X and mostly code
#: in Java": the language worked in.
_MOSTLY = re.compile(r"(?:,|^|\b(?i:and|but))\s*(?i:mostly|mainly|primarily)\s+(?i:writing\s+|"
                     r"(?:coding|code|program|programming)\s+in\s+|in\s+)?([A-Z][\w#+]*)(?=\s*(?:$|[,.;!]|and\b|all\s+day|now\b|these\s+days"
                     r"|at\s+work|on\s+the\b))")
#: "Most of my code is in C#", "nearly all the code I write is Dart", "99% of what I write is
#: Perl" (a share of half or more): the main language.
_MOST_CODE = re.compile(r"(?:\b(?i:most|all|nearly\s+all|almost\s+all|the\s+bulk|the\s+majority"
                        r"|everything|pretty\s+much\s+all)|(?<![\d.])(?:[5-9]\d|100)(?:\s*%|\s+(?i:percent)\b))"
                        r"\s+(?i:of\s+)?(?i:my|the|our|what\s+i)\s+(?i:code"
                        r"|coding|programming|work|projects|write)(?:\s+(?i:i|we)\s+(?i:write|do|ship))?(?:\s+"
                        r"(?i:these\s+days|now|nowadays))?\s+(?i:is|'s|are)\s+(?:(?i:in|written\s+in"
                        r"|done\s+in)\s+)?"
                        r"([A-Z][\w#+]*)")
#: "i do most of my coding in OCaml": the main language.
_CODING_IN = re.compile(r"\b(?i:do|write)\s+(?i:most|all|nearly\s+all|almost\s+all|the\s+bulk)\s+"
                        r"(?i:of\s+)?(?i:my)\s+(?i:coding|programming|code|work)\s+(?i:in)\s+"
                        r"([A-Z][\w#+]*)")
#: "no more rowing for me", "not plant-based anymore": a sport or diet said to be over.
_NO_MORE = re.compile(r"(?:\b(?i:no\s+more)|(?:^|[,.;!]\s*|\bso\s+)(?i:not))\s+([a-z][a-z-]*(?:\s[a-z-]+)?)"
                      r"\s+(?i:for\s+me|anymore|any\s+more)\b")
#: "No more Perl for me", "not Scala anymore": a language said to be over.
_NO_MORE_TECH = re.compile(r"\b(?i:no\s+more|not)\s+([A-Z][\w+#.-]*)\s+(?i:for\s+me|anymore|"
                           r"any\s+more)\b")
#: "I don't code at all these days", "I no longer program": no language now.
_NO_CODING = re.compile(r"\b(?i:i\s+(?:don't|do\s+not|dont|no\s+longer)\s+(?:code|program)"
                        r"(?:\s+at\s+all)?\s+(?:these\s+days|anymore|any\s+more|now|nowadays)|"
                        r"i\s+no\s+longer\s+(?:code|program))\b")
#: "Switched it up: Brazilian jiu-jitsu instead of handball these days", "pixel 7a now instead
#: of the oneplus 11", "Berlin now instead of Seoul": a value in place of another, said without
#: a verb (at the start, or after a heading).
_INSTEAD_OF = re.compile(r"(?:^|:\s+)((?:[\w-]+\s+){0,2}?[\w-]+)(?:\s+(?i:now|these\s+days|nowadays))?"
                         r"\s+(?i:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:(?i:the|my|an?)\s+)?"
                         r"((?:[\w-]+\s+){0,2}?[\w-]+)(?=\s+(?i:these\s+days|now|nowadays)\b|"
                         r"\s*[.,!;]|\s*$|\s+[^\w\s])")
#: "Handball is how I keep fit", "water polo is how I stay active": the sport.
_KEEP_FIT = re.compile(r"(?:^|[,:;]\s*)([\w-]+(?:\s[\w-]+){0,2}?)\s+is\s+how\s+i\s+(?i:keep|stay)\s+"
                       r"(?i:fit|active|in\s+shape|sane)\b", re.IGNORECASE)
#: "I try to keep everything vegan", "I keep my meals dairy-free": the diet.
_KEEP_EVERYTHING = re.compile(r"\b(?i:keep)\s+(?i:everything|it\s+all|my\s+meals|my\s+food|my\s+"
                              r"eating)\s+([\w-]+)\b")
#: "Weekends are for badminton (and the pub afterwards)": the sport.
_WEEKENDS = re.compile(r"\b(?i:weekends|evenings|mornings)\s+(?i:are)\s+(?i:for|all\s+about)\s+"
                       r"([\w-]+(?:\s[\w-]+){0,2}?)(?=\s*(?:[(.,;!]|$|\s+and\b))")
#: "it's OCaml for me now": a value said to be the one now.
_FOR_ME_NOW = re.compile(r"\b(?i:it's|it\s+is)\s+(?:(?i:all)\s+)?([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+"
                         r"(?i:for\s+me\s+now|for\s+me\s+these\s+days|from\s+now\s+on)\b")
#: "Elixir is what I reach for now", "Pixel 8 is my main one now", "Rust is my go-to these
#: days", "kotlin is what i use for basically everything", "fencing is what I do now": a value
#: said to be the one in use (its slot told by the value).
_GO_TO = re.compile(r"(?:^\W*(?:(?i:honestly|tbh|ngl|so|ok|okay|well|yeah|lately)\W+)?"
                    r"|[,:;\u2013\u2014]\s*|\s-\s+|\b(?i:and|but|so)\s+)"
                    r"([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+(?i:is|'s)\s+"
                    r"(?i:what\s+i\s+(?:reach\s+for|use|go\s+with|default\s+to|code\s+in|write"
                    r"|do|play|eat|drive|carry)"
                    r"|my\s+(?:go-to|main(?:\s+(?:one|language))?|daily\s+driver|default))"
                    r"(?=\s*(?:$|[.,;!?]|\s+"
                    r"(?i:now|these\s+days|nowadays|anyway|for\s+(?:basically\s+|almost\s+|nearly\s+"
                    r"|pretty\s+much\s+)?(?:everything|all\s+of\s+it))\b))")
#: "it's all Perl now", "I barely touch Kotlin anymore, it's all Perl": the value in use.
_ALL_OF_IT = re.compile(r"\b(?i:it's|it\s+is)\s+(?i:all)\s+([A-Z][\w#+-]*(?:\s[A-Z0-9][\w#+-]*)?)"
                        r"(?=\s*(?:$|[.,;!?]|\s+(?i:now|these\s+days|nowadays)\b))")
#: "I barely touch Kotlin anymore", "hardly play squash any more": a value left behind.
_HARDLY = re.compile(r"\b(?i:barely|hardly|rarely|never)\s+(?i:touch|use|write|play|do|eat)\s+"
                     r"([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+(?i:anymore|any\s+more|these\s+days|nowadays)\b")
#: "traded lacrosse for surfing this season", "swapped my Pixel 7 for an iPhone 15": one value
#: for another of the same slot.
_TRADED = re.compile(r"\b(?i:traded|swapped|exchanged|switched)\s+(?:(?i:my|the)\s+)?"
                     r"([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+(?:(?i:in)\s+)?(?i:for)\s+"
                     r"(?:(?i:an?|the|some)\s+)?([\w#+-]+(?:\s[\w#+-]+){0,2}?)"
                     r"(?=\s*(?:$|[.,;!?(]|\s+(?i:this|these|now|last|instead|recently)\b))")
#: "carrying a Zenfone 10 these days", "rocking a Pixel 8 now": the phone in use.
_CARRYING = re.compile(r"(?:^\W*|\b(?i:i'm|i\s+am|been|now)\s+)(?i:carrying|rocking|sporting)\s+"
                       r"(?:(?i:an?|the|my)\s+)?([A-Z][\w+-]*(?:\s[A-Z0-9][\w+-]*){0,2})"
                       r"(?=\s*(?:$|[.,;!?]|\s+(?i:now|these\s+days|nowadays|lately)\b))")
#: "no volleyball since moving", "no tennis since the surgery": a sport (or diet) ended.
_NO_VALUE = re.compile(r"(?:^|[.!?,;:]\s*|\b(?i:and|but|so)\s+)(?i:no|zero)\s+([\w-]+(?:\s[\w-]+)?)\s+"
                       r"(?i:since|anymore|any\s+more|for\s+(?:months|weeks|years|ages|a\s+while))\b")
#: "3 months fully vegetarian now", "two years vegan next month": a diet kept for a while.
_KEPT_FOR = re.compile(r"(?:^|[.!?:]\s+|\b(?i:update|so|and)\W+)(?i:\d+|one|two|three|four|five|six|a)"
                       r"\s+(?i:days?|weeks?|months?|years?)\s+(?i:(?:fully|completely|strictly|"
                       r"totally|officially)\s+)?([\w-]+)(?=\s+(?i:now|today|next\s+\w+|as\s+of)\b"
                       r"|\s*[!.\U0001F300-\U0001FAFF]|\s*$)")
#: "hung up my tennis gear for good", "hung up my boxing gloves": a sport ended (done, not
#: planned: "I'll hang up my racket next year" is no end yet).
_HUNG_UP = re.compile(r"\b(?i:hung)\s+up\s+(?i:my|the)\s+([\w-]+(?:\s[\w-]+)?)\s+"
                      r"(?i:gear|kit|boots|shoes|racket|racquet|gloves|clubs|skates|board|bike)\b")


def in_use_facts(text: str, me: Party, towns: frozenset[str] = frozenset()) -> list[Finding]:
    """The values the text says the speaker took up or left, where the value tells its slot
    (or, for a home, is one of ``towns``, lower case)."""
    return _languages(text, me) + _by_value(text, me) + _exchanged(text, me, towns)


def _languages(text: str, me: Party) -> list[Finding]:
    """"Most of my code is in C#", "i do most of my coding in OCaml", "No more Perl for me",
    "I don't code at all these days": the main language, or none."""
    out = [f for m in _NO_MORE_TECH.finditer(text) if is_language(m.group(1), said=True)
           for f in (Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", "retract"),
                     Finding(me, "USES", m.group(1), "technology", "retract"))]
    if _NO_CODING.search(text):
        out.append(Finding(me, "MAIN_LANGUAGE", "", "technology", "retract"))
    out += [Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", confidence=0.75)
            for m in [*_MOSTLY.finditer(text), *_MOST_CODE.finditer(text)]
            if is_language(m.group(1), said=True)]
    out += [Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", confidence=0.8)
            for m in _CODING_IN.finditer(text) if is_language(m.group(1), said=True)]
    return out


def _by_value(text: str, me: Party) -> list[Finding]:
    """A sport or a diet taken up or left, in shapes only those two are said in."""
    out = [Finding(me, slot, m.group(1).lower(), SLOT_TYPES[slot], "retract")
           for m in _NO_MORE.finditer(text)
           if (slot := value_slot(m.group(1)) or "") in ("PLAYS_SPORT", "DIET")]
    out += [Finding(me, "PLAYS_SPORT", v, "activity", confidence=0.8)
            for m in [*_KEEP_FIT.finditer(text), *_WEEKENDS.finditer(text)]
            if value_slot(v := m.group(1).lower()) == "PLAYS_SPORT"]
    out += [Finding(me, "DIET", v, "diet", confidence=0.8)
            for m in [*_KEEP_EVERYTHING.finditer(text), *_KEPT_FOR.finditer(text)]
            if value_slot(v := m.group(1).lower()) == "DIET"]
    out += [Finding(me, slot, v, SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _NO_VALUE.finditer(text)
            if (slot := value_slot(v := m.group(1).lower()) or "") in ("PLAYS_SPORT", "DIET")]
    out += [Finding(me, "PLAYS_SPORT", v, "activity", "retract", confidence=0.8)
            for m in _HUNG_UP.finditer(text) if value_slot(v := m.group(1).lower()) == "PLAYS_SPORT"]
    return out


def _exchanged(text: str, me: Party, towns: frozenset[str]) -> list[Finding]:
    """"it's OCaml for me now", "Elixir is what I reach for now", "it's all Perl", "barely
    touch Kotlin anymore", "traded lacrosse for surfing", "X instead of Y", "carrying a
    Zenfone 10 these days": the value in use, or left behind, where the value itself tells the
    slot."""
    out = []
    for m in _INSTEAD_OF.finditer(text):
        taken, left = m.group(1), m.group(2)
        slot = value_slot(taken) or ""
        if taken.lower() in towns and left.lower() in towns:
            slot = "LIVES_IN"  # "Berlin now instead of Seoul"
        if slot in {*_EXCHANGED, "LIVES_IN"} and (value_slot(left) == slot or slot == "LIVES_IN"):
            out += [Finding(me, slot, taken, SLOT_TYPES[slot], confidence=0.8),
                    Finding(me, slot, left, SLOT_TYPES[slot], "retract", confidence=0.8)]
    for m in [*_FOR_ME_NOW.finditer(text), *_GO_TO.finditer(text), *_ALL_OF_IT.finditer(text)]:
        if slot := exchanged_slot(m.group(1)):
            out.append(Finding(me, slot, m.group(1), SLOT_TYPES[slot], confidence=0.8))
    out += [Finding(me, slot, m.group(1), SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _HARDLY.finditer(text) if (slot := exchanged_slot(m.group(1)))]
    for m in _TRADED.finditer(text):
        left, taken = model_name(m.group(1)), model_name(m.group(2))
        if (slot := exchanged_slot(taken)) and exchanged_slot(left) == slot:
            out += [Finding(me, slot, taken, SLOT_TYPES[slot], confidence=0.8),
                    Finding(me, slot, left, SLOT_TYPES[slot], "retract", confidence=0.8)]
    out += [Finding(me, "HAS_PHONE", m.group(1), SLOT_TYPES["HAS_PHONE"], confidence=0.8)
            for m in _CARRYING.finditer(text) if value_slot(m.group(1)) == "HAS_PHONE"]
    return out


def exchanged_slot(value: str) -> str:
    """The slot holding one value at a time that ``value`` names (a sport, a diet, a phone, a
    car, a language), or ""."""
    slot = value_slot(value) or ("MAIN_LANGUAGE" if is_language(value, said=True) else "")
    return slot if slot in _EXCHANGED else ""


PATTERNS: tuple[re.Pattern[str], ...] = (_NO_MORE, _MOST_CODE, _INSTEAD_OF, _KEEP_FIT,
                                         _KEEP_EVERYTHING, _CODING_IN, _FOR_ME_NOW, _WEEKENDS,
                                         _GO_TO, _ALL_OF_IT, _HARDLY, _TRADED, _CARRYING,
                                         _KEPT_FOR, _NO_VALUE, _HUNG_UP)
