"""Words as a reader sees them, over spaCy tokens.

The English tokenizer splits `BlockPerm-SJLT` into three tokens; `compound_words` joins tokens
linked by a dash with no space around it back into one word, so a hyphenated name or modifier
counts as one word. Every other token is a word of its own.

For speed the rules never touch spaCy objects per token: `Tokens` reads a Doc's tokens once into
plain lists; what depends only on a word's strings is computed once per distinct word
(`forms.Form`, cached by the component), not once per occurrence or per rule.
"""
from __future__ import annotations

import operator
import re
from bisect import bisect_right
from functools import cached_property, lru_cache
from itertools import compress, count, repeat

import numpy as np
from spacy.attrs import ORTH, SENT_START, SPACY
from spacy.tokens import Doc, Span

DASHES = frozenset({"-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"})
_WORDLIKE = re.compile(r"^[\w+#'.’]*\w[\w+#]*$")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]+s?$")


class Tokens:
    """A Doc's tokens as plain lists, read once: texts, trailing space and
    sentence starts (`sentence_starts`); POS tags when the pipeline has them (`tagged`)."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        array = doc.to_array([ORTH, SPACY, SENT_START])
        orth, self.space = array[:, :2].T.tolist() if len(doc) else ([], [])
        self.text = _texts(orth, doc)
        self.sentence_starts = sentence_starts(doc, array[:, 2])
        self.starts_sentence = frozenset(self.sentence_starts)
        self.tagged = doc.has_annotation("TAG")

    def __len__(self) -> int:
        return len(self.text)

    def span_text(self, start: int, end: int) -> str:
        """The text of tokens `start:end`, as `Span.text` gives it."""
        text, space = self.text, self.space
        if end - start == 1:  # most spans: one token
            return text[start]
        return "".join([text[i] + " " if space[i] else text[i] for i in range(start, end - 1)]) + text[end - 1]

    def sentence(self, i: int) -> tuple[int, int]:
        """The `(start, end)` token range of the sentence holding token `i`."""
        starts = self.sentence_starts
        k = bisect_right(starts, i)
        return starts[k - 1], (starts[k] if k < len(starts) else len(self))

    def indices(self, text: str, *, lower: bool = False) -> list[int]:
        """The indices of the tokens that are `text` (in lower case: `lower`), in order."""
        return _indices(self.lower if lower else self.text, text)

    @cached_property
    def pos(self) -> list[str]:
        return [t.pos_ for t in self.doc]

    @cached_property
    def lower(self) -> list[str]:
        return list(map(str.lower, self.text))


#: Token text by orth id (a hash of the text, the same in every vocabulary), shared by all docs:
#: looking texts up by the ids of a whole doc at once beats reading `Token.text` token by token.
_TEXTS: dict[int, str] = {}
_MAX_TEXTS = 1 << 17


def _texts(orth: list[int], doc: Doc) -> list[str]:
    texts = list(map(_TEXTS.get, orth))
    if not all(texts):  # a miss (None; a token text is never empty): look up only the misses
        if len(_TEXTS) >= _MAX_TEXTS:
            _TEXTS.clear()
        strings = doc.vocab.strings
        for k in compress(count(), map(operator.is_, texts, repeat(None))):
            texts[k] = _TEXTS[orth[k]] = strings[orth[k]]
    return texts


def sentences(doc: Doc) -> list[Span]:
    """The doc's sentences; a doc without sentence boundaries is one sentence."""
    return list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]


def sentence_starts(doc: Doc, sent: np.ndarray | None = None) -> list[int]:
    """The first token of each of `sentences(doc)`, read from the doc's `SENT_START` column (`sent`
    when the caller has it) rather than from a `Span` per sentence."""
    if "sents" in doc.user_hooks:
        return [s.start for s in sentences(doc)]
    if sent is None:
        sent = doc.to_array(SENT_START)
    # a token's SENT_START is 1 (starts), -1 (does not) or 0 (unset); unset everywhere after
    # the first token: one sentence (the first token always starts one, as `Doc.sents` has it)
    return [0, *(np.flatnonzero(sent[1:] == 1) + 1).tolist()] if len(sent) > 1 else [0] * len(sent)


def _indices(items: list[str], value: str) -> list[int]:
    found: list[int] = []
    try:
        while True:
            found.append(items.index(value, found[-1] + 1 if found else 0))
    except ValueError:
        return found


def compound_words(tokens: Tokens) -> tuple[list[int], list[tuple[int, int]]]:
    """The doc's words in order, as the index of each word's first token (word `i` spans tokens
    `starts[i]:starts[i + 1]`), and the `(start, end)` token ranges of the dash-joined words among
    them (`GP-UCB`, `quantization-aware`). A dash joins when it has no space on either side and
    word-like tokens on both; every other token is a word of its own."""
    text, space = tokens.text, tokens.space
    n = len(text)
    joins = sorted(d for dash in DASHES.intersection(text) for d in _indices(text, dash)
                   if 0 < d < n - 1 and not space[d - 1] and not space[d] and is_wordlike(text[d - 1])
                   and is_wordlike(text[d + 1]))
    compounds: list[tuple[int, int]] = []
    for d in joins:
        if compounds and compounds[-1][1] == d:  # `a-b-c`: the second dash continues the word
            compounds[-1] = (compounds[-1][0], d + 2)
        else:
            compounds.append((d - 1, d + 2))
    starts = list(range(n))
    for start, end in reversed(compounds):  # from the end, so the indices before stay put
        del starts[start + 1:end]
    return starts, compounds


@lru_cache(maxsize=1 << 16)
def is_wordlike(text: str) -> bool:
    """Letters/digits (with `+ # ' .` inside): not punctuation, not a bracket."""
    return text.isalnum() or bool(_WORDLIKE.match(text))  # isalnum: the common case, without the pattern


def is_acronym(text: str) -> bool:
    """All capitals (digits allowed), optionally plural: `SGD`, `LLMs`, `FC2`."""
    return bool(_ACRONYM.match(text))
