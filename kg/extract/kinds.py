"""Which kind a mention is, decided over the whole corpus before linking (`kg.extract.linking`).

The component marks methods and data sets paper by paper; some choices need the corpus:

* a data-set mention is kept when it can be a name (`datasets.is_name`) and is no method of the
  corpus (`dataset_mentions`);
* a method mention is dropped when it is hype, a web address or a data set (`method_mentions`).

Each choice comes in three parts that may run apart, so that a corpus split into partitions gives
the answer of the whole: a count over some papers (`dataset_counts`, `method_counts`: sets and
Counters that add up), a decision over the summed counts (`dataset_table`, `dataset_names`: a
small table), and its application to each paper (`dataset_mentions`, `method_mentions`).

All work on the papers' reduced records (`concepts._Found`: `key`, `acronyms`, `uses`, `capitals`,
`dataset_acronyms`, `datasets`) and return records of the same type.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from kg.extract.component import bare_short_form
from kg.extract.datasets import is_address, is_name
from kg.extract.normalize import concept_key, name_key, squashed
from kg.extract.rules import is_hype
from kg.extract.vocab import vocabulary

#: A data-set name is a method's when at least this many papers have it as a method (`dataset_mentions`).
METHOD_PAPERS = 3


class DatasetCounts(NamedTuple):
    """What `dataset_mentions` needs to know of the corpus, counted over some papers."""
    method_shorts: set[str]   # bare short forms defined with a lower-case long form
    dataset_shorts: set[str]  # bare short forms of data-set definitions
    as_method: Counter[str]   # concept key -> papers with a capitalised method mention of it
    as_dataset: Counter[str]  # name key -> papers with a data-set mention of it
    voted: set[tuple[str, str]]  # (concept key, name key) of data-set mentions a vote may make methods


class DatasetTable(NamedTuple):
    """The corpus-level decisions of `dataset_table`: short forms that make a mention a method
    (`method_shorts`), and the (concept key, name key) pairs that the papers vote methods."""
    method_shorts: frozenset[str]
    voted_off: frozenset[tuple[str, str]]


class MethodCounts(NamedTuple):
    """What `method_mentions` needs to know of the corpus, counted over some papers: per flat
    name key (`_flat_key`), the papers with it as a data set and as a (capitalised) method."""
    as_dataset: Counter[str]
    as_method: Counter[str]


def dataset_counts(found: Iterable[Any]) -> DatasetCounts:
    """Count, over `found`, what `dataset_table` decides from."""
    vocab, listed = vocabulary(), _listed()
    counts = DatasetCounts(set(), set(), Counter(), Counter(), set())
    for f in found:
        # a capitalised long form may name a data set: only lower-case definitions make methods
        counts.method_shorts.update(bare_short_form(short) for short, long in f.acronyms if long == long.lower())
        counts.dataset_shorts.update(bare_short_form(short) for short, _ in f.dataset_acronyms)
        # names only: a lower-case data set is never voted off
        counts.as_method.update({concept_key(u.text) for u in f.uses if not u.text.islower()})
        counts.as_dataset.update({name_key(u.text) for u in f.datasets})
        counts.voted.update((concept_key(u.text), name_key(u.text)) for u in f.datasets
                            if is_name(u.text, vocab) and _flat_key(u.text) not in listed)
    return counts


def dataset_table(counts: DatasetCounts) -> DatasetTable:
    """Decide, from the corpus's summed `dataset_counts`, which names are methods (see
    `dataset_mentions`)."""
    vocab = vocabulary()
    method_shorts = counts.method_shorts | {bare_short_form(short) for short, _ in vocab.lexicon_pairs}
    dataset_shorts = counts.dataset_shorts | {bare_short_form(short) for short, _ in vocab.dataset_pairs}
    as_method, as_dataset = counts.as_method, counts.as_dataset
    voted_off = {(ck, nk) for ck, nk in counts.voted
                 if as_method[ck] >= METHOD_PAPERS and as_method[ck] > 2 * as_dataset[nk]}
    return DatasetTable(frozenset(method_shorts - dataset_shorts), frozenset(voted_off))


def dataset_mentions(found: Sequence[Any], table: DatasetTable) -> list[Any]:
    """Per paper, a record of its data sets (definitions as `acronyms`, mentions as `uses`): the
    mentions that name a data set (`datasets.is_name`) and are no method of the corpus.

    A listed name always is one; any other is a method when its short form is one that papers
    define with a lower-case long form, or the lexicon does (`offline RL benchmarks`; a capitalised
    long form may name a data set), and no paper's or list's data set, or when `METHOD_PAPERS`
    papers or more have it as a method, over twice as many as have it as a data set (`BERT on
    MNLI`): `table`, from `dataset_table`.
    """
    vocab, listed = vocabulary(), _listed()

    def named(text: str) -> bool:
        if not is_name(text, vocab):
            return False
        if _flat_key(text) in listed:
            return True
        return bare_short_form(text) not in table.method_shorts \
            and (concept_key(text), name_key(text)) not in table.voted_off

    return [f._replace(acronyms=f.dataset_acronyms, uses=tuple(u for u in f.datasets if named(u.text)),
                       capitals=(), dataset_acronyms=(), datasets=()) for f in found]


def method_counts(found: Sequence[Any], datasets: Sequence[Any]) -> MethodCounts:
    """Count, over `found` and their data sets (`dataset_mentions`), what `dataset_names` decides from."""
    counts = MethodCounts(Counter(), Counter())
    for f, keys in zip(found, _in_papers(datasets)):
        counts.as_dataset.update(keys)
        counts.as_method.update({_flat_key(u.text) for u in f.uses if not u.text.islower()} - keys)
    return counts


def dataset_names(counts: MethodCounts) -> frozenset[str]:
    """Decide, from the corpus's summed `method_counts`: the names that at least as many papers
    have as a data set as have them as a method (`method_mentions`)."""
    as_method = counts.as_method
    return frozenset(key for key, n in counts.as_dataset.items() if n >= as_method[key])


def method_mentions(found: Sequence[Any], datasets: Sequence[Any], names: frozenset[str]) -> list[Any]:
    """The papers' records without method mentions and definitions that are hype (`SOTA`,
    `state-of-the-art methods (SOTA)`: else every bare `SOTA` of the corpus would be that method),
    web addresses or data sets: a listed data set's name in any spelling (`Deepmind Control
    Suite`), a data set of the same paper (`datasets`, from `dataset_mentions`), or a name (a
    capital or a digit) that at least as many papers of the corpus have as a data set as have it
    as a method (`names`, from `dataset_names`)."""
    key_of, listed = _flat_key, _listed()

    def method(text: str, paper_datasets: set[str]) -> bool:
        if is_address(text) or hyped(text):
            return False
        if text.islower():  # no name
            return True
        key = key_of(text)  # a method of this paper: a method of the corpus at least once
        return key not in listed and key not in paper_datasets \
            and (not any(map(str.isalnum, text)) or key not in names)

    def kept(f: Any, paper_datasets: set[str]) -> Any:
        """The record without what is no method; the record itself when that is nothing (most)."""
        uses = tuple(u for u in f.uses if method(u.text, paper_datasets))
        acronyms = unhyped(f.acronyms)
        if len(uses) == len(f.uses) and len(acronyms) == len(f.acronyms):
            return f
        return f._replace(uses=uses, acronyms=acronyms)

    return [kept(f, keys) for f, keys in zip(found, _in_papers(datasets))]


def unhyped(acronyms: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The `(short, long)` definitions that are no hype (`method_mentions`)."""
    return tuple(pair for pair in acronyms if not hyped(pair[0]) and not hyped(pair[1]))


def _in_papers(datasets: Sequence[Any]) -> list[set[str]]:
    """The flat keys of each paper's data sets."""
    return [{_flat_key(u.text) for u in f.uses} for f in datasets]


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
