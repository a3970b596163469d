"""`kg.extract.lexemes`: the short-path lexical attributes give spaCy's values, and `make_pipeline`
uses them."""
from __future__ import annotations

import pytest
import spacy
from spacy.attrs import IS_ASCII, LIKE_NUM, LIKE_URL, SHAPE
from spacy.lang import lex_attrs
from spacy.lang.en import lex_attrs as english

from kg.extract import lexemes, make_pipeline
from kg.readers import read

#: Shapes and scripts the short paths must not get wrong: title case letters, letters without case,
#: non-ASCII digits and letters, number and ordinal words, numbers, addresses, long words.
ODD = ["a", "A", "Ab", "AB", "aB", "ǅa", "ªb", "²³", "١٢", "Ⅻ", "İi", "ß", "ﬁ", "k̈", "日本", "𝐀b", "é", "Éé",
       "one", "First", "THIRD", "tenth", "12th", "1/2", "+3", "-1.5", "1,000", "http://x", "https://", "www.a",
       "a.com", "x@y.org", "github.com/x", "x" * 99, "x" * 100, "X" * 120, "e.g.", "LLMs", "GPT-4", "(", "..."]
PAIRS = [(lex_attrs.word_shape, lexemes.word_shape), (english.like_num, lexemes.like_num),
         (lex_attrs.like_url, lexemes.like_url), (lex_attrs.is_ascii, lexemes.is_ascii)]


def words() -> list[str]:
    nlp = spacy.blank("en")
    texts = [p.text for p in read(None, require_authors=False).papers]
    return sorted({t.text for doc in nlp.pipe(texts) for t in doc} | set(ODD))


@pytest.mark.parametrize(("spacys", "faster"), PAIRS, ids=[f.__name__ for f, _ in PAIRS])
def test_each_attribute_is_spacys(spacys, faster):
    every = words()
    assert len(every) > 1000
    assert [w for w in every if faster(w) != spacys(w)] == []


def test_pipeline_lexemes_have_blank_englishs_attributes():
    ours, blank = make_pipeline(), spacy.blank("en")
    for attr in (SHAPE, LIKE_NUM, LIKE_URL, IS_ASCII):
        assert ours.vocab.lex_attr_getters[attr] is not blank.vocab.lex_attr_getters[attr]
    fields = ("shape_", "like_num", "like_url", "is_ascii", "lower_", "norm_", "is_stop", "is_punct")
    assert ([[getattr(ours.vocab[w], f) for f in fields] for w in ODD]
            == [[getattr(blank.vocab[w], f) for f in fields] for w in ODD])
