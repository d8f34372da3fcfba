"""Technical advice worth keeping (families.lesson)."""

from __future__ import annotations

from graphmem.extract.rules import RuleExtractor
from graphmem.models import Category
from tests.extract.rules.conftest import fact, said


def test_lesson_keeps_the_advice(extractor: RuleExtractor) -> None:
    lesson = fact(said(extractor, "The Docker build failed because of the network; use proxy-env.",
                       speaker="Alice"), "LESSON")
    assert lesson.category is Category.LESSON
    assert lesson.importance >= 0.8
    assert "use proxy-env" in lesson.text and lesson.text.startswith("Lesson for Docker:")
