"""Chat's shorthand for a correction, said plainly before the rules read it.

People correct a slip in chat's own ways: "*Elixir. no idea why I said Erlang", "wait i
wrote Rust? meant Go", "Ignore the bit where I said Leeds; the city is York", "Brain fart
earlier - the language is PHP". :func:`plain_correction` rewrites such a message as the
plain form :func:`graphmem.extract.rules.contrast.correction` reads ("Sorry, I meant York,
not Leeds."), keeping whatever else the message says. Kept apart from :mod:`.contrast`, which
reads corrections and denials off a parse; this module only rewrites text.
"""

from __future__ import annotations

import re

#: A value of a few lower-case words: "principal engineer".
_LOWER_WORDS = r"[a-z][\w'\-]*(?:\s+[a-z][\w'\-]*){1,2}"
#: Slot labels a restated value may follow: "the city is Buenos Aires".
SLOT_LABELS = (r"(?:city|town|home\s+base|home|diet|(?:programming\s+)?language|phone|"
                r"handset|car|employer|company|job(?:\s+title)?|title|role|manager|boss|"
                r"sport)")
#: Words a chat correction may open with before its asterisk or its "meant".
_OPENERS = r"(?:lol|lmao|haha|ha|oops|whoops|ugh|argh|sorry|wait|oh|ah|eh|hmm|no|btw|my\s+bad)"
#: A value said in chat: a name of up to four words ("Galaxy S23", "Quillon Health"), or one
#: lowercase word ("vegan").
#: (a dot only inside it: "Node.js"; a capital after a small start: "iPhone", "eBay")
_SAID_NAME_WORD = r"(?:[A-Z0-9]|[a-z]{1,2}(?=[A-Z]))(?:[\w+#'\-]|\.(?=\w))*"
_SAID_VALUE = rf"(?:{_SAID_NAME_WORD}(?:\s+{_SAID_NAME_WORD}){{0,3}}|[a-z][\w+#'\-]*)"
#: "*Elixir. no idea why I said Erlang", "lol *Gunnar. I typed Ingrid by mistake": chat's
#: asterisk puts right a word said before.
_STARRED = re.compile(rf"^\W*(?:{_OPENERS}\W+)*(?<!\*)\*(?!\*)\s*(?P<right>[^*.!?,;:]{{1,40}}?)\s*"
                      r"(?:\*|[.!?,;:]|$)", re.IGNORECASE)
#: Where a starred correction names the slip: "why I said Erlang", "I typed Ingrid by mistake",
#: "autocorrect changed it to fencing".
_TYPED = re.compile(rf"\b(?:said|typed|wrote|put|(?i:autocorrect|autocomplete|spell-?check|my\s+phone)"
                    rf"\s+(?:changed|turned|made|switched)\s+it\s+(?:to|into))\s+(?:an?\s+|the\s+)?"
                    rf"(?P<wrong>{_SAID_VALUE})")
#: "wait i wrote Rust? meant Go", "I typed vegan, meant vegetarian".
_WROTE_MEANT = re.compile(
    rf"\b(?:i\s+)?(?:wrote|typed|said|put)\s+(?:an?\s+|the\s+)?(?P<wrong>{_SAID_VALUE})"
    rf"\s*[?!.,;:\-]*\s*(?:but\s+|and\s+)?(?:i\s+)?meant\s+(?:an?\s+|the\s+)?"
    rf"(?P<right>{_SAID_VALUE})", re.IGNORECASE)
#: Words after a starred value that are no part of it: "*Mercado Pago actually".
_TRAILING_HEDGE = re.compile(r"\s+(?:actually|then|lol|lmao|haha|sorry|oops)$", re.IGNORECASE)
#: "ugh, meant Kotlin not Java": "I meant" with its "I" dropped, as chat drops it; "Sorry,
#: meant to write flexitarian there, not dairy-free": the word meant.
_BARE_MEANT = re.compile(rf"^\W*(?:{_OPENERS}\W+)*(?:i\s+)?meant\s(?:to\s+(?:write|say|type|put)"
                         r"\s)?(?!to\b)", re.IGNORECASE)
#: Where a word meant was: "meant to write flexitarian there".
_THERE = re.compile(r"\s+(?:there|here|earlier|before)(?=\s*(?:[,.!?;]|not\b|$))",
                    re.IGNORECASE)
#: Where a speaker owns a slip without naming it: "Brain fart earlier", "Mixed up my words".
_SLIP_OWNING = (r"(?i:brain\s+fart|(?:i\s+)?(?:said|got|typed|wrote)\s+(?:that|it)\s+wrong|"
                r"(?:i\s+)?mixed\s+up\s+my\s+words|(?:i\s+)?got\s+my\s+words"
                r"\s+mixed\s+up|my\s+(?:bad|mistake)|typo|(?:i\s+)?mis-?spoke|slip\s+of\s+the"
                r"\s+(?:tongue|keyboard))")
#: Where it names the slip: "I said Galaxy S23?", "the bit where I said Rotterdam", "the
#: low-FODMAP thing I wrote".
_SLIP_NAMED = (rf"(?:\b(?i:i\s+(?:said|wrote|typed|put|mentioned))\s+(?:(?i:an?|the)\s+)?"
               rf"(?P<wrong>{_SAID_VALUE})|\b(?i:the)\s+(?P<thing>{_SAID_VALUE})\s+"
               r"(?i:thing|bit|part)\s+(?i:i\s+(?:said|wrote|typed|mentioned)))")
#: "Ignore the bit where I said Rotterdam; the city is Buenos Aires", "Wait, I said Galaxy
#: S23? It's a Pixel 7, my bad", "Brain fart earlier - the language is PHP": a slip owned
#: or named, then the right value said again as "it's X" or "the <slot> is X".
_RESTATED = re.compile(
    rf"^(?P<cue>[^.!?;:\u2013\u2014]*?)(?:[.!?;:,]+|\s+[-\u2013\u2014]+)\s*"
    rf"(?i:it's|it\s+is|it\s+was|the\s+{SLOT_LABELS}\s+(?:is|was))\s+"
    rf"(?:(?i:actually|really)\s+)?(?:(?i:an?|the)\s+)?(?P<right>{_SAID_VALUE}|{_LOWER_WORDS})"
    r"\s*(?=[,.!?;]|$)")
#: What makes a restated value one side of a contrast: ", not paleo", "rather than".
_CONTRASTED = re.compile(rf"\s*,?\s*(?i:not|rather\s+than|instead\s+of)\b(?:\s+(?:(?i:an?|the)\s+)?"
                         rf"(?P<wrong>{_SAID_VALUE})(?=\s*(?:[,.!?;]|$)))?")


def plain_correction(message: str) -> str | None:
    """``message`` with a correction in chat's shorthand said plainly, or None if it holds
    none: "*Elixir. no idea why I said Erlang" -> "Sorry, I meant Elixir, not Erlang.";
    "wait i wrote Rust? meant Go" -> "Sorry, I meant Go, not Rust."; "ugh, meant Kotlin not
    Java" -> "Sorry, I meant Kotlin not Java". :func:`correction` reads the plain form. What
    else the message says is kept after it, so a correction never swallows the next fact.

    >>> plain_correction("lol *Gunnar. I typed Ingrid by mistake")
    'Sorry, I meant Gunnar, not Ingrid.'
    >>> plain_correction("*Elixir. no idea why I said Erlang. Also I moved to Porto.")
    'Sorry, I meant Elixir, not Erlang. Also I moved to Porto.'
    >>> plain_correction("I wrote this * that") is None
    True
    """
    starred = _STARRED.search(message)
    if starred is not None:
        right = _TRAILING_HEDGE.sub("", starred["right"].strip())  # "*Mercado Pago actually"
        typed = _TYPED.search(message, starred.end())
        wrong = typed["wrong"].strip() if typed is not None else None
        if wrong is not None and typed is not None and wrong.lower() != right.lower():
            rest = message[starred.end():_sentence_start(message, typed.start())]
            rest += message[_sentence_end(message, typed.end()):]
            return _with_rest(f"Sorry, I meant {right}, not {wrong}.", rest)
        if right[:1].isupper() or right[:1].isdigit():  # a name: "*Porto", not "*this* song"
            return _with_rest(f"Sorry, I meant {right}.", message[starred.end():])
    slip = _WROTE_MEANT.search(message)
    if slip is not None and slip["wrong"].lower() != slip["right"].lower():
        return _with_rest(f"Sorry, I meant {slip['right']}, not {slip['wrong']}.",
                          message[_sentence_end(message, slip.end()):],
                          before=message[:_sentence_start(message, slip.start())])
    bare = _BARE_MEANT.search(message)
    if bare is not None:
        return "Sorry, I meant " + _THERE.sub("", message[bare.end():].strip(), count=1)
    return _restated(message)


def _restated(message: str) -> str | None:
    """"Ignore the bit where I said Rotterdam; the city is Buenos Aires" -> "Sorry, I meant
    Buenos Aires, not Rotterdam."; "Brain fart earlier - the language is PHP" -> "Mixed up my
    words, it's PHP." (the slip is then the last value said in a slot PHP fills). A cue that only
    apologises ("Sorry, it's raining") owns no slip: nothing is restated.

    >>> _restated("Wait, I said Galaxy S23? It's a Pixel 7, my bad.")
    'Sorry, I meant Pixel 7, not Galaxy S23. my bad.'
    >>> _restated("Brain fart earlier - the language is PHP.")
    "Mixed up my words, it's PHP."
    >>> _restated("Sorry, it's raining.") is None
    True
    """
    said = _RESTATED.search(message)
    if said is None:
        return None
    right, cue = said["right"].strip(), said["cue"]
    contrast = _CONTRASTED.match(message, said.end())
    if contrast is not None:
        # "oops said that wrong - it's principal engineer, not staff": owned, and contrasted
        if contrast["wrong"] is None or re.search(_SLIP_OWNING, cue) is None:
            return None  # "typo earlier, it's gluten-free, not paleo" reads as it is
        wrong = contrast["wrong"].strip()
        return _with_rest(f"Sorry, I meant {right}, not {wrong}.",
                          message[contrast.end():].lstrip(" .!?"))
    if re.fullmatch(_LOWER_WORDS, right):
        return None  # "I said Leeds? It's a long story": words, not a value, unless contrasted
    named = re.search(_SLIP_NAMED, cue)
    wrong = (named["wrong"] or named["thing"]).strip() if named is not None else None
    if wrong is None and re.search(_SLIP_OWNING, cue) is None:
        return None
    if wrong is not None and wrong.lower() == right.lower():
        return None
    # the slip owned in the plain form too: a lower-case value then counts as a name
    plain = f"Sorry, I meant {right}, not {wrong}." if wrong \
        else f"Mixed up my words, it's {right}."
    return _with_rest(plain, message[said.end():].lstrip(" .!?"))


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence holding offset ``at`` begins (after the last stop before it)."""
    return max(text.rfind(stop, 0, at) for stop in ".!?") + 1


def _sentence_end(text: str, at: int) -> int:
    """Where the sentence holding offset ``at`` ends (after its stop, or the text's end)."""
    stops = [i for stop in ".!?" if (i := text.find(stop, at)) != -1]
    return min(stops) + 1 if stops else len(text)


def _with_rest(plain: str, after: str, before: str = "") -> str:
    """The plain correction in the place of the shorthand, between what was said around it."""
    return " ".join(part for part in (before.strip(), plain, after.strip(" \t\n,;:-")) if part)
