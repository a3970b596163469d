"""Mentions -> concepts of one kind, in halves that run apart (`kg.extract.linking`'s rounds).

Each corpus-level step is cut in two: a *count* over some papers (plain dicts and Counters that add
up, so the counts of any split of the corpus sum to the counts of the whole) and a *decision* over
the summed counts (a table); the tables are then *applied* paper by paper. Every decision breaks
ties by count, then alphabetically (`_most_common`), never by the order papers were seen in, so
the result does not depend on how the corpus was split.

* short forms (rule 2 of `kg.extract.concepts`): `short_votes` counts, `chosen_shorts` decides;
* labels: `label_counts` counts each concept's surface and long forms, `label_table` decides the
  data-set folds (`MS-COCO` = `COCO`), the labels and the alt labels, `concepts_of` applies them.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from kg.extract.component import bare_short_form
from kg.extract.normalize import clean_surface, concept_key, display_form, name_key, squashed
from kg.extract.vocab import vocabulary
from kg.records import Method, MethodMention

#: At most this many concepts of a kind per paper by default: the salient ones (`_salient`).
MAX_CONCEPTS = 10

#: Form counts per concept key: `{key: {form: n}}` (plain dicts: a Counter per key costs more).
FormCounts = dict[str, dict[str, int]]


class _Mentions(NamedTuple):
    """A paper's mentions after linking, in text order, as parallel lists (three lists a paper,
    not a record a mention): each one's concept key, label candidate and use."""
    keys: list[str]
    forms: list[str]
    uses: list[Any]


class LabelCounts(NamedTuple):
    """What labelling one kind counts over papers: the surface forms of each concept's mentions
    (`forms`, keys before any data-set fold) and the long forms papers define (`long_forms`)."""
    forms: FormCounts
    long_forms: FormCounts


class LabelTable(NamedTuple):
    """The decisions of `label_table`, all a paper needs to become concepts: data-set keys folded
    into another (`fold`, only those that change), each concept's label, and its alt labels (only
    the non-empty)."""
    fold: dict[str, str]
    labels: dict[str, str]
    alt_labels: dict[str, tuple[str, ...]]


def _name_form(text: str, *, sentence_start: bool) -> str:
    """A data set's label candidate: its name cleaned, never made singular (`nuScenes`) and, being
    a name, with the capitals it was written with."""
    return clean_surface(text)


def _forms(kind: str) -> tuple[Callable[[str], str], Callable[..., str]]:
    """The key and the label candidate of a mention of `kind`."""
    return (name_key, _name_form) if kind == "dataset" else (concept_key, display_form)


def short_votes(acronyms: Iterable[Iterable[tuple[str, str]]], key_of: Callable[[str], str] = concept_key
                ) -> dict[str, Counter[str]]:
    """Count: per bare short form, the concept keys its definitions give (`acronyms`: each paper's
    `(short, long)` pairs)."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for pairs in acronyms:
        for short, long in pairs:
            votes[bare_short_form(short)][key_of(long)] += 1
    return dict(votes)


def chosen_shorts(votes: Mapping[str, Mapping[str, int]], lexicon_pairs: Sequence[tuple[str, str]],
                  key_of: Callable[[str], str] = concept_key) -> dict[str, str]:
    """Decide: short form -> concept key, the most frequent definition (ties: the first key
    alphabetically), then the lexicon's."""
    chosen = {short: _most_common(c) for short, c in votes.items()}
    for short, long in lexicon_pairs:
        chosen.setdefault(bare_short_form(short), key_of(long))
    return chosen


def _paper_mentions(paper: Any, shorts: Mapping[str, str], key_of: Callable[[str], str],
                    display: Callable[..., str] | None) -> _Mentions:
    """A paper's mentions in text order (its spans and its bare uses of a corpus short form), each
    linked by rule 1, 2 or 3 of `kg.extract.concepts`; their label candidates unless `display` is
    None (applying the labels needs none)."""
    local = {bare_short_form(short): key_of(long) for short, long in paper.acronyms}
    uses = sorted(list(paper.uses) + [u for u in paper.capitals if bare_short_form(u.text) in shorts],
                  key=lambda u: u.start)
    keys, forms = [], []
    for use in uses:
        text = use.text
        bare = bare_short_form(text)
        keys.append(local.get(bare) or shorts.get(bare) or key_of(text))
        if display is not None:
            forms.append(display(text, sentence_start=use.sentence_start))
    return _Mentions(keys, forms, uses)


def label_counts(found: Iterable[Any], shorts: Mapping[str, str], kind: str = "method") -> LabelCounts:
    """Count: the forms of each concept's mentions and the long forms defined, over `found`
    (records of one kind, `kinds.dataset_mentions` / `kinds.method_mentions`)."""
    key_of, display = _forms(kind)
    forms: FormCounts = {}
    long_forms: FormCounts = {}
    for paper in found:
        for short, long in paper.acronyms:
            _add(long_forms, key_of(long), display(long, sentence_start=False))
        mentions = _paper_mentions(paper, shorts, key_of, display)
        for key, form in zip(mentions.keys, mentions.forms):
            _add(forms, key, form)
    return LabelCounts(forms, long_forms)


def _add(counts: FormCounts, key: str, form: str, n: int = 1) -> None:
    per_key = counts.get(key)
    if per_key is None:
        per_key = counts[key] = {}
    per_key[form] = per_key.get(form, 0) + n


def label_table(counts: LabelCounts, lexicon_pairs: Sequence[tuple[str, str]], kind: str = "method") -> LabelTable:
    """Decide from the summed `label_counts` of the corpus: folds (data sets), labels, alt labels.
    `lexicon_pairs` are the listed `(short, long)` pairs of this kind: a listed long form labels
    its concept."""
    key_of, _ = _forms(kind)
    forms, long_forms = counts.forms, {key: dict(per_key) for key, per_key in counts.long_forms.items()}
    listed = [long for _, long in lexicon_pairs]
    if kind == "dataset":
        listed += [name for _, name in vocabulary().dataset_aliases]
    for long in listed:
        long_forms.setdefault(key_of(long), {}).setdefault(long, 0)
    fold: dict[str, str] = {}
    if kind == "dataset":
        fold = _fold(forms, long_forms)
        forms, long_forms = _folded_counts(forms, fold), _folded_counts(long_forms, fold)
    labels, alt_labels = _labels(forms, long_forms)
    return LabelTable(fold, labels, alt_labels)


def _fold(forms: FormCounts, long_forms: FormCounts) -> dict[str, str]:
    """Data-set keys folded: a name's spellings (`CIFAR10`, `CIFAR-10`; `Tiny-ImageNet`,
    `TinyImageNet`) and its listed aliases (`MS-COCO` = `COCO`) become one concept, the listed
    name's, else the most mentioned spelling's (ties: the first key alphabetically). Only the keys
    that change."""
    canonical = {squashed(name_key(alias)): name_key(name) for alias, name in vocabulary().dataset_aliases}
    spellings: dict[str, dict[str, int]] = {}
    for key, per_key in forms.items():
        _add(spellings, squashed(key), key, sum(per_key.values()))
    for key in long_forms:
        _add(spellings, squashed(key), key, 0)
    fold = {key: canonical.get(flat) or _most_common(keys) for flat, keys in spellings.items() for key in keys}
    return {key: to for key, to in fold.items() if to != key}


def _folded_counts(counts: FormCounts, fold: Mapping[str, str]) -> FormCounts:
    """`counts` with each key replaced by the one it folds into."""
    folded: FormCounts = {}
    for key, per_key in counts.items():
        for form, n in per_key.items():
            _add(folded, fold.get(key, key), form, n)
    return folded


def _labels(forms: FormCounts, long_forms: FormCounts) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Each mentioned concept's label (its most frequent long form, else its most frequent form)
    and its alt labels (its other forms, one per case-insensitive spelling, sorted; only the
    non-empty)."""
    labels, alts = {}, {}
    for key, counter in forms.items():
        long = long_forms.get(key)
        labels[key] = label = _most_common(long or counter)
        if long:  # the sum, without a lexicon long form never seen (count 0)
            counter = {form: n + long.get(form, 0) for form, n in counter.items()}
            counter.update((form, n) for form, n in long.items() if n and form not in counter)
        by_case: dict[str, dict[str, int]] = {}
        for form, n in counter.items():
            by_case.setdefault(form.casefold(), {})[form] = n
        by_case.pop(label.casefold(), None)
        if by_case:
            alts[key] = tuple(sorted(_most_common(c) for c in by_case.values()))
    return labels, alts


def concepts_of(found: Iterable[Any], shorts: Mapping[str, str], table: LabelTable, kind: str = "method",
                max_concepts: int | None = MAX_CONCEPTS) -> dict[str, tuple[Method, ...]]:
    """Apply: each paper's concepts (by first mention) with their corpus labels, keyed by paper;
    a paper keeps its `max_concepts` most salient ones (None: all)."""
    key_of, _ = _forms(kind)
    fold, labels, alt_labels = table
    result: dict[str, tuple[Method, ...]] = {}
    for paper in found:
        mentions = _paper_mentions(paper, shorts, key_of, None)
        grouped: dict[str, list[MethodMention]] = defaultdict(list)
        for key, use in zip(mentions.keys, mentions.uses):
            grouped[fold.get(key, key)].append(use.mention)
        concepts = [Method(key=key, label=labels[key], alt_labels=alt_labels.get(key, ()), mentions=tuple(evidence),
                           kind=kind) for key, evidence in grouped.items()]
        result[paper.key] = tuple(_salient(concepts, max_concepts))
    return result


def _salient(concepts: list[Method], limit: int | None) -> list[Method]:
    """The `limit` most salient of a paper's concepts, in their order: named ones first (a label or
    alt label with a capital after its first letter or a digit: `FlashSketch`, `QAT`, `GPT-4`),
    then the more mentioned, then the earlier."""
    if limit is None or len(concepts) <= limit:
        return concepts

    def named(m: Method) -> bool:
        return any(any(c.isupper() or c.isdigit() for c in form[1:]) for form in (m.label, *m.alt_labels))

    ranked = sorted(range(len(concepts)), key=lambda i: (not named(concepts[i]), -concepts[i].count, i))
    return [concepts[i] for i in sorted(ranked[:limit])]


def _most_common(counter: Mapping[str, int]) -> str:
    """The most frequent; ties: the first alphabetically (never the first seen)."""
    return min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]
