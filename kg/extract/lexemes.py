"""spaCy's English lexical attributes with a short path for plain words: the same values, fewer steps.

spaCy computes some twenty attributes of every word the vocabulary has not seen yet, one Python
function each; on a corpus of new texts that is a sizeable share of tokenizing. Four of them walk
the word character by character or through a list: `SHAPE`, `LIKE_NUM`, `LIKE_URL`, `IS_ASCII`.
Each replacement answers a word of letters (or digits, or one without a dot) directly and hands
anything else to spaCy's own function, so every value is the one spaCy gives.
"""
from __future__ import annotations

from spacy.attrs import IS_ASCII, LIKE_NUM, LIKE_URL, SHAPE
from spacy.lang import lex_attrs
from spacy.lang.en import lex_attrs as english
from spacy.vocab import Vocab

#: `english.like_num`'s number and ordinal words, as one set (spaCy keeps lists).
_NUMBER_WORDS = frozenset(english._num_words) | frozenset(english._ordinal_words)
#: `lex_attrs.word_shape` gives this for a text this long or longer.
_LONG = 100


def word_shape(text: str) -> str:
    """`lex_attrs.word_shape`: `x`/`X`/`d` per character, at most four alike in a row."""
    if len(text) < _LONG:
        if text.isalpha():
            if text.islower():  # no capital: every letter is `x`
                return "x" * min(len(text), 4)
            if text[0].isupper() and text[1:].islower():
                return "X" + "x" * min(len(text) - 1, 4)
        elif text.isdigit():
            return "d" * min(len(text), 4)
    return lex_attrs.word_shape(text)


def like_num(text: str) -> bool:
    """`english.like_num`: a word of letters is a number when it is a number or ordinal word."""
    if text.isalpha():
        return text.lower() in _NUMBER_WORDS
    return english.like_num(text)


def like_url(text: str) -> bool:
    """`lex_attrs.like_url`: without a dot, only a text starting with `http://` or `https://` is one."""
    if "." not in text:
        return text.startswith(("http://", "https://"))
    return lex_attrs.like_url(text)


def is_ascii(text: str) -> bool:
    """`lex_attrs.is_ascii`, by `str.isascii`."""
    return text.isascii()


#: attribute -> (spaCy's function, its replacement)
_FASTER = {SHAPE: (lex_attrs.word_shape, word_shape), LIKE_NUM: (english.like_num, like_num),
           LIKE_URL: (lex_attrs.like_url, like_url), IS_ASCII: (lex_attrs.is_ascii, is_ascii)}


def use_faster_attributes(vocab: Vocab) -> None:
    """Replace, in `vocab`, each of spaCy's functions above that it uses by its short-path version."""
    getters = dict(vocab.lex_attr_getters or {})
    for attr, (spacys, faster) in _FASTER.items():
        if getters.get(attr) is spacys:
            getters[attr] = faster
    vocab.lex_attr_getters = getters
