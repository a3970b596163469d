"""Data sets and benchmarks, the second concept kind `kg_methods` marks (`doc.spans["datasets"]`).

Found by the same component as methods, so a data set is never also a method: a span here removes
any method candidate it overlaps. The rules (span label `DATASET`):

* the names of `datasets.txt` (as written when cased, else case-insensitively), and a dash-joined
  variant of a listed name (`ImageNet-1k`, `CIFAR-100`);
* up to three name-like words (a capital or a digit) before a lower-case data-set head: `the
  UCF101 dataset` -> `UCF101`; a capitalised name ending in a capitalised head, head included:
  `Penn Discourse Treebank`;
* names ending in a benchmark suffix: `WebQA`, `MMLU-Bench`, `SWE-bench`;
* names listed with a data set (`COCO-C and Flickr-C`; `context.coordinated`, run by the component);
* acronym definitions whose long form ends in a data-set head (`Penn Discourse Treebank (PDTB)`),
  found by the component with its definitions, and the later uses of their short form.
"""
from __future__ import annotations

from spacy.language import Language
from spacy.matcher import PhraseMatcher

from kg.extract.rules import Candidate, Words
from kg.extract.vocab import Vocabulary

DATASETS_KEY = "datasets"
DATASET = "DATASET"
_MAX_NAME_WORDS = 3


class DatasetFinder:
    """The data-set rules over one Doc's `Words`; see the module docstring."""

    def __init__(self, nlp: Language, vocab: Vocabulary, exact: PhraseMatcher, lower: PhraseMatcher) -> None:
        """Adds the listed names to the component's matchers (`exact`: ORTH, `lower`: LOWER), under
        the match id `DATASET`, so a Doc is matched once for both kinds."""
        cased = sorted({d for d in vocab.datasets if d != d.lower()})
        plain = sorted({d for d in vocab.datasets if d == d.lower()})
        if cased:
            exact.add(DATASET, [nlp.make_doc(d) for d in cased])
        if plain:
            lower.add(DATASET, [nlp.make_doc(d) for d in plain])

    def __call__(self, matched: list[Candidate], words: Words) -> list[Candidate]:
        """The doc's data-set candidates (overlapping; the component resolves them); `matched` are
        the matchers' `DATASET` matches."""
        found = list(matched)
        forms = words.forms
        for i in words.where("dataset"):
            kind = forms[i].dataset
            if kind == "head":
                span = _named_before(words, i)
                if span is not None:
                    found.append(span)
            else:  # `suffix` or `variant`: the word itself
                found.append((words.starts[i], words.ends[i], DATASET))
        return found


def _named_before(words: Words, head: int) -> Candidate | None:
    """The name before a data-set head: `the UCF101 dataset` -> `UCF101`, `Penn Discourse Treebank`
    (a capitalised head is part of the name), or None when no name-like word precedes it."""
    forms = words.forms
    capital_head = forms[head].text[:1].isupper()
    j = head - 1
    name: list[int] = []
    while j >= 0 and len(name) < _MAX_NAME_WORDS and not words.starts_sentence(j + 1) and _name_like(forms[j]):
        name.insert(0, j)
        j -= 1
    if not name:
        return None
    if capital_head:
        return words.starts[name[0]], words.ends[head], DATASET
    if len(name) == 1 and words.starts_sentence(name[0]) and not forms[name[0]].capitals \
            and not any(map(str.isdigit, forms[name[0]].text)):
        return None  # `Benchmark dataset ...`: a sentence start, not a name
    return words.starts[name[0]], words.ends[name[-1]], DATASET


def _name_like(form) -> bool:
    return not form.stop and form.text[:1].isalnum() and (form.has_upper or any(map(str.isdigit, form.text))) \
        and not form.generic
