"""The offline rule extractor: spaCy parses read by hand-written rules.

:mod:`.extractor` runs an episode through the sentence :mod:`.gate`, the
parser and :mod:`.dispatch`, which hands each clause to the verb rules of the
:mod:`.families`. Below them sit the shared pieces every family reads:
:mod:`.clause` (who speaks about whom), :mod:`.lexicon` (word lists and tree
helpers), :mod:`.phrases` (object phrases), :mod:`.slots` (single-valued slots),
:mod:`.terms` (technical terms) and :mod:`.timeexpr` (time expressions);
:mod:`.render` words the facts and :mod:`.language` keeps the rules to English.
"""

from graphmem.extract.rules.extractor import RuleExtractor

__all__ = ["RuleExtractor"]
