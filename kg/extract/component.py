"""The registered spaCy component `kg_methods`: marks method-term spans in `doc.spans["methods"]`.

Span labels say which rule found the term: `LONG_FORM` and `ACRONYM` (a defined acronym and its
long form, `acronyms.py`), `NAMED`, `LEXICON` (the curated `lexicon.txt`, via PhraseMatcher),
`TITLE`, `CUE` and `PHRASE` (`rules.py`). Overlaps are resolved first by rule (definitions, then names),
then by length, so `Quantization-aware training` beats `quantization`. The accepted definitions
are left in `doc._.kg_acronyms` as `(short form, long form)` text pairs for corpus-level linking
(the long form cleaned and singular, as a label: `("QAT", "quantization-aware training")`), and
the indices of the tokens outside the spans with two or more capitals (`LLMs`) in
`doc._.kg_capitals`: a short form defined in another paper may be used bare there.

Works on `spacy.blank("en")` (add a sentencizer for sentence evidence, as `make_pipeline` does;
without sentence boundaries the whole text is one sentence); reads a trained pipeline's POS tags
where they help (`rules.Words.continues_phrase`). The rules work on plain lists read once per Doc (`words.Tokens`) and
on per-word facts computed once per distinct word (`forms.Form`, kept in `MethodTagger.forms`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from kg.errors import ArgumentError
from kg.extract.acronyms import Range, definitions
from kg.extract.context import CONTEXT, EMPHASIS, EPONYM, LIST, context_names, coordinated, emphasised, eponyms
from kg.extract.datasets import DATASET, DATASETS_KEY, DatasetFinder
from kg.extract.normalize import clean_surface, concept_text, display_form, singular
from kg.extract.rules import (CUE, NAMED, PHRASE, TITLE, Candidate, Words, cue_phrases, named_methods,
                              technique_phrases, title_phrases)
from kg.extract.vocab import Vocabulary, vocabulary
from kg.extract.forms import DATASET_HEADS, Forms, is_named
from kg.extract.words import Tokens, is_acronym

SPANS_KEY = "methods"
#: An acronym definition as text: `(short form, long form)`.
Pair = tuple[str, str]
LONG_FORM, ACRONYM, LEXICON = "LONG_FORM", "ACRONYM", "LEXICON"
#: Rule order for overlaps: the first tier always wins; within the second, the longer span.
_FIRST_TIER = (LONG_FORM, ACRONYM, NAMED)
_SECOND_TIER = (LEXICON, EMPHASIS, EPONYM, TITLE, CUE, PHRASE, CONTEXT, DATASET)
_FIRST_RANK = {label: k for k, label in enumerate(_FIRST_TIER)}
_SECOND_RANK = {label: k for k, label in enumerate(_SECOND_TIER)}
#: Spans that are names, whatever their last word: an acronym and a shape-named method.
_NAMES = frozenset({ACRONYM, NAMED})
#: Texts whose `_is_term` a component keeps before it starts afresh.
_MAX_TERMS = 1 << 16

if not Doc.has_extension("kg_acronyms"):
    Doc.set_extension("kg_acronyms", default=())
if not Doc.has_extension("kg_dataset_acronyms"):
    Doc.set_extension("kg_dataset_acronyms", default=())
if not Doc.has_extension("kg_capitals"):
    Doc.set_extension("kg_capitals", default=())


#: The rules a `kg_methods` component may be told to skip (`disabled`), for ablations.
RULES = (LONG_FORM, NAMED, LEXICON, TITLE, CUE, PHRASE, CONTEXT, EMPHASIS, EPONYM, LIST, "MINED_HEADS", "NON_HEADS",
         "DATASETS", "NOT_METHODS")


@Language.factory("kg_methods", default_config={"disabled": []})
def make_method_tagger(nlp: Language, name: str, disabled: list[str]) -> MethodTagger:
    """spaCy factory: `nlp.add_pipe("kg_methods")`; `config={"disabled": [rule, ...]}` skips rules."""
    return MethodTagger(nlp, name, disabled=disabled)


class MethodTagger:
    """Marks method terms; see the module docstring."""

    def __init__(self, nlp: Language, name: str = "kg_methods", vocab: Vocabulary | None = None,
                 disabled: Iterable[str] = ()) -> None:
        self.name = name
        self.disabled = frozenset(disabled)
        unknown = self.disabled.difference(RULES)
        if unknown:
            raise ArgumentError(f"unknown kg_methods rule(s) {sorted(unknown)}; the rules are {', '.join(RULES)}")
        self.vocab = vocab or vocabulary()
        if "MINED_HEADS" in self.disabled:  # the listed heads only
            mined = self.vocab.mined_heads
            self.vocab = replace(self.vocab, heads=self.vocab.heads - mined,
                                 generic_heads=self.vocab.generic_heads - mined)
        self.lower_matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.exact_matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
        lower, exact = set(), set()
        for term in self.vocab.lexicon:
            if " " not in term and any(c.isupper() for c in term):
                exact.update({term, term + "s"} if is_acronym(term) else {term})
            else:
                lower.update(_variants(term.lower()))
        self.lower_matcher.add(LEXICON, [nlp.make_doc(t) for t in sorted(lower)])
        self.exact_matcher.add(LEXICON, [nlp.make_doc(t) for t in sorted(exact)])
        self.forms = Forms(self.vocab)
        self.datasets = DatasetFinder(nlp, self.vocab, self.exact_matcher, self.lower_matcher)
        self._dataset_id = nlp.vocab.strings[DATASET]
        self._terms: dict[str, bool] = {}  # `_is_term` by text
        self._label_ids = {label: nlp.vocab.strings.add(label) for label in (*_FIRST_TIER, *_SECOND_TIER, LIST)}

    def __call__(self, doc: Doc) -> Doc:
        tokens = Tokens(doc)
        words = Words(tokens, self.forms)
        lexicon: list[Candidate] = []
        matched: list[Candidate] = []
        for matcher in (self.lower_matcher, self.exact_matcher):
            for match_id, s, e in matcher(doc):
                if match_id == self._dataset_id:
                    matched.append((s, e, DATASET))
                else:
                    lexicon.append((s, e, LEXICON))
        pairs, defined, dataset_pairs, dataset_defined = self._definitions(words, lexicon)
        datasets: list[Candidate] = []
        if "DATASETS" not in self.disabled:
            datasets = _resolve(self.datasets(matched, words) + dataset_defined)
            taken = {i for start, end, _ in datasets for i in range(start, end)}
            datasets = sorted(datasets + coordinated(words, datasets, taken, DATASET, dashed=True))
        in_datasets = {i for start, end, _ in datasets for i in range(start, end)}
        rules = ((LONG_FORM, lambda: defined), (NAMED, lambda: named_methods(words)), (LEXICON, lambda: lexicon),
                 (TITLE, lambda: title_phrases(words)), (CUE, lambda: cue_phrases(words)),
                 (PHRASE, lambda: technique_phrases(words)), (CONTEXT, lambda: context_names(words, in_datasets)),
                 (EMPHASIS, lambda: emphasised(words)), (EPONYM, lambda: eponyms(words)))
        candidates = [c for rule, found in rules if rule not in self.disabled for c in found()]
        if in_datasets:
            candidates = [c for c in candidates if in_datasets.isdisjoint(range(c[0], c[1]))]
        if "NON_HEADS" not in self.disabled:
            candidates = self._method_headed(tokens, candidates)
        terms = [c for c in _resolve(candidates) if self._is_term(tokens.span_text(c[0], c[1]))
                 and ("NOT_METHODS" in self.disabled or not _received(tokens, c[0]))]
        if LIST not in self.disabled:
            taken = in_datasets.union(i for start, end, _ in terms for i in range(start, end))
            listed = [c for c in coordinated(words, terms, taken) if self._is_term(tokens.span_text(c[0], c[1]))]
            terms = sorted(terms + listed)
        label_ids = self._label_ids  # a label's string id: `Span` need not hash it each time
        doc.spans[SPANS_KEY] = [Span(doc, start, end, label=label_ids[label]) for start, end, label in terms]
        doc.spans[DATASETS_KEY] = [Span(doc, start, end, label=label_ids[label]) for start, end, label in datasets]
        underscore = doc._
        underscore.kg_acronyms = tuple(pairs)
        underscore.kg_dataset_acronyms = tuple(dataset_pairs)
        covered = in_datasets.union(i for start, end, _ in terms for i in range(start, end))
        underscore.kg_capitals = tuple(i for i in words.capitals() if i not in covered)
        return doc

    def _method_headed(self, tokens: Tokens, candidates: list[Candidate]) -> list[Candidate]:
        """Without the phrases headed by a task, material or metric word (`machine translation`,
        `training data`): the mined `other:` heads of `mined_heads.txt`. Names keep theirs, and so
        does a last word in capitals, a name too (`we propose EDGE, a ...`)."""
        non_heads, text = self.vocab.non_heads, tokens.text
        return [c for c in candidates if c[2] in _NAMES or singular(text[c[1] - 1]).lower() not in non_heads
                or text[c[1] - 1].isupper()]

    def _definitions(self, words: Words, lexicon: list[Candidate]
                     ) -> tuple[list[Pair], list[Candidate], list[Pair], list[Candidate]]:
        """Accepted method acronym pairs (the long form singular: a label) and every use of their
        short and long forms, except a short form inside a dash-joined name (the `SOM` of `SOM-CPC`
        is that other name's); the same for data sets (`_is_dataset_definition`), whose long form
        is a name kept as written (`Street View House Numbers (SVHN)`)."""
        tokens = words.tokens
        defined = definitions(tokens)
        in_names = _in_names(words) if defined else set()
        pairs: list[Pair] = []
        found: list[Candidate] = []
        dataset_pairs: list[Pair] = []
        dataset_found: list[Candidate] = []
        shorts: set[str] = set()
        for short, long in defined:
            short_text, long_text = tokens.span_text(*short), tokens.span_text(*long)
            uses = [(*long, LONG_FORM)] + _occurrences(tokens, *long) \
                + [use for use in _acronym_uses(tokens, short_text) if use[0] not in in_names]
            if "DATASETS" not in self.disabled and self._is_dataset_definition(tokens, short_text, short, long):
                dataset_pairs.append((short_text, clean_surface(long_text)))  # a name, as written
                dataset_found += [(start, end, DATASET) for start, end, _ in uses]
            elif self._is_method_definition(tokens, short, long, long_text, lexicon, shorts):
                shorts.add(bare_short_form(short_text))
                pairs.append((short_text, display_form(long_text, sentence_start=long[0] in tokens.starts_sentence)))
                found += uses
        return pairs, found, dataset_pairs, dataset_found

    def _is_dataset_definition(self, tokens: Tokens, short_text: str, short: Range, long: Range) -> bool:
        """A definition names a data set when its long form ends in a data-set head (`Penn
        Discourse Treebank (PDTB)`), a data-set head follows it (`the Street View House Numbers
        (SVHN) dataset`) or its short form is a listed one-word name (`SVHN`)."""
        return singular(tokens.text[long[1] - 1]).lower() in DATASET_HEADS \
            or _head_after(tokens, short, long) in DATASET_HEADS \
            or bare_short_form(short_text) in self.vocab.dataset_names

    def _is_method_definition(self, tokens: Tokens, short: Range, long: Range, long_text: str,
                              lexicon: list[Candidate], shorts: set[str]) -> bool:
        """A definition names a method when the short form is name-shaped, or the long form ends
        in a method head, is a capitalised name, holds a lexicon term or an acronym already taken."""
        if concept_text(long_text) in self.vocab.generic or concept_text(tokens.span_text(*short)) in self.vocab.generic:
            return False  # a field (`Artificial Intelligence (AI)`, `Generative Artificial Intelligence (AI)`)
        if "NON_HEADS" not in self.disabled and singular(tokens.text[long[1] - 1]).lower() in self.vocab.non_heads:
            return False  # a task, material or metric (`machine translation (MT)`)
        if self.forms.word(tokens.text[short[0]:short[1]]).named:
            return True
        words = clean_surface(long_text).split()
        if (len(words) >= 2 or "-" in words[-1]) and singular(words[-1].split("-")[-1]).lower() in self.vocab.heads:
            return True
        content = [w for w in words if w.lower() not in self.vocab.stop_words]
        if len(content) >= 2 and all(w[:1].isupper() for w in content):
            return True
        if any(long[0] <= start and end <= long[1] for start, end, _ in lexicon):
            return True
        return any(bare_short_form(t) in shorts for t in tokens.text[long[0]:long[1]])

    def _is_term(self, text: str) -> bool:
        """The final guard: never a generic word, stop word, letterless string, hardware,
        organisation or hype phrase (`not_methods.txt`) alone. Judged once per distinct text."""
        known = self._terms.get(text)
        if known is None:
            if len(self._terms) >= _MAX_TERMS:
                self._terms.clear()
            known = self._terms[text] = self._judge_term(text)
        return known

    def _judge_term(self, text: str) -> bool:
        # a one-word name (`MODeL`) is no generic word (`model`); its shape alone says so (`forms.is_named`)
        name = " " not in text and not text.islower() and is_named(text, [part for part in text.split("-") if part])
        text = concept_text(text)
        if len(text) < 2 or not any(c.isalpha() for c in text) \
                or not name and (text in self.vocab.generic or text in self.vocab.stop_words):
            return False
        if "NOT_METHODS" in self.disabled:
            return True
        return text not in self.vocab.not_methods and text.split(" ", 1)[0] not in self.vocab.hardware


#: Verbs that make the next words the attention a topic gets, not a method (`has received growing attention`).
_RECEPTION = frozenset({"received", "receives", "gained", "gains", "attracted", "attracts", "drawn", "garnered"})


def _received(tokens: Tokens, start: int) -> bool:
    """Is the term at `start` the object of a reception verb, one weak word between at most?"""
    text = tokens.text
    return ((start >= 1 and text[start - 1].lower() in _RECEPTION)
            or (start >= 2 and text[start - 2].lower() in _RECEPTION))


def _variants(term: str) -> set[str]:
    """A lower-case lexicon term with its plural and dash/space spellings."""
    head, sep, last = term.rpartition(" ")
    plural = f"{head}{sep}{_plural(last)}"
    forms = {term, plural}
    forms |= {f.replace("-", " ") for f in forms} | {f.replace("-", "\u2013") for f in forms}
    return forms


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


@lru_cache(maxsize=1 << 16)
def bare_short_form(short: str) -> str:
    """A short form without its plural `s`: `DEBs` -> `DEB`."""
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def _acronym_uses(tokens: Tokens, short: str) -> list[Candidate]:
    """Every token that is `short`, in either number (`bare_short_form` maps it to the same)."""
    bare = bare_short_form(short)
    forms = (bare, bare + "s") if bare_short_form(bare + "s") == bare else (bare,)
    return [(i, i + 1, ACRONYM) for i in sorted(i for form in forms for i in tokens.indices(form))]


def _head_after(tokens: Tokens, short: Range, long: Range) -> str:
    """The word right after a definition, past its `)`, singular and lower-case (`dataset` in `the
    HierArchical Leaf Vein Segmentation (HALVS) dataset`); "" at the end of the doc."""
    after = max(short[1], long[1])
    after += after < len(tokens) and tokens.text[after] == ")"
    return singular(tokens.text[after]).lower() if after < len(tokens) else ""


def _in_names(words: Words) -> set[int]:
    """The tokens of the dash-joined words shaped like names (`SOM-CPC`, `BNN-DP`, `GP-Tree`)."""
    starts, ends = words.starts, words.ends
    return {t for i in words.where("named") if ends[i] - starts[i] > 1 for t in range(starts[i], ends[i])}


def _occurrences(tokens: Tokens, start: int, end: int) -> list[Candidate]:
    """Other uses of the long form `start:end` in the doc (case-insensitive, either number)."""
    lower = tokens.lower
    target = lower[start:end]
    target[-1] = singular(target[-1])
    n = len(target)
    return [(i, i + n, LONG_FORM) for i in tokens.indices(target[0], lower=True)
            if i != start and i + n <= len(lower) and lower[i:i + n - 1] == target[:-1]
            and singular(lower[i + n - 1]) == target[-1]]


def _resolve(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Non-overlapping candidates in text order: first tier by rule, then second tier by length."""
    def rank(candidate: Candidate) -> tuple[int, int, int, int]:
        start, end, label = candidate
        first = _FIRST_RANK.get(label)
        return (0, first, start - end, start) if first is not None else (1, start - end, _SECOND_RANK[label], start)

    taken: set[int] = set()
    chosen: list[Candidate] = []
    for candidate in sorted(candidates, key=rank):
        start, end, _ = candidate
        if taken.isdisjoint(range(start, end)):
            chosen.append(candidate)
            taken.update(range(start, end))
    return sorted(chosen)
