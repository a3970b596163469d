"""Which kind a mention is, decided over the whole corpus before linking (`concepts._link_both`).

The component marks methods and data sets paper by paper; some choices need the corpus:

* a data-set mention is kept when it can be a name (`datasets.is_name`) and is no method of the
  corpus (`dataset_mentions`);
* a method mention is dropped when it is hype, a web address or a data set (`method_mentions`).

Both work on the papers' reduced records (`concepts._Found`: `key`, `acronyms`, `uses`, `capitals`,
`dataset_acronyms`, `datasets`) and return records of the same type.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from kg.extract.component import bare_short_form
from kg.extract.datasets import is_address, is_name
from kg.extract.normalize import concept_key, name_key, squashed
from kg.extract.rules import is_hype
from kg.extract.vocab import vocabulary

#: A data-set name is a method's when at least this many papers have it as a method (`dataset_mentions`).
METHOD_PAPERS = 3


def dataset_mentions(found: Sequence[Any], method_shorts: Mapping[str, str]) -> list[Any]:
    """Per paper, a record of its data sets (definitions as `acronyms`, mentions as `uses`): the
    mentions that name a data set (`datasets.is_name`) and are no method of the corpus.

    A listed name always is one; any other is a method when its short form is one of
    `method_shorts` (short forms that papers define with a lower-case long form, or the lexicon
    does: `offline RL benchmarks`; a capitalised long form may name a data set) and no paper's or
    list's data set, or when `METHOD_PAPERS` papers or more have it as a method, over twice as many
    as have it as a data set (`BERT on MNLI`).
    """
    vocab = vocabulary()
    listed = _listed()
    dataset_shorts = {bare_short_form(short) for f in found for short, _ in f.dataset_acronyms}
    dataset_shorts.update(bare_short_form(short) for short, _ in vocab.dataset_pairs)
    as_method = Counter(key for f in found  # names only: a lower-case data set is never voted off
                        for key in {concept_key(u.text) for u in f.uses if not u.text.islower()})
    as_dataset = Counter(key for f in found for key in {name_key(u.text) for u in f.datasets})

    def named(text: str) -> bool:
        if not is_name(text, vocab):
            return False
        key = name_key(text)
        if _flat_key(text) in listed:
            return True
        bare = bare_short_form(text)
        methods = as_method[concept_key(text)]
        return not (bare in method_shorts and bare not in dataset_shorts) \
            and not (methods >= METHOD_PAPERS and methods > 2 * as_dataset[key])

    return [f._replace(acronyms=f.dataset_acronyms, uses=tuple(u for u in f.datasets if named(u.text)),
                       capitals=(), dataset_acronyms=(), datasets=()) for f in found]


def method_mentions(found: Sequence[Any], datasets: Sequence[Any]) -> list[Any]:
    """The papers' records without method mentions and definitions that are hype (`SOTA`,
    `state-of-the-art methods (SOTA)`: else every bare `SOTA` of the corpus would be that method),
    web addresses or data sets: a listed data set's name in any spelling (`Deepmind Control
    Suite`), a data set of the same paper (`datasets`, from `dataset_mentions`), or a name (a
    capital or a digit) that at least as many papers of the corpus have as a data set as have it
    as a method."""
    key_of, listed = _flat_key, _listed()
    in_paper = [{key_of(u.text) for u in f.uses} for f in datasets]
    as_dataset = Counter(key for keys in in_paper for key in keys)
    as_method = Counter(key for f, keys in zip(found, in_paper)
                        for key in {key_of(u.text) for u in f.uses if not u.text.islower()} - keys)

    def method(text: str, paper_datasets: set[str]) -> bool:
        if is_address(text) or hyped(text):
            return False
        if text.islower():  # no name
            return True
        key = key_of(text)
        return key not in listed and key not in paper_datasets \
            and (not any(map(str.isalnum, text)) or as_dataset[key] < as_method[key])

    def kept(f: Any, paper_datasets: set[str]) -> Any:
        """The record without what is no method; the record itself when that is nothing (most)."""
        uses = tuple(u for u in f.uses if method(u.text, paper_datasets))
        acronyms = tuple(pair for pair in f.acronyms if not hyped(pair[0]) and not hyped(pair[1]))
        if len(uses) == len(f.uses) and len(acronyms) == len(f.acronyms):
            return f
        return f._replace(uses=uses, acronyms=acronyms)

    return [kept(f, keys) for f, keys in zip(found, in_paper)]


def _flat_key(text: str) -> str:
    """A name's key without separators: every spelling of a listed name has the same one."""
    return squashed(name_key(text))


@lru_cache(maxsize=1)
def _listed() -> frozenset[str]:
    """The flat keys of every listed data-set name and alias (`datasets.txt`)."""
    return frozenset(_flat_key(name) for name, _ in vocabulary().dataset_aliases)


def hyped(text: str) -> bool:
    """Whether a word of `text` is hype (`rules.is_hype`: `state-of-the-art`, `SOTA`)."""
    lower = text.lower()
    return ("sota" in lower or "state-of" in lower) and any(is_hype(word) for word in lower.split())
