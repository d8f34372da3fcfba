"""transcript.py: a pasted transcript's lines go to their speakers."""

from __future__ import annotations

import doctest

from graphmem.ingest import transcript
from graphmem.ingest.transcript import transcript_lines


def test_doctests() -> None:
    assert doctest.testmod(transcript).failed == 0


def test_a_turn_may_run_over_lines_and_labels_are_not_speakers() -> None:
    assert transcript_lines("Caroline: I got a job.\nIt is at Google.\n\nMel: Congrats!") == [
        ("Caroline", "I got a job. It is at Google."), ("Mel", "Congrats!")]
    assert transcript_lines("Note: call Bob.\nTodo: buy milk.") is None
    assert transcript_lines("I live in Oslo.\nSam: hi\nBob: hey") is None  # prose first
    assert transcript_lines("Mary Ann Smith: hello\nDr. Who: hi") == [
        ("Mary Ann Smith", "hello"), ("Dr. Who", "hi")]
