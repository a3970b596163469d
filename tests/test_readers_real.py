"""The real IJCAI 2024 listing reads back to the same papers as its JSONL version (shared data)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.readers import Duplicate, read
from kg.readers.notices import SameName
from kg.readers.fields import parse_track

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LISTING, JSONL = SHARED / "ijcai2024_listing.txt", SHARED / "ijcai2024.jsonl"

pytestmark = pytest.mark.skipif(not (LISTING.exists() and JSONL.exists()),
                                reason="../shared/data with the IJCAI 2024 files is not beside the repo")


@pytest.fixture(scope="module")
def listing():
    return read([LISTING])


@pytest.fixture(scope="module")
def rows():
    with JSONL.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_listing_reads_1044_papers_without_problems(listing):
    assert len(listing.papers) == 1044
    [notice] = listing.problems  # one paper lists two authors named Shuai Wang: both kept
    assert isinstance(notice, SameName) and notice.line == 1709 and notice.positions == [2, 7]
    [paper] = [p for p in listing.papers if p.source.line == 1709]
    assert [a.name for a in paper.authors].count("Shuai Wang") == 2


def test_listing_matches_jsonl_papers_authors_and_tracks(listing, rows):
    assert len(rows) == len(listing.papers)
    for paper, row in zip(listing.papers, rows):
        assert paper.abstract == row["abstract"].strip()
        assert [a.name for a in paper.authors] == [" ".join(name.split()) for name in row["authors"]]
        assert paper.track == parse_track(row["track"])
    assert sum(p.track is None for p in listing.papers) == sum(r["track"] is None for r in rows)
    assert any(p.track and "," in p.track.subarea for p in listing.papers)  # commas inside subareas
    assert any(p.track and "," in p.track.area for p in listing.papers)


def test_jsonl_reads_the_same_and_merges_with_the_listing(listing):
    jsonl = read([JSONL])
    assert [(p.key, p.authors, p.track) for p in jsonl.papers] == \
           [(p.key, p.authors, p.track) for p in listing.papers]
    both = read([LISTING, JSONL])
    assert len(both.papers) == 1044 and both.duplicates == 1044 and both.skipped == 0
    assert not any(p.lost for p in both.problems if isinstance(p, Duplicate))  # nothing differs
    assert all(p.title and p.id and p.source.file == str(LISTING) for p in both.papers)
