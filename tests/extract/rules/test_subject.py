"""The subject chat drops, put back before parsing (``with_subject``)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules.subject import with_subject


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
    ("Currently, living in Denver.", "Currently, I'm living in Denver."),
    ("Still, on keto after all this time", "Still, I'm on keto after all this time"),
    ("Not vegan anymore.", "I'm not vegan anymore."),
    ("don't forget the milk", "don't forget the milk"),
    ("dont eat meat these days", "I dont eat meat these days"),
    ("going keto starting today. is that ok?", "I'm going keto starting today. is that ok?"),
    ("Going to the gym", "Going to the gym"),
])
def test_with_subject(text: str, expected: str) -> None:
    assert with_subject(text) == expected
