"""The rule families: verb rules grouped by what they are about.

Each family is a module that exports three things, read by
:mod:`graphmem.extract.rules.dispatch` and :mod:`graphmem.extract.rules.gate`:

- ``RULES``: its verb rules by lemma (a clause whose verb has that lemma is
  handed to each rule in turn);
- ``TRIGGERS``: words, beside those lemmas' own forms, that make a sentence
  worth parsing for its rules;
- ``PATTERNS``: regular expressions that make a sentence worth parsing.

Families take what they share from the base modules below them (clause,
lexicon, phrases, slots, terms), never from each other. Sentence-level readers
(noun phrases, lessons, surface patterns) are called by the dispatcher by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from graphmem.extract.rules.clause import Rule
from graphmem.extract.rules.families import (
    change, chat, copula, diet, events, health, home, intent, leaving, lesson, lexical, life,
    loss, manager, mentions, nouns, prefs, school, states, work)


class Family(Protocol):
    """What a family module exports (a module satisfies this Protocol)."""

    RULES: Mapping[str, tuple[Rule, ...]]
    TRIGGERS: frozenset[str]
    PATTERNS: tuple[re.Pattern[str], ...]


#: Every family, in the order its verb rules run for a lemma several families read.
FAMILIES: tuple[Family, ...] = (work, leaving, life, home, school, events, prefs, intent, states,
                                diet, health, manager, change, loss, copula, nouns, lesson, lexical,
                                chat, mentions)
