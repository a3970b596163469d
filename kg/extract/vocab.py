"""The word lists the method-term rules use, kept as data files next to this module.

`lexicon.txt` common methods; `heads.txt` technique-phrase heads; `weak.txt` empty modifiers;
`generic.txt` words that are never a term alone; `verbs.txt` words that end a phrase when the
pipeline has no POS tags; `mined_heads.txt` heads learned from SciERC's training split
(`mining.py`): `method:` heads join the technique-phrase heads, `other:` heads (tasks, materials,
metrics) end no method term; `datasets.txt` data sets and benchmarks (the second concept kind);
`not_methods.txt` hardware, organisations and hype, never a method. Each file: one entry a line, `#` starts a comment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from spacy.lang.en.stop_words import STOP_WORDS

from kg.extract.normalize import concept_text

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
    datasets: tuple[str, ...] = ()  # names as written, long and short forms of pairs included
    dataset_pairs: tuple[tuple[str, str], ...] = ()
    dataset_names: frozenset[str] = frozenset()  # the one-word names among `datasets`, as written
    #: (name, canonical name) for every listed data set: from `A = B = C` lines, each of B and C
    #: with A; every other name with itself (`concepts` folds a name's spellings into it)
    dataset_aliases: tuple[tuple[str, str], ...] = ()
    not_methods: frozenset[str] = frozenset()  # concept texts (`normalize.concept_text`)
    mined_heads: frozenset[str] = frozenset()  # the heads only `mined_heads.txt` gives (`method:` lines)
    hardware: frozenset[str] = frozenset()  # concept texts of hardware names, which also end a term they start
    not_name_words: frozenset[str] = frozenset()  # words of organisation, place and language names, as written


def _lines(name: str) -> list[str]:
    text = resources.files("kg.extract").joinpath(name).read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else "" for line in text.splitlines())
    return [line for line in lines if line]


def _lexicon(name: str = "lexicon.txt") -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The terms of a list file and its `long (SHORT)` pairs; an `A = B` line lists both names."""
    terms: list[str] = []
    pairs: list[tuple[str, str]] = []
    for line in _lines(name):
        match = _PAIR.match(line)
        if " = " in line:
            terms += _names(line)
        elif match:
            terms += [match["long"], match["short"]]
            pairs.append((match["short"], match["long"]))
        else:
            terms.append(line)
    return tuple(terms), tuple(pairs)


def _names(line: str) -> list[str]:
    """The names of one `datasets.txt` line: `A = B = C`, or one name (the long form of a pair)."""
    match = _PAIR.match(line)
    return [match["long"]] if match else [name.strip() for name in line.split(" = ")]


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
    listed = heads | generic_heads
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
    datasets, dataset_pairs = _lexicon("datasets.txt")
    aliases = [(alias, names[0]) for names in (_names(line) for line in _lines("datasets.txt")) for alias in names]
    not_methods, hardware, not_name_words = set(), set(), set()
    for line in _lines("not_methods.txt"):
        kind, _, term = line.partition(":")
        if kind == "name":
            not_name_words.add(term.strip())
            continue
        not_methods.add(concept_text(term.strip()))
        if kind == "hardware":
            hardware.add(concept_text(term.strip()))
    return Vocabulary(
        lexicon=lexicon,
        lexicon_pairs=pairs,
        heads=frozenset(heads | generic_heads),
        generic_heads=frozenset(generic_heads),
        non_heads=frozenset(non_heads),
        mined_heads=frozenset((heads | generic_heads) - listed),
        weak=frozenset(_lines("weak.txt")),
        generic=generic,
        verbs=frozenset(_lines("verbs.txt")),
        stop_words=frozenset(STOP_WORDS),
        datasets=datasets,
        dataset_pairs=dataset_pairs,
        dataset_names=frozenset(d for d in datasets if " " not in d),
        dataset_aliases=tuple(aliases),
        not_methods=frozenset(not_methods),
        hardware=frozenset(hardware),
        not_name_words=frozenset(not_name_words),
    )
