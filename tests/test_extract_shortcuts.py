"""Short paths around spaCy's per-word Python work give spaCy's results: the lexical attributes
(`kg.extract.lexemes`) and the tokenizer's patterns (`kg.extract.pipeline`), with real pipelines."""
from __future__ import annotations

import pickle
from itertools import product
from string import ascii_letters

import pytest
import spacy
from spacy.attrs import IS_ASCII, LIKE_NUM, LIKE_URL, SHAPE
from spacy.lang import lex_attrs
from spacy.lang.en import lex_attrs as english
from spacy.tokenizer import Tokenizer

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


def letter_words() -> list[str]:
    """Every word of one to three ASCII letters, and the sample's words of letters."""
    short = ["".join(p) for n in (1, 2, 3) for p in product(ascii_letters, repeat=n)]
    return short + [w for w in words() if w.isalpha() and w.isascii()]


def test_tokenizer_patterns_find_nothing_in_letters_as_the_patterns_themselves():
    tokenizer = make_pipeline().tokenizer
    suffix, infix = tokenizer.suffix_search.__self__, tokenizer.infix_finditer.__self__
    letters = letter_words()
    url = tokenizer.url_match.__self__
    assert [w for w in letters if suffix.search(w) or infix.search(w) or url.match(w)] == []
    assert all(tokenizer.suffix_search(w) is None and list(tokenizer.infix_finditer(w)) == []
               and tokenizer.url_match(w) is None for w in letters)


def test_tokenizer_gives_the_tokens_of_its_bare_patterns():
    nlp = make_pipeline()
    tokenizer = nlp.tokenizer
    bare = Tokenizer(nlp.vocab, tokenizer.rules, tokenizer.prefix_search, tokenizer.suffix_search.__self__.search,
                     tokenizer.infix_finditer.__self__.finditer, tokenizer.token_match.__self__.match,
                     tokenizer.url_match.__self__.match)
    texts = [p.text for p in read(None, require_authors=False).papers]
    texts += [" ".join(ODD), "GSM8K. ImageNet-1K (LLM)-powered 400M see https://x.org/a, www.b.com or a.io."]
    assert [[t.text for t in tokenizer(x)] for x in texts] == [[t.text for t in bare(x)] for x in texts]
    for word in ("GSM8K", "ImageNet-1K", "LAION-400m", "Flickr30K", "ResNet", "x1K\n", "x1Kb"):
        assert bool(tokenizer.token_match(word)) == bool(tokenizer.token_match.__self__.match(word))


def test_tokenizer_still_serialises():
    nlp = make_pipeline()
    restored = spacy.blank("en").tokenizer.from_bytes(nlp.tokenizer.to_bytes())
    assert [t.text for t in restored("(LLM)-powered GSM8K.")] == [t.text for t in nlp.tokenizer("(LLM)-powered GSM8K.")]
    copy = pickle.loads(pickle.dumps(nlp.tokenizer))
    assert [t.text for t in copy("(LLM)-powered GSM8K.")] == ["(", "LLM", ")", "-powered", "GSM8K", "."]
