"""Slots said in chat shorthand, read off the text before any parse.

"New phone: a Pixel 8", "Got a new manager this month: Yuki Tanaka", "My manager's name is
Teodora", "no more rowing for me", "no sport for me these days", "Most of my code is in C#",
"they made me head of data", "seeing someone new, his name is Karim", "got a hamster! his
name is Churro": people write these without the verb or in a shape the small parser splits
badly, so regular expressions read them. Only first-person messages are read: the speaker
is the one they are about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule
from graphmem.extract.rules.lexicon import OCCUPATIONS, clean_name
from graphmem.extract.rules.parties import PETS, Party, Speech
from graphmem.extract.rules.slots import (SLOT_NOUNS, SLOT_TYPES, is_language, model_name,
                                          value_slot)

if TYPE_CHECKING:
    from spacy.tokens import Span

#: A person's name: capitalised words, with the particles of family names ("Anneke de Vries").
_NAME = (r"([A-Z][\w'\u2019-]*(?:\s+(?:(?:de|van|von|da|di|del|der|den|le|la|al|bin|ter)\s+)?"
         r"[A-Z][\w'\u2019-]*){0,3})")
#: "they made me head of data", "they appointed me team lead": a title given.
_MADE_ME = re.compile(r"\b(?i:made|named|appointed|make)\s+(?i:me)\s+(?:(?i:the|a|an)\s+)?"
                      r"([a-z][a-z-]*(?:\s+(?:of\s+)?[a-z][a-z-]*){0,3}?)(?=\s*(?:[!.,;]|$|\s+at\b|"
                      r"\s+(?:now|today|last|this)\b))")
#: "a junior developer at an agency, mostly PHP and WordPress", "I work at X and mostly code
#: in Java": the language worked in.
_MOSTLY = re.compile(r"(?:,|^|\b(?i:and|but))\s*(?i:mostly|mainly|primarily)\s+(?i:writing\s+|"
                     r"(?:coding|code|program|programming)\s+in\s+|in\s+)?([A-Z][\w#+]*)(?=\s*(?:$|[,.;!]|and\b|all\s+day|now\b|these\s+days"
                     r"|at\s+work|on\s+the\b))")
#: "officially a data scientist now": a title said without a verb.
_TITLE_NOW = re.compile(r"^\s*(?i:officially|finally|now)\s+(?i:an?|the)\s+([a-z][a-z -]{2,40}?)"
                        r"\s+(?i:now|as\s+of\s+today)\b")
#: "..., still nursing tho", "still a nurse": a title kept, said as a fragment.
_STILL = re.compile(r"(?:^|[,;]\s*|\b(?i:but|and)\s+)(?i:still)\s+(?:(?i:an?)\s+)?([a-z][a-z-]+)"
                    r"(?=\s*(?:[!.,;]|$|\s+(?i:tho|though|too|there|at|for|full[- ]time|part[- ]time)\b))")
#: Trades said by their work: "still nursing" is still a nurse (not "still driving", "still
#: coding": those are as often a car or a hobby).
_TRADES = MappingProxyType({
    "nursing": "nurse", "teaching": "teacher", "lecturing": "lecturer", "tutoring": "tutor",
    "waitressing": "waitress", "waitering": "waiter", "freelancing": "freelancer",
    "consulting": "consultant", "plumbing": "plumber", "cheffing": "chef"})
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
#: "so no boss at all", "no sports for a while", "no car anymore": a slot left empty.
#: What "no ..." can leave empty: a slot's noun, or the doing it names ("no coding for me").
_EMPTIED = MappingProxyType({**SLOT_NOUNS, "coding": "MAIN_LANGUAGE",
                             "programming": "MAIN_LANGUAGE"})
#: A slot's noun under "no": "no car", "no main language", "no coding".
_NO_NOUN = (r"(?i:no)\s+(?:(?i:main|primary|current|fixed|regular|special|particular)\s+)?(?i:("
            + "|".join(sorted(_EMPTIED, key=len, reverse=True)) + r"))")
#: "no car for now", "no coding for me anymore", "no programming language to speak of now":
#: a slot empty for a while.
_NO_SLOT = re.compile(r"\b" + _NO_NOUN + r"(?i:e?s)?(?:\s+(?i:for\s+(?:me|us)|to\s+speak\s+of))?\s+"
                      r"(?i:at\s+all|anymore|any\s+more"
                      r"|for\s+now|for\s+a\s+while|right\s+now|these\s+days|at\s+the\s+moment"
                      r"|now|rn|atm)\b")
#: Time words after a labelled value: "Changed my diet - pescatarian from now on".
_UNTIL_FURTHER = re.compile(r"\s+(?i:from\s+now\s+on|for\s+now|now|these\s+days|as\s+of\s+today)$")
#: "My manager's name is Teodora", "my new boss is called Sam": a person's slot, named.
_SLOT_NAMED = re.compile(r"\b(?i:my|our)\s+(?:(?i:new|current)\s+)?(?i:(line\s+manager|manager|"
                         r"boss|supervisor|team\s+lead|partner|girlfriend|boyfriend|wife|"
                         r"husband))(?:'s\s+(?i:name)(?:\s+is|'s)|\s+(?i:is\s+called|is\s+named|"
                         r"goes\s+by)|\s+(?i:(?:has\s+)?changed)\s*[,;:\u2013\u2014-]+\s*"
                         r"(?i:it's|it\s+is|now\s+it's))\s+" + _NAME)
#: Slots one value can be said to take the place of another in.
_EXCHANGED = frozenset({"PLAYS_SPORT", "DIET", "HAS_PHONE", "DRIVES", "MAIN_LANGUAGE"})
#: The partner a word names (a partner's slot is one, whatever they are called).
_PARTNERS = frozenset({"partner", "girlfriend", "boyfriend", "wife", "husband"})
#: "Most of my code is in C#", "nearly all the code I write is Dart", "99% of what I write is
#: Perl" (a share of half or more): the main language.
_MOST_CODE = re.compile(r"(?:\b(?i:most|all|nearly\s+all|almost\s+all|the\s+bulk|the\s+majority"
                        r"|everything|pretty\s+much\s+all)|(?<![\d.])(?:[5-9]\d|100)(?:\s*%|\s+(?i:percent)\b))"
                        r"\s+(?i:of\s+)?(?i:my|the|our|what\s+i)\s+(?i:code"
                        r"|coding|programming|work|projects|write)(?:\s+(?i:i|we)\s+(?i:write|do|ship))?(?:\s+"
                        r"(?i:these\s+days|now|nowadays))?\s+(?i:is|'s|are)\s+(?:(?i:in|written\s+in"
                        r"|done\s+in)\s+)?"
                        r"([A-Z][\w#+]*)")
#: "Switched it up: Brazilian jiu-jitsu instead of handball these days": a value in place of
#: another, said without a verb (at the start, or after a heading).
_INSTEAD_OF = re.compile(r"(?:^|:\s+)((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?i:instead\s+of|rather\s+than|"
                         r"in\s+place\s+of)\s+((?:[\w-]+\s+){0,2}?[\w-]+)(?=\s+(?i:these\s+days|"
                         r"now|nowadays)\b|\s*[.,!;]|\s*$)")
#: "Handball is how I keep fit", "water polo is how I stay active": the sport.
_KEEP_FIT = re.compile(r"(?:^|[,:;]\s*)([\w-]+(?:\s[\w-]+){0,2}?)\s+is\s+how\s+i\s+(?i:keep|stay)\s+"
                       r"(?i:fit|active|in\s+shape|sane)\b", re.IGNORECASE)
#: "I try to keep everything vegan", "I keep my meals dairy-free": the diet.
_KEEP_EVERYTHING = re.compile(r"\b(?i:keep)\s+(?i:everything|it\s+all|my\s+meals|my\s+food|my\s+"
                              r"eating)\s+([\w-]+)\b")
#: "i do most of my coding in OCaml": the main language.
_CODING_IN = re.compile(r"\b(?i:do|write)\s+(?i:most|all|nearly\s+all|almost\s+all|the\s+bulk)\s+"
                        r"(?i:of\s+)?(?i:my)\s+(?i:coding|programming|code|work)\s+(?i:in)\s+"
                        r"([A-Z][\w#+]*)")
#: "Copenhagen is where I live now", "Kraków is where I call home": home.
_WHERE_I_LIVE = re.compile(r"(?:^|[,:;]\s*)([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})"
                           r"\s+is\s+(?i:where\s+i\s+(?:live|am\s+based|call\s+home|"
                           r"settled)|home\s+now)\b")
#: "been a Zurich resident for 2 years", "i'm a Lisbon resident now", "i'm Edinburgh-based":
#: home, said of the speaker now (not "I was a Paris resident").
_RESIDENT = re.compile(r"(?:\b(?i:i'm|i\s+am|i've\s+been|i\s+have\s+been)|(?:^|[,;:!?]\s*)"
                       r"(?i:been|now|still))\s+(?:(?i:a|an)\s+)?"
                       r"(?:(?i:proud|happy|new|full-time|permanent)\s+)?"
                       r"([A-Z][\w\u00C0-\u017F'-]*?(?:\s[A-Z][\w\u00C0-\u017F'-]*?){0,2})"
                       r"(?:\s+(?i:resident|local)\b|-based\b)")
#: "new city, new me: I'm in Zurich now", "New town: we're living in Leeds": a new home named as
#: such, then where the speaker is ("I'm in Zurich" alone may be a trip).
_NEW_HOME = re.compile(r"^\W*(?:[\w']+\W+){0,3}?(?i:new)\s+(?i:city|town|home|place|country)\b"
                       r"[^:\u2013\u2014]*[:\u2013\u2014]\s*(?i:i'm|i\s+am|we're|we\s+are)\s+"
                       r"(?i:(?:now\s+)?(?:living\s+|based\s+)?in)\s+"
                       r"([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})")
#: "new flat in Wroclaw!! finally moved": a new home announced by where it is.
_NEW_FLAT = re.compile(r"^\W*(?:(?i:my|our)\s+)?(?i:new)\s+(?i:flat|apartment|house|place|home)\s+"
                       r"(?i:in)\s+([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})"
                       r"(?=\s*(?:[!.,;:]|$))")
#: "just signed with Mercado Libre, first day was today": an employer, when the message says
#: the job began.
_SIGNED_WITH = re.compile(r"(?:^\W*|\b(?i:i|i've|i\s+have)\s+)(?:(?i:just|finally|officially)\s+)?"
                          r"(?i:signed)\s+(?i:on\s+)?(?i:with)\s+" + _NAME)
_JOB_BEGUN = re.compile(r"\b(?:first\s+(?:day|week)|badge|onboard\w*|started\s+today|"
                        r"start(?:ing)?\s+(?:on\s+|in\s+|next\s+)?(?:monday|january|february|"
                        r"march|april|may|june|july|august|september|october|november|december"
                        r"|week|month))\b", re.IGNORECASE)
#: What a slot's label may be followed by before its value: "new city: I live in Montreal now".
_SAID_IN = re.compile(r"^(?i:(?:i'm|i\s+am|we're|we\s+are)\s+(?:now\s+)?(?:living\s+|based\s+)?in"
                      r"|(?:i|we)\s+(?:now\s+)?live\s+in)\s+")
#: "Currently phoneless", "between jobs", "our team is leaderless": a slot left empty.
_WITHOUT = re.compile(r"(?:^\s*(?i:currently|now|still)?\s*|\b(?i:i'm|i\s+am|we're|we\s+are|our\s+team"
                      r"\s+is)\s+(?:(?i:currently|now|still|officially)\s+)?)(?i:(phoneless|carless|"
                      r"phone-free|car-free|not\s+on\s+any\s+diet|"
                      r"between\s+jobs|leaderless|managerless|boss-less|bossless|out\s+of\s+work|"
                      r"on\s+a\s+career\s+break|not\s+employed|manager-free|boss-free))\b")
_EMPTY_SLOTS = MappingProxyType({"phoneless": "HAS_PHONE", "carless": "DRIVES",
                                 "not on any diet": "DIET",
                                 "phone-free": "HAS_PHONE", "car-free": "DRIVES",
                                 "leaderless": "REPORTS_TO", "managerless": "REPORTS_TO",
                                 "boss-less": "REPORTS_TO", "bossless": "REPORTS_TO",
                                 "manager-free": "REPORTS_TO", "boss-free": "REPORTS_TO"})
#: "Infosys and I parted ways", "parted ways with Globex": the job ends; "Cian and I called
#: it quits", "Ana and I went our separate ways": the couple (without a word of work).
_PARTED = re.compile(r"(?:([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3})\s+and\s+(?i:i)\s+"
                     r"(?:(?i:have|'ve)\s+)?(?i:parted\s+ways|called\s+it\s+quits|went\s+our\s+"
                     r"separate\s+ways)"
                     r"|(?i:parted\s+ways\s+with)\s+([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3}))")
#: "Weekends are for badminton (and the pub afterwards)": the sport.
_WEEKENDS = re.compile(r"\b(?i:weekends|evenings|mornings)\s+(?i:are)\s+(?i:for|all\s+about)\s+"
                       r"([\w-]+(?:\s[\w-]+){0,2}?)(?=\s*(?:[(.,;!]|$|\s+and\b))")
#: "Currently managed by Grace Kim", "The person I report to is Anneke de Vries".
_MANAGED_BY = re.compile(r"(?:^\s*(?i:i\s+)?(?i:currently\s+|now\s+)?|\b(?i:i'm|i\s+am)\s+(?:(?i:currently|now)\s+)?)"
                         r"(?i:managed\s+by)\s+" + _NAME + r"|\b(?i:the\s+(?:person|one)\s+i\s+"
                         r"(?:report|answer)\s+to\s+is)\s+" + _NAME)
#: "I'm currently without a line manager", "i'm going without a car for now": a slot left empty.
_WITHOUT_SLOT = re.compile(r"\b(?i:i'm|i\s+am)\s+(?:(?i:currently|now|still)\s+)?"
                           r"(?:(?i:going|managing|living|getting\s+by)\s+)?(?i:without)\s+"
                           r"(?:(?i:a|an|any)\s+)?(?i:(line\s+manager|manager|boss|phone|car|job))\b")
#: Words that say a message is about a job.
_JOB_TALK = re.compile(r"\b(?:job|employ|work|company|employer|career|hired|redundan|laid\s+off"
                       r"|contract|boss|team)\w*", re.IGNORECASE)
#: "it's OCaml for me now": a value said to be the one now.
_FOR_ME_NOW = re.compile(r"\b(?i:it's|it\s+is)\s+(?:(?i:all)\s+)?([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+"
                         r"(?i:for\s+me\s+now|for\s+me\s+these\s+days|from\s+now\s+on)\b")
#: A pet just got, named in the same message: "got a hamster! his name is Churro",
#: "adopted a rescue cat yesterday, we named her Miso".
_NEW_PET = re.compile(r"(?:^|[.!?]\s+|\b(?i:i|we|i've|we've)\s+)(?i:just\s+)?"
                      r"(?i:got|adopted|rescued|brought\s+home|bought)\s+(?i:a|an|our|my)\s+"
                      r"(?:[\w-]+\s+){0,2}?(?i:(" + "|".join(sorted(PETS)) + r"))\b")
_PET_NAME = re.compile(r"\b(?i:(?:his|her|its)\s+name(?:'s|\s+is)|(?:we|i)\s+(?:named|called)"
                       r"\s+(?:him|her|it)|(?<=\s)named)\s+([A-Z][\w'-]+)")  # "a greyhound named Luna"
#: The speaker dating someone: "I've been seeing ...", "dating again!", "seeing someone new"
#: (also after an emoticon: "we broke up :( started seeing someone new").
_DATING = re.compile(r"(?:^|[.!?]\s+|[:;][()DP/|]\s+|\b(?i:i'm|i\s+am|i've\s+been|i\s+have\s+been|we're|i(?=\s+"
                     r"(?i:started|began)))\s+)"
                     r"(?i:(?:also|and|plus|oh|so|anyway|btw)\s+)?"  # "Also dating someone new"
                     r"(?i:(?:been\s+|started\s+|begun\s+)?(?:seeing|dating)\b|met\s+someone\b(?=.*\b(?i:together|dating)\b))")
#: Seeing someone for care, not dating: "started seeing a therapist, her name is Dr Lee".
_SEEING_CARE = re.compile(r"\bseeing\s+(?:a|an|my|the)\s+(?:new\s+)?(?:therapist|counsell?or|"
                          r"doctor|dr|physio\w*|psycholog\w+|psychiatrist|specialist|dentist|"
                          r"nutritionist|dietitian|consultant|gp|nurse|coach|trainer|tutor)\b",
                          re.IGNORECASE)
#: Who that is: "his name is Karim", "a guy named Jonas".
_DATE_NAME = re.compile(r"\b(?i:(?:his|her|their)\s+name(?:'s|\s+is)|(?:a\s+(?:guy|girl|man|woman|"
                        r"boy|lady|gentleman|fella|bloke|chap|dude)|someone)\s+(?:named|called)"
                        # "been seeing someone new for a few months, Declan"
                        r"|someone(?:\s+new)?(?:\s+(?:for|since)\s+[^,.!?]{1,30})?,)\s+"
                        r"([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
#: "Elixir is what I reach for now", "Pixel 8 is my main one now", "Rust is my go-to these
#: days", "kotlin is what i use for basically everything": a value said to be the one in use
#: (its slot told by the value).
_GO_TO = re.compile(r"(?:^\W*(?:(?i:honestly|tbh|ngl|so|ok|okay|well|yeah|lately)\W+)?"
                    r"|[,:;\u2013\u2014]\s*|\s-\s+|\b(?i:and|but|so)\s+)"
                    r"([\w#+-]+(?:\s[\w#+-]+){0,2}?)\s+(?i:is|'s)\s+"
                    r"(?i:what\s+i\s+(?:reach\s+for|use|go\s+with|default\s+to|code\s+in|write)"
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
#: "My address is in Porto now", "my new flat is in Leith": home.
_ADDRESS = re.compile(r"\b(?i:my|our)\s+(?:(?i:new|current)\s+)?(?i:address|home|flat|apartment)\s+"
                      r"(?i:is)\s+(?:(?i:now)\s+)?(?i:in)\s+"
                      r"([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,3})")
#: "carrying a Zenfone 10 these days", "rocking a Pixel 8 now": the phone in use.
_CARRYING = re.compile(r"(?:^\W*|\b(?i:i'm|i\s+am|been|now)\s+)(?i:carrying|rocking|sporting)\s+"
                       r"(?:(?i:an?|the|my)\s+)?([A-Z][\w+-]*(?:\s[A-Z0-9][\w+-]*){0,2})"
                       r"(?=\s*(?:$|[.,;!?]|\s+(?i:now|these\s+days|nowadays|lately)\b))")
#: "X made me an offer i couldn't refuse so i took it", "accepted an offer from X", "officially
#: an employee of X", "on the payroll at X": the employer now.
_ORG = r"([A-Z][\w&.'-]*(?:\s[A-Z&][\w&.'-]*){0,3})"
_HIRED_BY = re.compile(
    r"\b(?i:accepted|took|signed)\s+(?i:an|the|their)\s+(?:(?i:job)\s+)?(?i:offer)\s+"
    r"(?i:from|at|with)\s+" + _ORG +
    r"|(?:^\W*|\b(?i:i'm|i\s+am|now)\s+)(?:(?i:officially|now|finally)\s+)?(?:(?i:an?)\s+)?"
    r"(?i:employee|staff\s+member)\s+(?i:of|at)\s+" + _ORG +
    # "I'm on the payroll at X now"
    r"|\b(?i:i'm|i\s+am|now|been)\s+(?:(?i:officially|now|finally)\s+)?(?i:on\s+(?:the|their)"
    r"\s+payroll)\s+(?i:at|of|with)\s+" + _ORG)
#: "X made me an offer", taken when the message says so after it ("so i took it").
_OFFERED = re.compile(r"^\W*(?:[\w']+\W+){0,2}?" + _ORG + r"\s+(?i:made|gave|offered)\s+(?i:me)\s+"
                      r"(?i:an?)\s+(?:(?i:job)\s+)?(?i:offer)\b")
_TOOK_IT = re.compile(r"\b(?i:took\s+it|accepted(?:\s+it)?|said\s+yes|signed|already\s+onboarded|"
                      r"i\s+start\s+on)\b")
#: "not under Gunnar anymore", "no longer under Tobias": a manager no longer.
_NOT_UNDER = re.compile(r"\b(?i:not\s+under|no\s+longer\s+under|no\s+longer\s+reporting\s+to|"
                        r"not\s+reporting\s+to)\s+" + _NAME + r"(?=\s+(?i:anymore|any\s+more)\b|"
                        r"\s*[.,;!?]|\s*$)")
#: "so rn i technically have no boss", "I've got no car at the moment": a slot had by no one.
_HAVE_NO = re.compile(r"\b(?i:i|i've|i\s+have)\s+(?:(?i:rn|now|currently|technically|still|"
                      r"basically|officially|actually)\s+){0,3}(?i:have|got)\s+" + _NO_NOUN
                      + r"\b(?!\s+(?:who|that|which|to|for)\b)")
#: "hung up my tennis gear for good", "hung up my boxing gloves": a sport ended (done, not
#: planned: "I'll hang up my racket next year" is no end yet).
#: "no volleyball since moving", "no tennis since the surgery": a sport (or diet) ended.
_NO_VALUE = re.compile(r"(?:^|[.!?,;:]\s*|\b(?i:and|but|so)\s+)(?i:no|zero)\s+([\w-]+(?:\s[\w-]+)?)\s+"
                       r"(?i:since|anymore|any\s+more|for\s+(?:months|weeks|years|ages|a\s+while))\b")
#: "3 months fully vegetarian now", "two years vegan next month": a diet kept for a while.
_KEPT_FOR = re.compile(r"(?:^|[.!?:]\s+|\b(?i:update|so|and)\W+)(?i:\d+|one|two|three|four|five|six|a)"
                       r"\s+(?i:days?|weeks?|months?|years?)\s+(?i:(?:fully|completely|strictly|"
                       r"totally|officially)\s+)?([\w-]+)(?=\s+(?i:now|today|next\s+\w+|as\s+of)\b"
                       r"|\s*[!.\U0001F300-\U0001FAFF]|\s*$)")
_HUNG_UP = re.compile(r"\b(?i:hung)\s+up\s+(?i:my|the)\s+([\w-]+(?:\s[\w-]+)?)\s+"
                      r"(?i:gear|kit|boots|shoes|racket|racquet|gloves|clubs|skates|board|bike)\b")
_SLOT_WORDS = "|".join(sorted(SLOT_NOUNS, key=len, reverse=True))
#: "New phone: a Pixel 8", "new title as of this week: engineering manager", "switched
#: phones: Nothing Phone 2", "new phone, a Nokia X30": a slot named, then its value.
_SLOT_LABEL = re.compile(
    r"^\s*(?i:i\s+)?(?i:(?:(?:my|our)\s+)?(?:(?:new|current)\s+)?|(?:switched|changed)\s+(?:my\s+|our\s+)?"
    r"|(?:i\s+|we\s+)?(?:just\s+)?(?:got|have|there's)\s+a\s+new\s+)"
    r"(?i:(" + _SLOT_WORDS + r"))(?i:s)?(?i:\s+(?:as\s+of\s+)?(?:this|last|today|yesterday)"
    r"[\w ]*?)?"
    r"\s*([:\u2013\u2014,-])\s+(?i:(?:an?|the|my)\s+)?([^,.;!?()]+?)\s*(?:[,.;!?(]|$)")


#: "Switched sports: it's ultimate frisbee for me now": the value without its pointer.
_POINTED = re.compile(r"^(?i:it's|it\s+is|now)\s+|\s+(?i:for\s+me)(?:\s+(?i:now))?$")
_LEAD_IN = re.compile(r"^\W*(?:[\w']+\W+){1,3}?(?=(?i:new)\s+(?i:(?:" + _SLOT_WORDS + r")))")


def chat_facts(sent: Span, speech: Speech) -> list[Finding]:
    """The speaker's slots said in shorthand (see the module docstring)."""
    if not speech.first_person:
        return []
    text = sent.text
    me = speech.me()
    out = _dating(sent, me) + _new_pet(sent, me) + _made_me(text, me) + _still_title(text, me)
    out += [Finding(me, slot, m.group(1).lower(), SLOT_TYPES[slot], "retract")
            for m in _NO_MORE.finditer(text)
            if (slot := value_slot(m.group(1)) or "") in ("PLAYS_SPORT", "DIET")]
    # "No more Perl for me", "I don't code at all these days": the language left
    out += [f for m in _NO_MORE_TECH.finditer(text) if is_language(m.group(1), said=True)
            for f in (Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", "retract"),
                      Finding(me, "USES", m.group(1), "technology", "retract"))]
    if _NO_CODING.search(text):
        out.append(Finding(me, "MAIN_LANGUAGE", "", "technology", "retract"))
    out += [Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", confidence=0.75)
            for m in [*_MOSTLY.finditer(text), *_MOST_CODE.finditer(text)]
            if is_language(m.group(1), said=True)]
    for m in _INSTEAD_OF.finditer(text):
        taken, left = m.group(1), m.group(2)
        slot = value_slot(taken) or ""
        if slot in _EXCHANGED and value_slot(left) == slot:
            out += [Finding(me, slot, taken, SLOT_TYPES[slot], confidence=0.8),
                    Finding(me, slot, left, SLOT_TYPES[slot], "retract", confidence=0.8)]
    out += [Finding(me, "PLAYS_SPORT", v, "activity", confidence=0.8)
            for m in _KEEP_FIT.finditer(text) if value_slot(v := m.group(1).lower()) == "PLAYS_SPORT"]
    out += [Finding(me, "DIET", v, "diet", confidence=0.8)
            for m in _KEEP_EVERYTHING.finditer(text) if value_slot(v := m.group(1).lower()) == "DIET"]
    out += [Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", confidence=0.8)
            for m in _CODING_IN.finditer(text) if is_language(m.group(1), said=True)]
    out += [Finding(me, "LIVES_IN", m.group(1), "place", confidence=0.8)
            for m in [*_WHERE_I_LIVE.finditer(text), *_RESIDENT.finditer(text),
                      *_NEW_HOME.finditer(text), *_ADDRESS.finditer(text),
                      *_NEW_FLAT.finditer(text)]]
    for m in _WITHOUT.finditer(text):
        word = " ".join(m.group(1).lower().split())
        slot = _EMPTY_SLOTS.get(word, "WORKS_AT")
        out.append(Finding(me, slot, "", SLOT_TYPES[slot], "retract", confidence=0.8))
    if _JOB_TALK.search(speech.message or sent.doc.text):  # a job is spoken of in the message
        out += [Finding(me, "WORKS_AT", org, "organization", "retract", confidence=0.8)
                for m in _PARTED.finditer(text)
                if (org := (m.group(1) or m.group(2)).rstrip(".'"))]
    else:  # "Geoffrey and I have parted ways, quite amicably": a couple no longer
        out += [Finding(me, "HAS_PARTNER", name, "person", "retract", confidence=0.8)
                for m in _PARTED.finditer(text) if (name := clean_name(m.group(1) or m.group(2)))]
    out += _in_use(text, me)
    out += [Finding(me, "WORKS_AT", org, "organization", confidence=0.8)
            for m in _HIRED_BY.finditer(text)
            if (org := (m.group(1) or m.group(2) or m.group(3)).rstrip(".'"))]
    if _JOB_BEGUN.search(speech.message or sent.doc.text):
        out += [Finding(me, "WORKS_AT", org, "organization", confidence=0.8)
                for m in _SIGNED_WITH.finditer(text) if (org := clean_name(m.group(1)))]
    offered = _OFFERED.search(text)
    if offered and _TOOK_IT.search(sent.doc.text, sent.start_char + offered.end()):
        out.append(Finding(me, "WORKS_AT", offered.group(1), "organization", confidence=0.8))
    out += [Finding(me, "REPORTS_TO", name, "person", "retract", confidence=0.8)
            for m in _NOT_UNDER.finditer(text) if (name := clean_name(m.group(1)))]
    out += [Finding(me, "PLAYS_SPORT", v, "activity", confidence=0.8)
            for m in _WEEKENDS.finditer(text) if value_slot(v := m.group(1).lower()) == "PLAYS_SPORT"]
    out += [Finding(me, "DIET", v, "diet", confidence=0.8)
            for m in _KEPT_FOR.finditer(text) if value_slot(v := m.group(1).lower()) == "DIET"]
    out += [Finding(me, slot, v, SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _NO_VALUE.finditer(text)
            if (slot := value_slot(v := m.group(1).lower()) or "") in ("PLAYS_SPORT", "DIET")]
    out += [Finding(me, "PLAYS_SPORT", v, "activity", "retract", confidence=0.8)
            for m in _HUNG_UP.finditer(text) if value_slot(v := m.group(1).lower()) == "PLAYS_SPORT"]
    out += [Finding(me, "REPORTS_TO", n, "person", confidence=0.85)
            for m in _MANAGED_BY.finditer(text)
            if (n := clean_name(m.group(1) or m.group(2) or ""))]
    out += [Finding(me, slot, "", SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _WITHOUT_SLOT.finditer(text)
            if (slot := SLOT_NOUNS[" ".join(m.group(1).lower().split())])]
    for m in _SLOT_NAMED.finditer(text):
        if (name := clean_name(m.group(2))) is not None:
            noun = " ".join(m.group(1).lower().split())
            slot = "HAS_PARTNER" if noun in _PARTNERS else SLOT_NOUNS[noun]
            out.append(Finding(me, slot, name, "person", confidence=0.85))
    emptied = dict.fromkeys(slot for pattern in (_HAVE_NO, _NO_SLOT) for m in pattern.finditer(text)
                            if (slot := _EMPTIED[m.group(1).lower()]) != "LIVES_IN")
    out += [Finding(me, slot, "", SLOT_TYPES.get(slot, "concept"), "retract", confidence=0.8)
            for slot in emptied]
    # a label the splitter cut off its value ("new year new diet:" / "Whole30 from now on.")
    labelled = sent.doc.text[sent.start_char:] if text.rstrip().endswith(":") else text
    label = _SLOT_LABEL.match(labelled) or _SLOT_LABEL.match(labelled[_lead_in(labelled):])
    if label and (value := _POINTED.sub("", _UNTIL_FURTHER.sub(
            "", _SAID_IN.sub("", label.group(3)))).strip()) and \
            len(value.split()) <= 5 and value.split()[0].lower() not in ("i", "we", "i'm", "we're"):
        slot = SLOT_NOUNS[label.group(1).lower()]
        # after a comma only a value that names its own slot: "new phone, a Nokia X30"
        if label.group(2) != "," or value_slot(value) == slot:
            out.append(Finding(me, slot, value, SLOT_TYPES.get(slot, "concept"),
                               confidence=0.85))
    return out


def _exchanged_slot(value: str) -> str:
    """The slot holding one value at a time that ``value`` names, or ""."""
    slot = value_slot(value) or ("MAIN_LANGUAGE" if is_language(value, said=True) else "")
    return slot if slot in _EXCHANGED else ""


def _in_use(text: str, me: Party) -> list[Finding]:
    """"it's OCaml for me now", "Elixir is what I reach for now", "it's all Perl", "barely
    touch Kotlin anymore", "traded lacrosse for surfing", "carrying a Zenfone 10 these days":
    the value in use, or left behind, where the value itself tells the slot."""
    out = []
    for m in [*_FOR_ME_NOW.finditer(text), *_GO_TO.finditer(text), *_ALL_OF_IT.finditer(text)]:
        if slot := _exchanged_slot(m.group(1)):
            out.append(Finding(me, slot, m.group(1), SLOT_TYPES[slot], confidence=0.8))
    out += [Finding(me, slot, m.group(1), SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _HARDLY.finditer(text) if (slot := _exchanged_slot(m.group(1)))]
    for m in _TRADED.finditer(text):
        left, taken = model_name(m.group(1)), model_name(m.group(2))
        if (slot := _exchanged_slot(taken)) and _exchanged_slot(left) == slot:
            out += [Finding(me, slot, taken, SLOT_TYPES[slot], confidence=0.8),
                    Finding(me, slot, left, SLOT_TYPES[slot], "retract", confidence=0.8)]
    out += [Finding(me, "HAS_PHONE", m.group(1), SLOT_TYPES["HAS_PHONE"], confidence=0.8)
            for m in _CARRYING.finditer(text) if value_slot(m.group(1)) == "HAS_PHONE"]
    return out


def _lead_in(text: str) -> int:
    """Where "new <slot>:" starts after a few words of lead-in ("new year new diet: Whole30"),
    or 0."""
    found = _LEAD_IN.match(text)
    return found.end() if found else 0


def _still_title(text: str, me: Party) -> list[Finding]:
    """"new job at Asda, still nursing tho", "still a nurse": the title holds through the
    change of employer (which would otherwise end it)."""
    out = []
    for m in _STILL.finditer(text):
        word = m.group(1).lower()
        title = _TRADES.get(word, word)
        if title in OCCUPATIONS:
            out.append(Finding(me, "JOB_TITLE", title, "role", confidence=0.8))
    return out


def _made_me(text: str, me: Party) -> list[Finding]:
    """"They made me head of data!", "officially a data scientist now": the title, when it
    reads as one (an occupation last, or a head, director or lead of something)."""
    out = []
    for m in [*_MADE_ME.finditer(text), *_TITLE_NOW.finditer(text)]:
        title = m.group(1).strip()
        words = title.split()
        if words[-1] in OCCUPATIONS or words[0] in ("head", "director", "vp", "chief") \
                or words[-1] == "lead":
            out.append(Finding(me, "JOB_TITLE", title, "role", confidence=0.8))
    return out


def _new_pet(sent: Span, me: Party) -> list[Finding]:
    """The name a pet the speaker just got is given later in the message."""
    message = sent.doc.text
    kind = _NEW_PET.search(message)
    if kind is None or kind.start() > sent.end_char:
        return []
    return [Finding(me, "HAS_PET", name, "animal", timing="none",
                    statement=f"{{s}} has a {kind.group(1).lower()} named {name}")
            for m in _PET_NAME.finditer(sent.text) if (name := clean_name(m.group(1)))]


def _dating(sent: Span, me: Party) -> list[Finding]:
    """"Seeing someone new, his name is Karim", "dating again! his name is Andre": the name
    given in the message the speaker says they are dating in (not "my sister is dating a
    guy called Niall", which is the sister's)."""
    message = sent.doc.text
    if not _DATING.search(message) or _SEEING_CARE.search(message):
        return []
    return [Finding(me, "HAS_PARTNER", name, "person", confidence=0.8)
            for m in _DATE_NAME.finditer(sent.text) if (name := clean_name(m.group(1)))]


#: No verb rules: these facts are read by :func:`chat_facts` from the text.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = frozenset()
#: A sentence these match is worth parsing whatever its words.
PATTERNS: tuple[re.Pattern[str], ...] = (_DATING, _PET_NAME, _NO_SLOT, _MADE_ME, _TITLE_NOW,
                                         _NO_MORE, _SLOT_NAMED, _MOST_CODE, _INSTEAD_OF,
                                         _KEEP_FIT, _KEEP_EVERYTHING, _CODING_IN, _WHERE_I_LIVE,
                                         _RESIDENT, _NEW_HOME,
                                         _WITHOUT, _PARTED, _FOR_ME_NOW, _WEEKENDS, _MANAGED_BY,
                                         _WITHOUT_SLOT, _GO_TO, _ALL_OF_IT, _HARDLY, _TRADED,
                                         _ADDRESS, _CARRYING, _HIRED_BY, _OFFERED, _NOT_UNDER,
                                         _HUNG_UP, _HAVE_NO, _NEW_FLAT, _SIGNED_WITH, _KEPT_FOR,
                                         _NO_VALUE)
