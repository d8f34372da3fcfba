"""TokenCounter with the real MiniLM tokenizer, offline."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.embed.tokens import TokenCounter
from graphmem.errors import ModelIntegrityError


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    counter = TokenCounter()
    counter.load()
    return counter


@pytest.fixture(scope="module")
def exact() -> TokenCounter:
    return TokenCounter(multiplier=1.0)


def test_counts_wordpieces_without_special_tokens(exact: TokenCounter) -> None:
    assert exact.count("") == 0
    assert exact.count("Caroline moved to Berlin in May.") == 7  # caroline moved to berlin in may .
    assert exact.count("I'm swamped") == 5  # i ' m swamp ##ed


def test_default_multiplier_rounds_up(counter: TokenCounter, exact: TokenCounter) -> None:
    text = "Caroline moved to Berlin in May."
    assert counter.count(text) == 8  # ceil(7 * 1.1)
    assert TokenCounter(multiplier=1.5).count(text) == 11  # ceil(10.5)
    assert exact.count("ten words " * 100) == 200
    assert counter.count("ten words " * 100) == 220  # no float noise: 200 * 1.1 is not 221


def test_long_input_is_not_capped(exact: TokenCounter) -> None:
    # the shipped tokenizer.json truncates to 128; counting must not
    assert exact.count("memory " * 1000) == 1000


def test_chinese_counts_about_one_token_per_character(exact: TokenCounter) -> None:
    text = "我喜欢编程，也喜欢在周末去公园散步。"
    assert exact.count(text) == len(text) == 18


def test_japanese_and_korean_are_counted(exact: TokenCounter) -> None:
    assert exact.count("こんにちは世界") >= 7
    assert exact.count("안녕하세요") >= 5


def test_unknown_pieces_cost_by_length(exact: TokenCounter) -> None:
    # an unsplittable 150-character word is a single [UNK] to WordPiece, ~75 tokens to an LLM
    assert exact.count("x" * 150) == 75
    assert exact.count("😀🎉 party") == 3  # one [UNK] covering two emoji, plus "party"
    assert exact.count("สวัสดีครับ") == 10


def test_truncate_keeps_whole_words(counter: TokenCounter) -> None:
    text = "Caroline moved to Berlin in May. She loves extraordinarily complicated paintings."
    assert counter.truncate(text, 1000) == text
    assert counter.truncate(text, 0) == ""
    assert counter.truncate(text, 6) == "Caroline moved to Berlin in"
    # "extraordinarily" is several pieces: it is dropped whole rather than cut
    assert counter.truncate(text, 12) == "Caroline moved to Berlin in May. She loves"


def test_truncate_cuts_inside_a_word_only_when_nothing_else_fits(exact: TokenCounter) -> None:
    assert exact.truncate("extraordinarily", 1) != ""
    assert "extraordinarily".startswith(exact.truncate("extraordinarily", 1))


def test_truncate_chinese(exact: TokenCounter) -> None:
    assert exact.truncate("我喜欢编程，也喜欢散步。", 5) == "我喜欢编程"


def test_negative_budget_is_rejected(counter: TokenCounter) -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        counter.truncate("hello", -1)


@pytest.mark.parametrize("multiplier", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_multiplier_is_rejected(multiplier: float) -> None:
    with pytest.raises(ValueError, match="multiplier"):
        TokenCounter(multiplier=multiplier)


def test_tampered_tokenizer_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "tokenizer.json"
    fake.write_text("{}")
    with pytest.raises(ModelIntegrityError, match="tokenizer.json does not match its pinned sha256"):
        TokenCounter(tokenizer_path=fake).count("hello")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200), budget=st.integers(min_value=0, max_value=60))
def test_truncate_gives_a_prefix_within_budget(counter: TokenCounter, text: str, budget: int) -> None:
    cut = counter.truncate(text, budget)
    assert text.startswith(cut)
    assert counter.count(cut) <= budget
    if counter.count(text) <= budget:
        assert cut == text
