"""The sentence gate: what is worth parsing, and the diary-style subject put back first."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.gate import Gate, split_sentences, with_subject
from graphmem.models import Message
from tests.extract.rules.conftest import episode, gold_rows, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("Replaced my Galaxy S24 with a Pixel 8.", "I replaced my Galaxy S24 with a Pixel 8."),
    ("Got a new phone, a Pixel 8.", "I got a new phone, a Pixel 8."),
    ("Just moved into a flat in Cape Town.", "I just moved into a flat in Cape Town."),
    ("Finally settled in Prague.", "I finally settled in Prague."),
    ("Call mom on Friday.", "Call mom on Friday."),
    ("Need to call mom.", "Need to call mom."),
    ("I moved to Oslo.", "I moved to Oslo."),
    ("Paris is lovely.", "Paris is lovely."),
    ("Currently living in Denver.", "I'm currently living in Denver."),
    ("Losing my job was hard.", "Losing my job was hard."),
    ("Starting a business takes courage.", "Starting a business takes courage."),
    ("not vegan anymore, doing keto now", "I'm not vegan anymore, doing keto now"),
    ("Not to brag, but I won.", "Not to brag, but I won."),
    ("Now on a vegan diet, wish me luck", "I'm now on a vegan diet, wish me luck"),
    ("On the fence about it.", "On the fence about it."),
    ("Oh and \u2014 Moved to Gdansk in March.", "Oh and \u2014 I moved to Gdansk in March."),
    ("btw - sold the Corolla.", "btw - I sold the Corolla."),
    ("gone pescatarian, fingers crossed", "I've gone pescatarian, fingers crossed"),
    ("hey! moved to Porto last week", "hey! I moved to Porto last week"),
    ("Separately, switched to decaf.", "Separately, I switched to decaf."),
    ("Gone are the days.", "Gone are the days."),
])
def test_with_subject(text: str, expected: str) -> None:
    assert with_subject(text) == expected


@pytest.mark.parametrize("text", ["I'm with Globex now.", "I'm not at Cyberdyne anymore.",
                                  "I'm unemployed for now.", "I eat pescatarian.",
                                  "Home for me is Kyoto.", "Our daughter Mia was born in May."])
def test_change_sentences_pass_the_gate(text: str) -> None:
    assert Gate().worth_parsing(text)


def test_gate_changes_nothing_on_the_gold_set(extractor: RuleExtractor) -> None:
    """Skipping sentences before parsing is an optimisation only."""
    ungated = RuleExtractor(prefilter=False)
    for r in gold_rows():
        ep = episode(Message(id="m", speaker=r["speaker"], content=str(r["text"])))  # type: ignore[arg-type]
        assert triples(extractor.extract(ep, [])) == triples(ungated.extract(ep, [])), r["text"]


@pytest.mark.parametrize(("text", "pieces"), [
    # chat's lower-case sentence openings end the sentence before them
    ("hey im zoe lol. omg just got a puppy", ["hey im zoe lol.", "omg just got a puppy"]),
    # an abbreviation, a time of day and a lower-case word after a capital's dot do not
    ("I start at 9 a.m. tomorrow", ["I start at 9 a.m. tomorrow"]),
    ("we moved to St. albans last year", ["we moved to St. albans last year"]),
    ("I use vim, emacs etc. and more", ["I use vim, emacs etc. and more"]),
])
def test_sentences_are_split_where_chat_ends_them(text: str, pieces: list[str]) -> None:
    assert split_sentences(text) == pieces
