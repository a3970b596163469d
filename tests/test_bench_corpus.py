"""The benchmark corpus generator (benchmarks/corpus.py): deterministic, right size, readable back."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import corpus  # noqa: E402

from kg.readers import read  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def vocab() -> corpus.Vocabulary:
    """The vocabulary mined from ../shared/data when present, else the built-in one."""
    return corpus.load_vocabulary()


@pytest.fixture(scope="module")
def papers(vocab: corpus.Vocabulary) -> list[corpus.SyntheticPaper]:
    return list(corpus.generate(N, seed=7, vocab=vocab))


def test_same_seed_same_corpus_other_seed_other_corpus(vocab, papers):
    assert list(corpus.generate(N, seed=7, vocab=vocab)) == papers
    assert list(corpus.generate(N, seed=8, vocab=vocab)) != papers


def test_requested_count_and_team_sizes(vocab, papers):
    assert len(papers) == N
    assert len(list(corpus.iter_papers(50, seed=7, vocab=vocab))) == 50
    assert all(1 <= len(p.authors) <= corpus.MAX_AUTHORS for p in papers)
    assert all(len(set(p.authors)) == len(p.authors) for p in papers)


def test_abstracts_give_extraction_real_work(papers):
    words = [len(p.abstract.split()) for p in papers]
    assert min(words) >= corpus.MIN_WORDS and sum(words) / len(words) <= corpus.MAX_WORDS
    for paper in papers:
        acronym = re.search(r"\(([A-Z][A-Za-z0-9-]+)\)", paper.abstract)
        assert acronym, paper.abstract
        assert paper.abstract.count(acronym.group(1)) >= 2  # defined, then used
    assert any("$" in p.abstract for p in papers) and any("\\textbf{" in p.abstract for p in papers)


def test_listing_and_jsonl_read_back_to_the_same_papers(tmp_path, vocab, papers):
    listing = corpus.write_listing(papers, tmp_path / "c.txt")
    jsonl = corpus.write_jsonl(papers, tmp_path / "c.jsonl")
    from_listing, from_jsonl = read([listing]), read([jsonl])
    assert len(from_listing.papers) == len(from_jsonl.papers) == N
    assert not from_listing.problems and not from_jsonl.problems
    in_memory = list(corpus.iter_papers(N, seed=7, vocab=vocab))
    assert [p.key for p in from_listing.papers] == [p.key for p in in_memory]
    assert [len(p.authors) for p in from_listing.papers] == [len(p.authors) for p in papers]
    assert [p.authors_truncated for p in from_jsonl.papers] == [p.truncated for p in papers]


def test_built_in_vocabulary_without_shared_data(tmp_path):
    vocab = corpus.load_vocabulary(tmp_path)
    assert vocab.source == "built-in"
    papers = list(corpus.generate(40, seed=1, vocab=vocab))
    assert len(papers) == 40 and all(1 <= len(p.authors) <= corpus.MAX_AUTHORS for p in papers)
