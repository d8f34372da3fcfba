"""What a move or a stay names (extract.rules.moves): here, whether a name the tagger took
for a town is a firm, the question the employer rules and the endings both ask."""

from __future__ import annotations

from graphmem.extract.rules.moves import firm_not_town

TOWNS = frozenset({"madrid", "lagos", "cape town"})


def test_an_unknown_town_in_talk_of_work_is_a_firm() -> None:
    assert firm_not_town("Tinkoff", "left Tinkoff last month, now contracting for Wolt", TOWNS)


def test_a_known_town_is_never_a_firm() -> None:
    assert not firm_not_town("Madrid", "left Madrid, my job there was killing me", TOWNS)
    assert not firm_not_town("Cape Town", "moved jobs and left Cape Town", TOWNS,
                             other_signs=True)


def test_without_talk_of_work_only_another_sign_makes_it_a_firm() -> None:
    assert not firm_not_town("Cabify", "first week in Spain, loving it", TOWNS)
    assert firm_not_town("Cabify", "first week in Spain, loving it", TOWNS, other_signs=True)


def test_without_a_gazetteer_nothing_is_taken_for_a_firm() -> None:
    assert not firm_not_town("Tinkoff", "left Tinkoff, now contracting for Wolt", frozenset(),
                             other_signs=True)
