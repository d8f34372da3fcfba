"""Names people shorten: the last or first words of a name for the whole ("the Focus" is the
"Ford Focus"), and a firm by its first words ("Halvorsen" is "Halvorsen Analytics")."""

from __future__ import annotations

import pytest

from graphmem.ingest.shortnames import begun_by, shortened


@pytest.mark.parametrize(("short", "full"), [
    ("Focus", "Ford Focus"), ("the Pixel", "Pixel 8"), ("my watercolours", "watercolour painting"),
    ("Nimbus", "Nimbus Cloudworks"),
])
def test_words_left_off_either_end_shorten_a_name(short: str, full: str) -> None:
    assert shortened(short, full)


@pytest.mark.parametrize(("short", "full"), [
    ("Ford", "Ford"),              # the whole name is no short form
    ("Cloud", "Nimbus Cloudworks"),  # part of a word
    ("Focus", "Ford Focus Estate"),  # a middle word
    ("glass", "glasses"),
])
def test_other_words_do_not(short: str, full: str) -> None:
    assert not shortened(short, full)


def test_a_firm_named_by_its_first_words_is_the_one_that_begins_with_them() -> None:
    names = ["Tromsø", "Vestland Kraft AS", "Vestfold"]
    assert begun_by("Vestland", names) == 1
    assert begun_by("vestland kraft", names) == 1
    assert begun_by("  Vestland ", names) == 1


@pytest.mark.parametrize("short", ["Vest", "Kraft", "Vestland Kraft AS", "", "Nordic"])
def test_no_name_or_a_whole_name_begins_nothing(short: str) -> None:
    assert begun_by(short, ["Vestland Kraft AS", "Tromsø"]) is None


def test_two_names_with_the_same_start_leave_it_open() -> None:
    assert begun_by("Acme", ["Acme Labs", "Acme Foods"]) is None
