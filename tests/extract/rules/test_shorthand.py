"""Chat's shorthand for a correction, said plainly (rules.shorthand); where the plain form
lands is in test_contrast and test_corrections."""

from __future__ import annotations

from graphmem.extract.rules.shorthand import plain_correction


def test_a_slip_named_at_a_sentence_end_is_the_value_alone() -> None:
    """"why I said Erlang. Also I ..." names Erlang, not "Erlang. Also I"; a dot inside a
    name ("Node.js") stays in it."""
    assert plain_correction("*Elixir. no idea why I said Erlang. Also I moved to Porto.") == (
        "Sorry, I meant Elixir, not Erlang. Also I moved to Porto.")
    assert plain_correction("i typed Node.js, meant Deno") == "Sorry, I meant Deno, not Node.js."


def test_a_slip_owned_then_restated_is_said_plainly() -> None:
    """A slip named or owned, then the value again: the plain form names both or the right one;
    an apology alone, or words that are no value, say nothing."""
    assert plain_correction("Ignore the bit where I said Leeds; the city is York.") == (
        "Sorry, I meant York, not Leeds.")
    assert plain_correction("Brain fart earlier: the language is Kotlin.") == (
        "Mixed up my words, it's Kotlin.")
    assert plain_correction("Sorry, it's raining.") is None
    assert plain_correction("I said Leeds? It's a long story.") is None
