"""A switch said as an idiom, "made the jump to X" (families.chat.switched)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("made the jump to the Pixel 6", ("Bob", "HAS_PHONE", "Pixel 6", "assert")),
    ("made the jump to a Toyota, bye bye bus", ("Bob", "DRIVES", "Toyota", "assert")),
    ("I switched over to Go.", ("Bob", "MAIN_LANGUAGE", "Go", "assert")),  # "Go" a verb
    ("made the switch to keto and feel great", ("Bob", "DIET", "keto", "assert")),
    ("finally made the move to dublin 🙌", ("Bob", "LIVES_IN", "Dublin", "assert")),
    ("I jumped ship to Stripe, the old job was killing me.",
     ("Bob", "WORKS_AT", "Stripe", "assert")),
    ("out of Dublin and into Barcelona! new city, new everything",
     ("Bob", "LIVES_IN", "Dublin", "retract")),
    ("out of Dublin and into Barcelona! new city, new everything",
     ("Bob", "LIVES_IN", "Barcelona", "assert")),
    ("the team switched to python so that's me now", ("Bob", "MAIN_LANGUAGE", "Python", "assert")),
    # a name one jumps to is a firm; firms in lower case, when the message says a job began
    ("made the jump to Deloitte. Still learning everyone's names",
     ("Bob", "WORKS_AT", "Deloitte", "assert")),
    ("out of mapleleaf logistics and into ocado! first day was a blur.",
     ("Bob", "WORKS_AT", "ocado", "assert")),
    ("out of mapleleaf logistics and into ocado! first day was a blur.",
     ("Bob", "WORKS_AT", "mapleleaf logistics", "retract")),
])
def test_the_value_switched_to_in_its_slot(extractor: RuleExtractor, text: str,
                                          expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "We might make the move to Berlin.", "we might have made the move to Berlin",
    "I never made the switch to keto.", "I made the jump to management.",
    # a maker's name alone may be the employer, and "jump" is no move of home
    "finally made the jump to Toyota, and honestly I love it so far",
    "out of money and into debt", "the team switched to Jira so that's me now learning it",
])
def test_no_switch_where_none_was_made_or_the_slot_is_unclear(extractor: RuleExtractor,
                                                             text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[3] == "assert"}
