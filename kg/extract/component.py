"""The registered spaCy component `kg_methods`: marks method-term spans in `doc.spans["methods"]`.

Span labels say which rule found the term: `LONG_FORM` and `ACRONYM` (a defined acronym and its
long form, `acronyms.py`), `NAMED`, `LEXICON` (the curated `lexicon.txt`, via PhraseMatcher),
`TITLE`, `CUE` and `PHRASE` (`rules.py`). Overlaps are resolved first by rule (definitions, then names),
then by length, so `Quantization-aware training` beats `quantization`. The accepted definitions
are left in `doc._.kg_acronyms` as `(short form, long form)` text pairs for corpus-level linking
(the long form cleaned and singular, as a label: `("QAT", "quantization-aware training")`).

Works on `spacy.blank("en")` (add a sentencizer for sentence evidence; `make_pipeline` does);
uses POS tags and noun chunks when the pipeline provides them.
"""
from __future__ import annotations

from collections.abc import Iterable

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from kg.extract.acronyms import find_definitions
from kg.extract.normalize import clean_surface, concept_text, display_form, singular
from kg.extract.rules import (CUE, NAMED, PHRASE, TITLE, Words, cue_phrases, named_methods, technique_phrases,
                              title_phrases)
from kg.extract.vocab import Vocabulary, vocabulary
from kg.extract.words import is_acronym, is_named

SPANS_KEY = "methods"
LONG_FORM, ACRONYM, LEXICON = "LONG_FORM", "ACRONYM", "LEXICON"
#: Rule order for overlaps: the first tier always wins; within the second, the longer span.
_FIRST_TIER = (LONG_FORM, ACRONYM, NAMED)
_SECOND_TIER = (LEXICON, TITLE, CUE, PHRASE)

if not Doc.has_extension("kg_acronyms"):
    Doc.set_extension("kg_acronyms", default=())


@Language.factory("kg_methods")
def make_method_tagger(nlp: Language, name: str) -> MethodTagger:
    """spaCy factory: `nlp.add_pipe("kg_methods")`."""
    return MethodTagger(nlp, name)


class MethodTagger:
    """Marks method terms; see the module docstring."""

    def __init__(self, nlp: Language, name: str = "kg_methods", vocab: Vocabulary | None = None) -> None:
        self.name = name
        self.vocab = vocab or vocabulary()
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

    def __call__(self, doc: Doc) -> Doc:
        words = Words(doc, self.vocab)
        lexicon = [Span(doc, s, e, label=LEXICON)
                   for matcher in (self.lower_matcher, self.exact_matcher) for _, s, e in matcher(doc)]
        pairs, defined = self._definitions(doc, lexicon)
        candidates = (defined + named_methods(words) + lexicon + title_phrases(words) + cue_phrases(words)
                      + technique_phrases(words))
        doc.spans[SPANS_KEY] = [s for s in _resolve(candidates) if self._is_term(s)]
        doc._.kg_acronyms = tuple(pairs)
        return doc

    def _definitions(self, doc: Doc, lexicon: list[Span]) -> tuple[list[tuple[str, str]], list[Span]]:
        """Accepted acronym pairs and the spans of every use of their short and long forms."""
        pairs: list[tuple[str, str]] = []
        spans: list[Span] = []
        shorts: set[str] = set()
        for short, long in find_definitions(doc):
            if not self._is_method_definition(short, long, lexicon, shorts):
                continue
            shorts.add(bare_short_form(short.text))
            pairs.append((short.text, display_form(long.text, sentence_start=long.start == long.sent.start)))
            spans += [Span(doc, long.start, long.end, label=LONG_FORM)]
            spans += _occurrences(doc, long, LONG_FORM) + _acronym_uses(doc, short.text)
        return pairs, spans

    def _is_method_definition(self, short: Span, long: Span, lexicon: list[Span], shorts: set[str]) -> bool:
        """A definition names a method when the short form is name-shaped, or the long form ends
        in a method head, is a capitalised name, holds a lexicon term or an acronym already taken."""
        if concept_text(long.text) in self.vocab.generic:  # a field (`Artificial Intelligence (AI)`)
            return False
        if is_named(short):
            return True
        words = clean_surface(long.text).split()
        if (len(words) >= 2 or "-" in words[-1]) and singular(words[-1].split("-")[-1]).lower() in self.vocab.heads:
            return True
        content = [w for w in words if w.lower() not in self.vocab.stop_words]
        if len(content) >= 2 and all(w[:1].isupper() for w in content):
            return True
        if any(long.start <= s.start and s.end <= long.end for s in lexicon):
            return True
        return any(bare_short_form(t.text) in shorts for t in long)

    def _is_term(self, span: Span) -> bool:
        """The final guard: never a generic word, stop word, or letterless string alone."""
        text = concept_text(span.text)
        return (len(text) >= 2 and any(c.isalpha() for c in text)
                and text not in self.vocab.generic and text not in self.vocab.stop_words)


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


def bare_short_form(short: str) -> str:
    """A short form without its plural `s`: `DEBs` -> `DEB`."""
    return short[:-1] if len(short) > 2 and short.endswith("s") and short[-2].isupper() else short


def _acronym_uses(doc: Doc, short: str) -> list[Span]:
    bare = bare_short_form(short)
    return [Span(doc, t.i, t.i + 1, label=ACRONYM) for t in doc if bare_short_form(t.text) == bare]


def _occurrences(doc: Doc, long: Span, label: str) -> list[Span]:
    """Other uses of a long form in the doc (case-insensitive, either number)."""
    target = [t.lower_ for t in long]
    target[-1] = singular(target[-1])
    n = len(target)
    found = []
    for i in range(len(doc) - n + 1):
        if i != long.start and doc[i].lower_ == target[0] and \
                [t.lower_ for t in doc[i:i + n - 1]] == target[:-1] and singular(doc[i + n - 1].lower_) == target[-1]:
            found.append(Span(doc, i, i + n, label=label))
    return found


def _resolve(candidates: Iterable[Span]) -> list[Span]:
    """Non-overlapping spans in text order: first tier by rule, then second tier by length."""
    def rank(span: Span) -> tuple[int, int, int, int]:
        if span.label_ in _FIRST_TIER:
            return (0, _FIRST_TIER.index(span.label_), -len(span), span.start)
        return (1, -len(span), _SECOND_TIER.index(span.label_), span.start)

    taken: set[int] = set()
    chosen: list[Span] = []
    for span in sorted(candidates, key=rank):
        if not taken.intersection(range(span.start, span.end)):
            chosen.append(span)
            taken.update(range(span.start, span.end))
    return sorted(chosen, key=lambda s: s.start)
