"""What surrounds a job title said with "to be" (extract.rules.titled): where it is held,
the town worked in, the title the parser hid in a modifier, and the title a sentence says
instead of a denied one. On parses of the real pipeline."""

from __future__ import annotations

from spacy.tokens import Token

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.titled import (occupation_read_as_modifier, title_instead,
                                           town_of_work, workplaces)


def _word(extractor: RuleExtractor, text: str, word: str) -> Token:
    return next(t for t in extractor.load()(text) if t.text == word)


def test_a_title_is_held_at_a_firm_not_at_a_town(extractor: RuleExtractor) -> None:
    nurse = _word(extractor, "I'm a nurse at the clinic on Elm Street.", "nurse")
    assert [t.text for t in workplaces(nurse, nurse.head)] == ["the clinic on Elm Street"]
    welder = _word(extractor, "I'm a welder at Boston.", "welder")
    assert workplaces(welder, welder.head) == []


def test_the_town_worked_in_is_read_without_an_employer(extractor: RuleExtractor) -> None:
    chef = _word(extractor, "I'm a sous chef in Bilbao.", "chef")
    assert [t.text for t in town_of_work(chef)] == ["Bilbao"]
    chef = _word(extractor, "I'm a sous chef with a passion for bread.", "chef")
    assert town_of_work(chef) == []


def test_the_occupation_hidden_in_a_modifier_is_found(extractor: RuleExtractor) -> None:
    # the parser reads "a paramedic doing night shifts" as shifts of a kind
    shifts = _word(extractor, "I'm a paramedic doing night shifts.", "shifts")
    assert shifts.dep_ == "attr"
    found = occupation_read_as_modifier(shifts)
    assert found is not None and found.text == "paramedic"
    plain = _word(extractor, "I'm a paramedic.", "paramedic")
    assert occupation_read_as_modifier(plain) is None


def test_a_denied_title_with_the_right_one_beside_it(extractor: RuleExtractor) -> None:
    denied = _word(extractor, "I'm not a cashier, I'm a store manager.", "cashier").head
    assert title_instead(denied)
    alone = _word(extractor, "I'm not a cashier, I just help out on weekends.", "cashier").head
    assert not title_instead(alone)
    other = _word(extractor, "I'm not a cashier, she is a store manager.", "cashier").head
    assert not title_instead(other)
