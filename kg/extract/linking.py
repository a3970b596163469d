"""Corpus-level linking as rounds of count, merge, decide: the same code for one list of papers
and for a corpus spread over the partitions of a cluster (`kg.engine.linking`).

A round counts, on each partition of reduced records (`concepts._Found`) and with the tables of
the rounds before, small counts that add up (`ROUNDS[i].count`); the counts of all partitions are
summed (`merged`) and decided into a table (`ROUNDS[i].decide`) that every partition gets for the
next round. After the last round `linked` applies the tables to each partition's papers.

1. kinds: which data-set mentions name data sets (`kinds.dataset_counts` / `dataset_table`);
2. names: which names are data sets rather than methods (`kinds.method_counts` / `dataset_names`),
   and the corpus's short forms of each kind (`labels.short_votes` / `chosen_shorts`);
3. labels: the data-set folds, labels and alt labels of each kind (`labels.label_counts` / `label_table`).

Every decision is made from sums and breaks ties by count, then alphabetically: any split of the
corpus, in any order, gives what the whole list gives. A table holds only what the next rounds
need (no per-paper data), so it can be sent to every worker.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from kg.extract import kinds, labels
from kg.extract.labels import MAX_CONCEPTS, LabelCounts, LabelTable
from kg.extract.normalize import name_key
from kg.extract.vocab import vocabulary
from kg.records import Method


class Concepts(NamedTuple):
    """Both concept kinds of a corpus, each keyed by `Paper.key` as `extract()` returns methods:
    `methods` (kind `"method"`) and `datasets` (data sets and benchmarks, kind `"dataset"`)."""
    methods: dict[str, tuple[Method, ...]]
    datasets: dict[str, tuple[Method, ...]]


class NameCounts(NamedTuple):
    """Round 2's counts: data sets and methods by name, and both kinds' short-form votes."""
    names: kinds.MethodCounts
    method_votes: dict[str, Counter[str]]
    dataset_votes: dict[str, Counter[str]]


class NameTable(NamedTuple):
    """Round 2's decisions: the names that are data sets, and short form -> concept key per kind."""
    dataset_names: frozenset[str]
    method_shorts: dict[str, str]
    dataset_shorts: dict[str, str]


class BothLabels(NamedTuple):
    """Round 3's counts or decisions, one per kind."""
    methods: LabelCounts | LabelTable
    datasets: LabelCounts | LabelTable


def _kinds(found: Sequence[Any], kind_table: kinds.DatasetTable, names: frozenset[str]
           ) -> tuple[list[Any], list[Any]]:
    """The method and the data-set records of `found` (`kinds.method_mentions`, `dataset_mentions`)."""
    datasets = kinds.dataset_mentions(found, kind_table)
    return kinds.method_mentions(found, datasets, names), datasets


def count_names(found: Sequence[Any], kind_table: kinds.DatasetTable) -> NameCounts:
    """Round 2's count: names as data sets and as methods; definitions of each kind."""
    datasets = kinds.dataset_mentions(found, kind_table)
    return NameCounts(kinds.method_counts(found, datasets),
                      labels.short_votes(kinds.unhyped(f.acronyms) for f in found),
                      labels.short_votes((f.dataset_acronyms for f in found), name_key))


def decide_names(counts: NameCounts) -> NameTable:
    """Round 2's decision."""
    vocab = vocabulary()
    return NameTable(kinds.dataset_names(counts.names),
                     labels.chosen_shorts(counts.method_votes, vocab.lexicon_pairs),
                     labels.chosen_shorts(counts.dataset_votes, vocab.dataset_pairs, name_key))


def count_labels(found: Sequence[Any], kind_table: kinds.DatasetTable, names: NameTable) -> BothLabels:
    """Round 3's count: the forms of each kind's concepts."""
    methods, datasets = _kinds(found, kind_table, names.dataset_names)
    return BothLabels(labels.label_counts(methods, names.method_shorts),
                      labels.label_counts(datasets, names.dataset_shorts, "dataset"))


def decide_labels(counts: BothLabels) -> BothLabels:
    """Round 3's decision: a `LabelTable` per kind."""
    vocab = vocabulary()
    return BothLabels(labels.label_table(counts.methods, vocab.lexicon_pairs),
                      labels.label_table(counts.datasets, vocab.dataset_pairs, "dataset"))


def linked(found: Sequence[Any], kind_table: kinds.DatasetTable, names: NameTable, label_tables: BothLabels,
           max_concepts: int | None = MAX_CONCEPTS) -> Concepts:
    """The last step: the tables applied to `found`'s papers, their `Concepts`."""
    methods, datasets = _kinds(found, kind_table, names.dataset_names)
    return Concepts(labels.concepts_of(methods, names.method_shorts, label_tables.methods, "method", max_concepts),
                    labels.concepts_of(datasets, names.dataset_shorts, label_tables.datasets, "dataset",
                                       max_concepts))


class Round(NamedTuple):
    """One round: `count(partition, *tables before)` on each partition, `decide(summed counts)` once."""
    count: Callable[..., Any]
    decide: Callable[[Any], Any]


#: The rounds in order; `linked` takes the partition and the tables they give, in this order.
ROUNDS = (Round(kinds.dataset_counts, kinds.dataset_table), Round(count_names, decide_names),
          Round(count_labels, decide_labels))


def run_rounds(counted: Callable[[Callable[..., Any], tuple], Any],
               share: Callable[[Any], Any] = lambda table: table) -> tuple:
    """The tables of every round, each as `share` gives it (the table itself, or a cluster's handle
    on a copy sent to every worker). `counted(count, tables)` runs `count(partition, *tables)` on
    every partition and returns the counts summed (`merged`), wherever the partitions are."""
    tables: tuple = ()
    for count, decide in ROUNDS:
        tables = (*tables, share(decide(counted(count, tables))))
    return tables


def link_parts(parts: Sequence[Sequence[Any]], max_concepts: int | None = MAX_CONCEPTS) -> list[Concepts]:
    """Each partition's `Concepts`, linked over all of them (in one process)."""
    if not parts:
        return []
    tables = run_rounds(lambda count, tables: merged(count(part, *tables) for part in parts))
    return [linked(part, *tables, max_concepts=max_concepts) for part in parts]


def link_corpus(found: Sequence[Any], max_concepts: int | None = MAX_CONCEPTS) -> Concepts:
    """Methods and data sets, each linked over the corpus on its own: the rounds over one partition."""
    (concepts,) = link_parts([found], max_concepts)
    return concepts


def merged(counts: Iterable[Any]) -> Any:
    """The sum of counts of one round (NamedTuples of sets, Counters and dicts of counts, ints):
    sets united, numbers added key by key. The inputs are left as they were."""
    total, copied = None, False
    for one in counts:
        if total is None:
            total = one  # copied only when there is a second to add
        else:
            total, copied = _add(total if copied else _copy(total), one), True
    return total


def _copy(value: Any) -> Any:
    if isinstance(value, tuple):  # a NamedTuple of counts
        return type(value)(*map(_copy, value))
    if isinstance(value, dict):
        return type(value)({key: _copy(v) for key, v in value.items()})
    if isinstance(value, set):
        return set(value)
    return value


def _add(total: Any, more: Any) -> Any:
    """`more` added into `total` (changed and returned)."""
    if isinstance(total, tuple):
        return type(total)(*map(_add, total, more))
    if isinstance(total, dict):
        for key, value in more.items():
            mine = total.get(key)
            total[key] = _copy(value) if mine is None else _add(mine, value)
        return total
    if isinstance(total, set):
        total |= more
        return total
    return total + more
