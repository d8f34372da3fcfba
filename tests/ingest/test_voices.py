"""voices.py: the view of an episode its extractor reads (who says "I"); the stored
episode is never changed."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.ingest.voices import as_told, speaker_of
from graphmem.models import Episode, Message

WHEN = datetime(2024, 6, 1, tzinfo=UTC)


def _episode(**fields: object) -> Episode:
    return Episode(tenant="t", scope_key="user:u77", reference_time=WHEN, **fields)  # type: ignore[arg-type]


def test_unnamed_user_messages_are_said_by_a_known_name_only() -> None:
    sent = _episode(messages=[Message(content="I moved to Bergen."),
                              Message(role="assistant", content="Nice!"),
                              Message(speaker="Bob", content="Me too.")])
    told = as_told(sent, "Maria", known=True)
    assert [m.speaker for m in told.messages] == ["Maria", None, "Bob"]
    assert [m.speaker for m in sent.messages] == [None, None, "Bob"]  # as sent
    assert as_told(sent, "u77", known=False) is sent


def test_a_text_is_the_user_s_unless_it_is_a_transcript() -> None:
    own = as_told(_episode(source="text", content="I drive a Volvo."), "Maria", known=True)
    assert [(m.speaker, m.content) for m in own.messages] == [("Maria", "I drive a Volvo.")]
    pasted = as_told(_episode(source="text", content="Sam: I moved.\nBob: I stayed."), "u77",
                     known=False)
    assert [(m.speaker, m.content) for m in pasted.messages] == [("Sam", "I moved."),
                                                                 ("Bob", "I stayed.")]
    plain = _episode(source="text", content="I drive a Volvo.")
    assert as_told(plain, "u77", known=False) is plain


def test_self_is_the_episode_s_own_speaker() -> None:
    assert speaker_of("Maria", "SELF") == speaker_of("Maria", None) == "Maria"
    assert speaker_of("Maria", "Bob") == "Bob"
    # an unnamed user's relative is the speaker's (the placeholder never becomes a name)
    assert speaker_of("Maria", "SELF's dad") == "Maria's dad"
