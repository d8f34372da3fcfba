"""Resolve relative time expressions ("last month", "by Friday") to concrete spans.

Facts are stored with absolute ``valid_from``/``valid_until``, so "I moved to
Berlin two years ago" must become a date the moment it is ingested: the same
words read a year later would mean something else. :func:`resolve` finds the
first time expression in a sentence and turns it into a :class:`TimeSpan`
relative to the episode's reference time.

The common conversational patterns are handled here with regular expressions:
they are fast, and they follow conventions dateparser does not (calendar weeks,
seasons, "by Friday" as a deadline). dateparser is only asked about leftovers
that look like explicit dates ("12/25/2024", "Dec 25th"), and only in English,
because loading every language is slow.

Conventions (all calendar units are UTC):

- weeks start on Monday; "next week" is the whole following calendar week;
- "last Friday" is the latest Friday strictly before the reference day, "next
  Friday" the first one strictly after it, "this Friday" the one of the current
  week; a bare "Friday" is the next or the last one depending on tense;
- "next weekend" is the Saturday and Sunday of next calendar week;
- seasons are meteorological and northern: spring is March to May, winter runs
  from December to February; "last summer" is the latest summer already over;
- "two years ago" is that calendar year, "three days ago" that day;
- "on the 15th" is the nearest 15th in the tense's direction (not "the 3rd floor"); a
  weekday right after a verb or opening a clause ("started monday", "Friday I quit") is
  a day only in the past (not "Friday feeling"); a schedule ("every Monday", "Tuesday
  and Thursday evenings", "on the 1st each month") is no date;
- "since", "from" mark a start, "by", "before" a deadline, "until" an end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

Granularity = Literal["hour", "day", "week", "month", "season", "year"]
Relation = Literal["at", "since", "by", "until"]
Prefer = Literal["past", "future", "auto"]

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
            "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "several": 3}

#: A month's name or its short form, and a weekday's name: shared with the rules that read
#: when something starts (``message_facts``).
MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
             r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
DAY_RE = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
#: What joins the days of a schedule: "Tuesday and Thursday", "tuesday/friday".
_DAYS_JOINED = r"\s*(?:,|and|or|&|/)\s*"
_SEASON_RE = r"(?:spring|summer|fall|autumn|winter)"
_NUM_RE = (r"(?:\d{1,3}|a couple of|a couple|couple of|a few|few|several|an?|one|two|three|four|"
           r"five|six|seven|eight|nine|ten|eleven|twelve)")
_UNIT_RE = r"(?:day|week|month|year)s?"
#: "15th", "1st": a day of the month said as an ordinal.
ORDINAL_DAY = r"\d{1,2}(?:st|nd|rd|th)"
#: What may follow a date said alone: the clause's end, or a word that starts something else
#: ("on the 3rd and ...", "on the 3rd at noon"); not a noun ("the 3rd floor", "9th inning").
_ENDS_A_DATE = (r"(?=\s*(?:$|[.,;:!?)])|\s+(?:and|but|so|of|at|in|for|with|to|from|when|then|"
                r"too|as|i|we|next|this|last|morning|afternoon|evening|night)\b)")
_I = re.IGNORECASE

#: A cheap pre-check: no match here means no expression, so the parser is skipped.
TIME_CUE = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|ago|since|weekends?|(?:day|week|month|year)s?|morning|night|"
    r"spring|summer|fall|autumn|winter|minutes?|hours?|mins?|hrs?|" + DAY_RE + r"|" + MONTH_RE + r"|(?:19|20)\d\d)\b"
    r"|\d{1,2}/\d{1,2}|\bthe\s+" + ORDINAL_DAY + r"\b", _I)

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("month_day", re.compile(
        r"\b(" + MONTH_RE + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+((?:19|20)\d\d)\b)?", _I)),
    ("day_month", re.compile(
        r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + MONTH_RE + r")\b(?:,?\s+((?:19|20)\d\d)\b)?",
        _I)),
    ("month_year", re.compile(r"\b(" + MONTH_RE + r")\s+(?:of\s+)?((?:19|20)\d\d)\b", _I)),
    ("season_year", re.compile(r"\b(" + _SEASON_RE + r")\s+(?:of\s+)?((?:19|20)\d\d)\b", _I)),
    ("end_of", re.compile(r"\b(?:the\s+)?end\s+of\s+(?:the\s+)?(this|next|last)?\s*(week|month|year)\b",
                          _I)),
    ("two_days", re.compile(r"\bthe\s+day\s+(before\s+yesterday|after\s+tomorrow)\b", _I)),
    ("day_word", re.compile(r"\b(today|tonight|yesterday|tomorrow|last\s+night|this\s+morning|"
                            r"this\s+afternoon|this\s+evening)\b", _I)),
    ("ago", re.compile(r"\b(" + _NUM_RE + r")\s+(" + _UNIT_RE + r")\s+ago\b", _I)),
    ("in_n", re.compile(r"\bin\s+(" + _NUM_RE + r")\s+(" + _UNIT_RE + r")\b", _I)),
    ("rel_weekend", re.compile(r"\b(last|next|this|the|coming)\s+weekend\b", _I)),
    ("rel_unit", re.compile(r"\b(last|next|this|earlier\s+this|later\s+this|the\s+past|the\s+last)"
                            r"\s+(week|month|year)\b", _I)),
    # "my last day is Friday": a weekday after "is" is the day, as after "on"
    ("rel_day", re.compile(r"\b(last|next|this|coming|on|by|until|till|before|since|is|was)"
                           r"\s+(" + DAY_RE + r")\b", _I)),
    ("rel_season", re.compile(r"\b(last|next|this|in\s+the|in|during\s+the|over\s+the)\s+("
                              + _SEASON_RE + r")\b", _I)),
    ("rel_month", re.compile(r"\b(last|next|this|in|since|by|until|till|before|during|from|early|"
                             r"late|mid|end\s+of)[\s-]+(" + MONTH_RE + r")\b", _I)),
    ("year", re.compile(r"\b(in|since|by|until|till|before|during|from|of|back\s+in)\s+"
                        r"((?:19|20)\d\d)\b", _I)),
    ("duration", re.compile(r"\bfor\s+(?:the\s+(?:past|last)\s+)?(" + _NUM_RE + r")\s+("
                            + _UNIT_RE + r")\b", _I)),
    ("slash_date", re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b")),
    # "moved on the 15th": a day of the month with no month, the nearest one (after the
    # forms that name the month: "on the 15th of June" is read above); not "on the 3rd floor"
    ("month_day_only", re.compile(r"\b(on|since|from|starting|by|before|until|till)\s+the\s+("
                                  + ORDINAL_DAY + r")\b" + _ENDS_A_DATE, _I)),
    # "started monday", "moved in saturday", "Friday I quit": a weekday right after a verb in
    # the past, or opening a clause before its subject; not "Friday feeling", "Black Friday"
    ("bare_day", re.compile(r"(?:\b(?:\w+ed|began|came|went|got|left|quit|sold|bought|met|had"
                            r"|did|made|took|in)\s+|(?:^|[.!?,;]\s*))(" + DAY_RE
                            + r")\b(?=\s+(?:i|we|at|with|and|to|for|in|on)\b|\s*[.,;:!?]|\s*$)",
                            _I)),
)
#: What makes a day said without its month or week a habit, not a date, in its clause:
#: "every Monday", "paid on the 15th each month", "most Fridays", "Tuesday and Thursday".
_REPEATED = re.compile(r"\b(?:every|each|monthly|weekly|usually|always)\b", _I)
#: Where a clause ends.
_CLAUSE = re.compile(r"[,.;:!?]|\b(?:and|but|so)\b", _I)
_REPEATED_BEFORE = re.compile(r"\b(?:most|some|other|no|any)\s+$|" + DAY_RE
                              + _DAYS_JOINED + r"$", _I)

#: "in two minutes", "within an hour", "in half an hour": a clock time from the reference.
_IN_CLOCK = re.compile(r"\b(?:in|within)\s+(" + _NUM_RE + r"|half\s+an)\s+(minute|min|hour|hr)s?\b", _I)

_RELATION_BEFORE = re.compile(r"\b(since|from|starting|by|before|until|till|due)\s+(?:the\s+)?$", _I)
_AT_HOUR = re.compile(r"\bat\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)", _I)
_FUTURE_CUES = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan|planning|remind|need\s+to|have\s+to|has\s+to|must|"
    r"by|upcoming|coming|soon|hope|hoping|want|wants|next|tomorrow|tonight|can't\s+wait|"
    r"looking\s+forward|scheduled|booked|due)\b", _I)
#: "since my trip to Argentina in May": since an event, which is past (not the "since" of a
#: reason: "since we're moving in May").
SINCE_AN_EVENT = re.compile(r"\bsince\s+(?:my|our|the|his|her|their)\b", _I)
_PAST_CUES = re.compile(
    r"\b(?:was|were|did|had|went|got|ago|last|yesterday|used\s+to|took|made|saw|met|came|left|"
    r"bought|began|sold|ran|won|lost|found|gave|spent|felt|told|wrote|flew|drove)\b"
    r"|\b\w{2,}[^\We]ed\b|" + SINCE_AN_EVENT.pattern, _I)
_PERFECT = re.compile(r"\b(?:have|has|'ve|'s|had)\s+(?:\w+\s+)?(?:been|lived|worked|used|known|had|"
                      r"studied|played|done|owned|taught)\b", _I)


@dataclass(frozen=True)
class TimeSpan:
    """A resolved expression: ``[start, end)`` in UTC, how coarse it is, and how it relates.

    ``relation`` is ``at`` for a plain time, ``since`` for a start ("since March"),
    ``by`` for a deadline ("by Friday") and ``until`` for an end.
    """

    start: datetime
    end: datetime
    granularity: Granularity
    relation: Relation = "at"
    text: str = ""

    def describe(self) -> str:
        """An absolute phrase for fact text, e.g. ``"in the week of 17 June 2024"``."""
        day = f"{self.start.day} {self.start:%B %Y}"
        if self.granularity == "hour":
            body = f"{day} at {self.start:%H:%M}"
        elif self.granularity == "day":
            body = day
        elif self.granularity == "week":
            body = f"the week of {day}"
        elif self.granularity == "month":
            body = f"{self.start:%B %Y}"
        elif self.granularity == "season":
            body = f"{_season_name(self.start.month)} {self.start.year}"
        else:
            body = str(self.start.year)
        if self.relation == "since":
            return f"since {body}"
        if self.relation == "by":
            return f"by {body}"
        if self.relation == "until":
            return f"until {body}"
        return f"on {body}" if self.granularity in ("hour", "day") else f"in {body}"


#: "from 2015 to 2020", "from March 2019 until last May": a stretch with both ends.
_RANGE = re.compile(r"\bfrom\b(?P<start>.+?)\b(?:to|until|till|through)\b(?P<end>.+)",
                    re.IGNORECASE)


def resolve_range(text: str, reference: datetime) -> TimeSpan | None:
    """The stretch a past "from X to Y" names, as one span from X's start to Y's end, or
    None when either end does not resolve or they are out of order.

    >>> ref = datetime(2024, 6, 12, 10, tzinfo=UTC)
    >>> span = resolve_range("I lived in Paris from 2015 to 2020", ref)
    >>> (span.start.year, span.end.year, span.text)
    (2015, 2021, 'from 2015 to 2020')
    """
    match = _RANGE.search(text)
    if match is None:
        return None
    first = resolve(f"from{match['start']}", reference, prefer="past")
    last = resolve(f"until{match['end']}", reference, prefer="past")
    if first is None or last is None or not first.start < last.end:
        return None
    return TimeSpan(first.start, last.end, first.granularity,
                    text=f"from {_body(first)} to {_body(last)}")


def _body(span: TimeSpan) -> str:
    """The time itself, without its relation word: "2015", "March 2019", "5 May 2024"."""
    return span.describe().split(" ", 1)[1]


def has_time_cue(text: str) -> bool:
    """True when ``text`` might hold a time expression; false means :func:`resolve` is None."""
    return TIME_CUE.search(text) is not None


def resolve(text: str, reference: datetime, *, prefer: Prefer = "auto") -> TimeSpan | None:
    """Find the first time expression in ``text`` and resolve it against ``reference``.

    ``text`` may be the expression alone or a whole sentence. ``prefer`` says
    whether an ambiguous "Friday" or "in May" lies before or after the reference;
    ``auto`` guesses from the tense cues of the sentence.

    >>> ref = datetime(2024, 6, 12, 10, tzinfo=UTC)   # a Wednesday
    >>> resolve("I moved here last month", ref).start.date()
    datetime.date(2024, 5, 1)
    """
    if not has_time_cue(text):
        return None
    ref = reference.astimezone(UTC) if reference.tzinfo else reference.replace(tzinfo=UTC)
    clock = _IN_CLOCK.search(text)
    if clock is not None:
        try:
            return _in_clock(clock, ref)
        except OverflowError:  # "in an hour" said at the end of the calendar
            return None
    direction = _direction(text) if prefer == "auto" else prefer
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            try:
                span = _span(kind, match, ref, direction, text)
            except (ValueError, OverflowError):  # "next year" said in 9999 leaves the calendar
                continue
            if span is not None:
                return span
    return None


def _in_clock(match: re.Match[str], ref: datetime) -> TimeSpan:
    """"in two minutes": to the minute, so a reminder set for then fires then (granularity hour)."""
    amount, unit = match.group(1).lower(), match.group(2).lower()
    count = 0.5 if amount.startswith("half") else (_NUMBERS.get(amount) or int(amount))
    minutes = count * (60 if unit.startswith("h") else 1)
    start = ref + timedelta(minutes=minutes)
    return TimeSpan(start, start + timedelta(minutes=1), "hour", "at", match.group(0))


def _span(kind: str, match: re.Match[str], ref: datetime, direction: Literal["past", "future"],
          text: str) -> TimeSpan | None:
    found = _resolve_match(kind, match, ref.date(), direction, text)
    if found is None:
        return None
    start, end, granularity, relation = found
    before = _RELATION_BEFORE.search(text[: match.start()])
    if relation == "at" and before:
        relation = _relation_word(before.group(1))
    return _with_hour(TimeSpan(_dt(start), _dt(end), granularity, relation, match.group(0)), text)


def _direction(text: str) -> Literal["past", "future"]:
    future = len(_FUTURE_CUES.findall(text))
    past = len(_PAST_CUES.findall(text))
    return "past" if past > future else "future"


def _relation_word(word: str) -> Relation:
    word = word.lower()
    if word in ("since", "from", "starting"):
        return "since"
    if word in ("by", "before", "due"):
        return "by"
    return "until"


def _resolve_match(kind: str, m: re.Match[str], today: date, direction: str, text: str
                   ) -> tuple[date, date, Granularity, Relation] | None:
    g = [x.lower() if x else x for x in m.groups()]
    if kind == "iso":
        return _valid_day(int(g[0]), int(g[1]), int(g[2]))
    if kind in ("month_day", "day_month"):
        month_word, day_word = (g[0], g[1]) if kind == "month_day" else (g[1], g[0])
        if kind == "month_day" and month_word == "may" and m.group(1) == "may":
            return None  # the modal verb, not the month
        month, number = _month(month_word), int(day_word)
        if g[2]:
            return _valid_day(int(g[2]), month, number)
        return _nearest_day(today, month, number, direction)
    if kind == "month_year":
        if g[0] == "may" and m.group(1) == "may":
            return None
        start = date(int(g[1]), _month(g[0]), 1)
        return start, _add_months(start, 1), "month", "at"
    if kind == "season_year":
        start = date(int(g[1]), _SEASON_START[g[0]], 1)
        return start, _add_months(start, 3), "season", "at"
    if kind == "end_of":
        return _end_of(today, g[0] or "this", g[1])
    if kind == "two_days":
        day = today - timedelta(days=2) if g[0].startswith("before") else today + timedelta(days=2)
        return day, day + timedelta(days=1), "day", "at"
    if kind == "day_word":
        offset = {"yesterday": -1, "tomorrow": 1}.get(g[0], -1 if "night" in g[0] and
                                                      g[0].startswith("last") else 0)
        day = today + timedelta(days=offset)
        return day, day + timedelta(days=1), "day", "at"
    if kind in ("ago", "in_n"):
        count, unit = _NUMBERS.get(g[0]) or int(g[0]), g[1].rstrip("s")
        return _unit_span(_shift(today, unit, -count if kind == "ago" else count), unit)
    if kind == "rel_weekend":
        return _weekend(today, g[0], direction)
    if kind == "rel_unit":
        return _relative_unit(today, g[0], g[1])
    if kind == "rel_day":
        return _weekday(today, g[0], _WEEKDAYS.index(g[1]), direction)
    if kind == "rel_season":
        return _season(today, g[0], g[1], direction)
    if kind == "rel_month":
        if g[1] == "may" and m.group(2) == "may":
            return None
        return _relative_month(today, g[0], _month(g[1]), direction)
    if kind == "year":
        start = date(int(g[1]), 1, 1)
        word = g[0].split()[-1]
        relation = _relation_word(word) if word in ("since", "from", "by", "before", "until",
                                                    "till") else "at"
        return start, date(start.year + 1, 1, 1), "year", relation
    if kind == "duration":
        if not _PERFECT.search(text):
            return None
        count, unit = _NUMBERS.get(g[0]) or int(g[0]), g[1].rstrip("s")
        start = _shift(today, unit, -count) if unit != "year" else _years_back(today, count)
        return start, today + timedelta(days=1), _granularity(unit), "since"
    if kind in ("month_day_only", "bare_day"):
        said_at = m.start(1) if kind == "bare_day" else m.start()
        clause = _CLAUSE.split(text[:said_at])[-1] + _CLAUSE.split(text[m.end():])[0]
        if _REPEATED.search(clause) or _REPEATED_BEFORE.search(text[:said_at]) \
                or re.match(_DAYS_JOINED + DAY_RE, text[m.end():], _I):
            return None
        if kind == "month_day_only":
            return _day_of_month(today, int(g[1][:-2]), direction,
                                 "at" if g[0] == "on" else _relation_word(g[0]))
        return _weekday(today, "last", _WEEKDAYS.index(g[0]), direction) \
            if direction == "past" else None
    return _dateparser(m.group(0), today, direction)


def _dt(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


def _month(word: str) -> int:
    return next(i for i, name in enumerate(_MONTHS, 1) if name.startswith(word[:3]))


def _season_name(month: int) -> str:
    return {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}.get(month, "season")


def _granularity(unit: str) -> Granularity:
    return {"day": "day", "week": "week", "month": "month"}.get(unit, "year")  # type: ignore[return-value]


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _shift(today: date, unit: str, count: int) -> date:
    if unit == "day":
        return today + timedelta(days=count)
    if unit == "week":
        return today + timedelta(weeks=count)
    if unit == "month":
        return _add_months(today, count)
    return date(today.year + count, 1, 1)


def _years_back(today: date, count: int) -> date:
    try:
        return today.replace(year=today.year - count)
    except ValueError:  # 29 February
        return today.replace(year=today.year - count, day=28)


def _unit_span(day: date, unit: str) -> tuple[date, date, Granularity, Relation]:
    if unit == "day":
        return day, day + timedelta(days=1), "day", "at"
    if unit == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(weeks=1), "week", "at"
    if unit == "month":
        first = day.replace(day=1)
        return first, _add_months(first, 1), "month", "at"
    return date(day.year, 1, 1), date(day.year + 1, 1, 1), "year", "at"


def _valid_day(year: int, month: int, day: int) -> tuple[date, date, Granularity, Relation] | None:
    try:
        start = date(year, month, day)
    except ValueError:
        return None
    return start, start + timedelta(days=1), "day", "at"


def _nearest_day(today: date, month: int, day: int, direction: str
                 ) -> tuple[date, date, Granularity, Relation] | None:
    for year in ((today.year, today.year - 1) if direction == "past" else (today.year, today.year + 1)):
        found = _valid_day(year, month, day)
        if found and (found[0] <= today if direction == "past" else found[0] >= today):
            return found
    return None


def _day_of_month(today: date, day: int, direction: str, relation: Relation
                  ) -> tuple[date, date, Granularity, Relation] | None:
    """The nearest day ``day`` of a month, this month's or, in the tense's direction, the one
    before or after (skipping a month without it: "the 31st" said in June)."""
    step = -1 if direction == "past" else 1
    for months in range(3):
        month = _add_months(today.replace(day=1), step * months)
        found = _valid_day(month.year, month.month, day)
        if found and (found[0] <= today if direction == "past" else found[0] >= today):
            return found[0], found[1], "day", relation
    return None


def _end_of(today: date, which: str, unit: str) -> tuple[date, date, Granularity, Relation]:
    step = {"this": 0, "next": 1, "last": -1}[which]
    _, end, _, _ = _unit_span(_shift(today, unit, step) if unit != "year"
                                  else date(today.year + step, 1, 1), unit)
    last = end - timedelta(days=1)
    return last, end, "day", "at"


def _weekend(today: date, which: str, direction: str) -> tuple[date, date, Granularity, Relation]:
    saturday = today - timedelta(days=today.weekday()) + timedelta(days=5)
    if which == "last":
        saturday -= timedelta(weeks=1)
    elif which == "next":
        saturday += timedelta(weeks=1)
    elif which == "the" and direction == "past" and today.weekday() < 5:
        saturday -= timedelta(weeks=1)
    return saturday, saturday + timedelta(days=2), "day", "at"


def _relative_unit(today: date, which: str, unit: str) -> tuple[date, date, Granularity, Relation]:
    which = " ".join(which.split())
    step = {"last": -1, "next": 1, "the past": -1, "the last": -1}.get(which, 0)
    if unit == "year":
        year = today.year + step
        return date(year, 1, 1), date(year + 1, 1, 1), "year", "at"
    return _unit_span(_shift(today, unit, step), unit)


def _weekday(today: date, which: str, weekday: int, direction: str
             ) -> tuple[date, date, Granularity, Relation]:
    if which == "this":
        day = today - timedelta(days=today.weekday()) + timedelta(days=weekday)
    elif which in ("last", "was") or (which in ("on", "since", "is") and direction == "past"):
        day = today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    else:  # next, coming, by, until, before, or a future "on Friday"
        day = today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    relation: Relation = {"by": "by", "before": "by", "until": "until", "till": "until",
                          "since": "since"}.get(which, "at")  # type: ignore[assignment]
    return day, day + timedelta(days=1), "day", relation


def _season(today: date, which: str, name: str, direction: str
            ) -> tuple[date, date, Granularity, Relation]:
    month = _SEASON_START[name]
    starts = [date(year, month, 1) for year in range(today.year - 2, today.year + 2)]
    spans = [(s, _add_months(s, 3)) for s in starts]
    current = [s for s in spans if s[0] <= today < s[1]]
    last = [s for s in spans if s[1] <= today][-1]
    upcoming = [s for s in spans if s[0] > today][0]
    if which == "last":
        chosen = last
    elif which == "next":
        chosen = upcoming
    elif current:
        chosen = current[0]
    else:
        chosen = last if direction == "past" else upcoming
    return chosen[0], chosen[1], "season", "at"


def _relative_month(today: date, which: str, month: int, direction: str
                    ) -> tuple[date, date, Granularity, Relation]:
    which = said = " ".join(which.split())
    this_year = date(today.year, month, 1)
    if which == "from" and direction == "future":  # "we'll live in Oslo from August"
        which = "next" if this_year < today.replace(day=1) else "this"
    if which == "last" or (which in ("since", "from") and this_year > today):
        start = this_year if this_year < today.replace(day=1) else date(today.year - 1, month, 1)
    elif which == "next":
        start = this_year if this_year > today else date(today.year + 1, month, 1)
    elif which == "this" or which in ("since", "from"):
        start = this_year
    elif direction == "past":
        start = this_year if this_year <= today else date(today.year - 1, month, 1)
    else:
        start = this_year if _add_months(this_year, 1) > today else date(today.year + 1, month, 1)
    relation: Relation = {"since": "since", "from": "since", "by": "by", "before": "by",
                          "until": "until", "till": "until"}.get(said, "at")  # type: ignore[assignment]
    return start, _add_months(start, 1), "month", relation


def _with_hour(span: TimeSpan, text: str) -> TimeSpan:
    hour = _AT_HOUR.search(text)
    if span.granularity != "day" or hour is None:
        return span
    value = int(hour.group(1)) % 12 + (12 if hour.group(3).lower().startswith("p") else 0)
    if value > 23:
        return span
    start = span.start + timedelta(hours=value, minutes=int(hour.group(2) or 0))
    return TimeSpan(start, start + timedelta(hours=1), "hour", span.relation, span.text)


def _dateparser(fragment: str, today: date, direction: str
                ) -> tuple[date, date, Granularity, Relation] | None:
    import dateparser

    settings = {"RELATIVE_BASE": datetime.combine(today, time(12)),
                "PREFER_DATES_FROM": "past" if direction == "past" else "future",
                "DATE_ORDER": "MDY"}
    parsed = dateparser.parse(fragment, languages=["en"], settings=settings)
    if parsed is None:
        return None
    day = parsed.date()
    return day, day + timedelta(days=1), "day", "at"
