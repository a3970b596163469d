"""The word lists the method-term rules use, kept as data files next to this module.

`lexicon.txt` common methods; `heads.txt` technique-phrase heads; `weak.txt` empty modifiers;
`generic.txt` words that are never a term alone; `verbs.txt` words that end a phrase when the
pipeline has no POS tags; `mined_heads.txt` heads learned from SciERC's training split
(`mining.py`): `method:` heads join the technique-phrase heads, `other:` heads (tasks, materials,
metrics) end no method term. Each file: one entry a line, `#` starts a comment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from spacy.lang.en.stop_words import STOP_WORDS

_PAIR = re.compile(r"^(?P<long>.+?)\s*\((?P<short>[^()\s]+)\)$")


@dataclass(frozen=True)
class Vocabulary:
    """The loaded word lists. All single words are lower-case and singular."""

    lexicon: tuple[str, ...]
    lexicon_pairs: tuple[tuple[str, str], ...]  # (short form, long form) from `long (SHORT)` lines
    heads: frozenset[str]
    generic_heads: frozenset[str]
    non_heads: frozenset[str]  # heads of tasks, materials, metrics: never a method's
    weak: frozenset[str]
    generic: frozenset[str]
    verbs: frozenset[str]
    stop_words: frozenset[str]


def _lines(name: str) -> list[str]:
    text = resources.files("kg.extract").joinpath(name).read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else "" for line in text.splitlines())
    return [line for line in lines if line]


def _lexicon() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    terms: list[str] = []
    pairs: list[tuple[str, str]] = []
    for line in _lines("lexicon.txt"):
        match = _PAIR.match(line)
        if match:
            terms += [match["long"], match["short"]]
            pairs.append((match["short"], match["long"]))
        else:
            terms.append(line)
    return tuple(terms), tuple(pairs)


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The vocabulary, read once per process."""
    lexicon, pairs = _lexicon()
    heads, generic_heads, non_heads = set(), set(), set()
    for line in _lines("heads.txt"):
        if line.startswith("generic:"):
            generic_heads.add(line.split(":", 1)[1].strip())
        else:
            heads.add(line)
    generic = frozenset(_lines("generic.txt"))
    for line in _lines("mined_heads.txt"):
        kind, _, head = line.partition(":")
        head = head.strip()
        if kind == "other":
            non_heads.add(head)
        elif head in generic:  # `model`, `module`: a head only with an informative modifier
            generic_heads.add(head)
        else:
            heads.add(head)
    heads -= non_heads
    generic_heads -= non_heads
    return Vocabulary(
        lexicon=lexicon,
        lexicon_pairs=pairs,
        heads=frozenset(heads | generic_heads),
        generic_heads=frozenset(generic_heads),
        non_heads=frozenset(non_heads),
        weak=frozenset(_lines("weak.txt")),
        generic=generic,
        verbs=frozenset(_lines("verbs.txt")),
        stop_words=frozenset(STOP_WORDS),
    )
