"""`kg_sentencizer` gives spaCy's sentencizer's boundaries exactly, with real blank pipelines."""
from __future__ import annotations

import pytest
import spacy

from kg.extract import make_pipeline
from kg.extract.sentences import ArraySentencizer
from kg.readers import read

EDGE_TEXTS = [
    "", ".", "...", "x", "Hello world", "Hi. ", "End.", "a .. b", "Trailing space.  ",
    'A b. "C d." E f! (G) h? i', "e.g. this works. And 。that too", "One!!! Two?! (Three.) Four",
    "Numbers 1.5 and 2. Then $x.y$ in LaTeX. \\textbf{Bold}.", "Ellipsis... continues. Done",
    "Brackets (see Sec. 3) matter. [Ref.] Next", "ends with punctuation only .;:",
]


def sample_texts() -> list[str]:
    return [p.text for p in read(None, require_authors=False).papers]


def boundaries(nlp: spacy.Language, texts: list[str]) -> list[list[bool]]:
    return [[t.is_sent_start for t in doc] for doc in nlp.pipe(texts)]


def pipeline(factory: str, **config) -> spacy.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe(factory, config=config)
    return nlp


def test_make_pipeline_uses_it_under_the_sentencizer_name():
    nlp = make_pipeline()
    assert isinstance(nlp.get_pipe("sentencizer"), ArraySentencizer)
    assert nlp.get_pipe_meta("sentencizer").factory == "kg_sentencizer"


def test_same_boundaries_as_spacy_on_the_sample_and_edge_cases():
    texts = sample_texts() + EDGE_TEXTS
    expected = boundaries(pipeline("sentencizer"), texts)
    assert boundaries(pipeline("kg_sentencizer"), texts) == expected
    assert sum(map(sum, expected)) > 3 * len(texts)  # many sentences, not one per doc


def test_same_boundaries_with_custom_punct_chars():
    texts = sample_texts()[:5] + EDGE_TEXTS
    chars = [";", ":", "x"]  # `x` is no punctuation: it still ends a sentence, as in spaCy
    assert boundaries(pipeline("kg_sentencizer", punct_chars=chars), texts) == \
        boundaries(pipeline("sentencizer", punct_chars=chars), texts)


def test_punct_chars_survive_saving_and_loading(tmp_path):
    nlp = pipeline("kg_sentencizer", punct_chars=["!", "x"])
    nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)
    assert loaded.get_pipe("kg_sentencizer").punct_chars == {"!", "x"}
    assert [s.text for s in loaded("A x b! C").sents] == ["A x", "b!", "C"]


@pytest.mark.parametrize("text", ["", "word", "Two. Sentences"])
def test_no_punct_chars_means_one_sentence(text):
    sentencizer = ArraySentencizer("s")
    sentencizer.punct_chars = []
    doc = spacy.blank("en")(text)
    assert sentencizer.predict([doc]) == [[i == 0 for i in range(len(doc))]]
