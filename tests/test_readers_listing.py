"""The listing reader: every quirk of the format, every malformed-record path."""
from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import RecordError
from kg.readers import read, sample_path
from kg.readers.listing import is_prose, iter_records
from kg.records import Track

DATA = Path(__file__).parent / "data" / "readers"


def _papers(path: Path):
    return [item for item in iter_records(path) if not isinstance(item, RecordError)]


def _problems(path: Path):
    return [item for item in iter_records(path) if isinstance(item, RecordError)]


# ------------------------------------------------------------------------- the embedded sample
def test_sample_has_20_papers_17_with_a_track():
    papers = read(None).papers
    assert len(papers) == 20
    assert sum(p.track is not None for p in papers) == 17
    assert sum(p.track is None for p in papers) == 3


def test_sample_authors_truncation_and_names_as_written():
    papers = read([sample_path()]).papers
    names = [[a.name for a in p.authors] for p in papers]
    assert sum("Jing Liu" in n for n in names) == 2
    assert not any("等" in name for n in names for name in n)
    truncated = [p for p in papers if p.authors_truncated]
    assert len(truncated) == 1 and truncated[0].authors[-1].name == "zhou Xun"
    assert truncated[0].authors[-1].key == "zhou-xun"
    assert "Zeng" in [a.name for a in truncated[0].authors]


def test_sample_header_is_not_a_record_and_sources_point_at_first_lines():
    result = read(None)
    assert result.problems == []
    first = result.papers[0]
    assert first.source.line == 3  # line 1 is the page header
    assert first.track == Track("Deep Learning", "Everything Else")
    assert first.title is None and first.id is None
    lines = sample_path().read_text(encoding="utf-8").splitlines()
    for paper in result.papers:
        start = lines[paper.source.line - 1].rstrip()
        if paper.track is not None:
            assert start == paper.track.label
        else:
            assert start.startswith(paper.authors[0].name + ",")


def test_sample_keeps_latex_in_abstract_and_cleans_text():
    papers = read(None).papers
    latex = [p for p in papers if "\\textbf{" in p.abstract]
    assert latex
    assert all("\\textbf" not in p.text and "$" not in p.text for p in papers)


# ------------------------------------------------------------------------------ the quirk file
@pytest.fixture(scope="module")
def quirks():
    return _papers(DATA / "listing_quirks.txt")


def test_quirks_file_really_has_bom_crlf_and_trailing_spaces():
    raw = (DATA / "listing_quirks.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw and b"  \r\n" in raw


def test_quirks_all_read_without_problems(quirks):
    assert _problems(DATA / "listing_quirks.txt") == []
    assert len(quirks) == 11


def test_header_bom_crlf_and_trailing_spaces_are_invisible(quirks):
    first = quirks[0]
    assert first.source.line == 3
    assert first.track == Track("Machine Learning", "Federated learning")
    assert [a.name for a in first.authors] == ["Ana Silva", "zhou Xun", "Zeng"]
    assert all("\r" not in p.abstract and not p.abstract.endswith(" ") for p in quirks)


def test_missing_track_is_never_inherited(quirks):
    assert quirks[0].track is not None
    assert quirks[1].track is None  # the record after a tracked one has no track line
    assert quirks[-1].track is None


@pytest.mark.parametrize("index, names", [(1, ["Bo Li", "Jing Liu"]), (2, ["Jing Liu", "Chen Wang"]),
                                           (3, ["Mary Smith", "John Doe"])])
def test_truncation_markers_are_flags_not_authors(quirks, index, names):
    assert [a.name for a in quirks[index].authors] == names
    assert quirks[index].authors_truncated


def test_one_level_tracks(quirks):
    assert quirks[3].track == Track("Computer Vision")  # a known area: Computer Vision · 3D vision exists
    assert quirks[4].track == Track("Robotics")        # not known, but no comma and before an author line
    assert [a.name for a in quirks[4].authors] == ["Single Author"]


@pytest.mark.parametrize("index, track", [
    (5, Track("Data Mining", "Graph mining")),                      # • bullet
    (6, Track("Natural Language Processing", "Machine translation")),  # ・ katakana middle dot
    (7, Track("Search", "Heuristic search")),                        # — em dash
    (8, Track("Planning", "Scheduling, timetabling")),               # ‧ hyphenation point, comma
    (9, Track("Theory", "Complexity")),                              # – en dash
])
def test_separator_variants(quirks, index, track):
    assert quirks[index].track == track


def test_oddly_cased_names_and_multiline_abstract(quirks):
    paper = quirks[8]
    assert [a.name for a in paper.authors] == ["ALL CAPS NAME", "lower name"]
    assert paper.abstract == "This abstract spans\ntwo lines of the file. It is still one paragraph."
    assert paper.text == "This abstract spans two lines of the file. It is still one paragraph."


def test_dash_variants_do_not_change_the_key(tmp_path):
    base = "Ana Silva\n\nThe Johnson{} Lindenstrauss transform is used. It is fast.\n"
    keys = set()
    for dash in "-–—‐":
        path = tmp_path / f"d{ord(dash)}.txt"
        path.write_text(base.format(dash), encoding="utf-8")
        keys |= {p.key for p in _papers(path)}
    assert len(keys) == 1


# -------------------------------------------------------------------------------- malformed
@pytest.fixture(scope="module")
def malformed():
    return list(iter_records(DATA / "listing_malformed.txt"))


def test_malformed_records_are_skipped_and_the_rest_kept(malformed):
    papers = [p for p in malformed if not isinstance(p, RecordError)]
    assert [p.source.line for p in papers] == [5, 25]
    assert papers[0].track == Track("Computer Vision", "3D vision")
    assert papers[1].track is None


@pytest.mark.parametrize("line, fragment", [
    (1, "record has no abstract paragraph"),
    (11, "no author names"),
    (15, "abstract without an author line"),
    (17, "the line before the abstract is a track line"),
    (23, "not UTF-8 (byte 0xE9"),
    (29, "record has no abstract paragraph"),
])
def test_each_malformed_record_names_file_and_line(malformed, line, fragment):
    problems = {p.line: p for p in malformed if isinstance(p, RecordError)}
    assert set(problems) == {1, 11, 15, 17, 23, 29}
    problem = problems[line]
    assert fragment in problem.message
    assert str(problem).startswith(f"{DATA / 'listing_malformed.txt'}:{line}: ")


def test_a_file_that_is_not_utf8_is_reported_with_its_line():
    [problem] = _problems(DATA / "latin1.txt")
    assert problem.line == 1 and "not UTF-8" in str(problem) and "re-save" in str(problem)


def test_a_stray_author_line_with_commas_is_not_a_track(tmp_path):
    path = tmp_path / "stray.txt"
    path.write_text("Title Of Page\n\nAna Silva\n\nFirst abstract here. It is fine.\n\n"
                    "Lost Author, Other Author\n\nBo Li\n\nSecond abstract here. Its record is fine.\n",
                    encoding="utf-8")
    items = list(iter_records(path))
    assert [type(i).__name__ for i in items] == ["Paper", "RecordError", "Paper"]
    assert items[0].track is None  # `Title Of Page` was the header
    assert items[1].line == 7 and items[2].track is None


def test_header_is_only_recognised_before_the_first_record(tmp_path):
    path = tmp_path / "late.txt"
    path.write_text("Ana Silva\n\nFirst abstract here. It is fine.\n\nNot A Header\n\nBo Li\n\n"
                    "Second abstract here. It is fine.\n", encoding="utf-8")
    papers = _papers(path)
    assert papers[0].track is None and papers[1].track == Track("Not A Header")


@pytest.mark.parametrize("text, prose", [
    ("We study X. It works.", True),
    ("Jing Liu, Zeng, zhou Xun 等", False),
    ("Mary Smith, John Doe et al.", False),
    ("Lucius E.J. Bynum, Joshua R. Loftus", False),
    ("Knowledge Representation and Reasoning · Reasoning about knowledge and belief", False),
    ("a long run of words without any period at all but clearly not a name", True),
])
def test_is_prose(text, prose):
    assert is_prose(text) is prose
