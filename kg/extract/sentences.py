"""The registered spaCy component `kg_sentencizer`: spaCy's rule-based `Sentencizer`, with the same
boundaries, decided on a doc's token arrays at once instead of token by token.

spaCy's version makes a `Token` object per token to read its text and punctuation flag; this one
reads the arrays (figures: docs/method-keywords.md, `benchmarks/extraction_instructions.py`).
`make_pipeline` adds it, under the pipe name `sentencizer`, when a pipeline has no sentence
boundaries of its own.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, count

from spacy.attrs import IS_PUNCT, ORTH
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.strings import get_string_id
from spacy.tokens import Doc


@Language.factory("kg_sentencizer", default_config={"punct_chars": None, "overwrite": False})
def make_sentencizer(nlp: Language, name: str, punct_chars: list[str] | None, overwrite: bool) -> ArraySentencizer:
    """spaCy factory: `nlp.add_pipe("kg_sentencizer")`, configured as spaCy's `sentencizer`."""
    return ArraySentencizer(name, punct_chars=punct_chars, overwrite=overwrite)


class ArraySentencizer(Sentencizer):
    """A sentence starts at the first token that is neither punctuation nor a sentence-final
    character after a sentence-final character (`punct_chars`), and at the doc's first token."""

    @property
    def punct_chars(self) -> set[str]:
        return self._punct_chars

    @punct_chars.setter
    def punct_chars(self, chars: Iterable[str]) -> None:  # set by __init__ and from_bytes/from_disk
        self._punct_chars = set(chars)
        self._punct_ids = frozenset(get_string_id(c) for c in self._punct_chars)

    def predict(self, docs: Iterable[Doc]) -> list[list[bool]]:
        """Per doc, whether each token starts a sentence."""
        return [self._starts(doc) for doc in docs]

    def _starts(self, doc: Doc) -> list[bool]:
        n = len(doc)
        if not n:
            return []
        orth, punct = doc.to_array([ORTH, IS_PUNCT]).T.tolist()
        final = self._punct_ids
        starts = [False] * n
        starts[0] = True
        # after each sentence-final token, the next token that is neither final nor punctuation
        for i in compress(count(1), map(final.__contains__, orth)):
            while i < n and (punct[i] or orth[i] in final):
                i += 1
            if i < n:
                starts[i] = True
        return starts
