"""Nothing lost on the way in (issue 18 items 1-3, issue 21's repeated name): distinct papers stay
distinct, merges say what differs, names stay whole, blank names and empty track parts are reported."""
from __future__ import annotations

import json

import pytest

from kg.cli import main
from kg.errors import RecordError
from kg.graph import build_graph
from kg.readers import Duplicate, read
from kg.readers.notices import FieldProblem, SameName
from kg.readers.dedupe import SharedAbstract

ABSTRACT = "We study sparse sketches. They are fast and small."


def _listing(tmp_path, text, name="l.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _jsonl(tmp_path, *records, name="r.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


# ------------------------------------------------------------------ one abstract, two papers
def test_same_abstract_under_other_authors_is_two_papers_and_a_notice(tmp_path):
    path = _listing(tmp_path, f"Ana Silva, Bo Li\n\n{ABSTRACT}\n\nCarl Zeiss, Dora Maar\n\n{ABSTRACT}\n")
    result = read([path])
    first, second = result.papers
    assert [a.name for a in first.authors] == ["Ana Silva", "Bo Li"]
    assert [a.name for a in second.authors] == ["Carl Zeiss", "Dora Maar"]
    assert first.key != second.key and result.duplicates == 0
    [notice] = result.problems
    assert isinstance(notice, SharedAbstract) and not notice.lost
    assert str(notice) == (f"{path}:5: same abstract as the paper at {path}:1 but other authors "
                           "(Carl Zeiss, Dora Maar vs Ana Silva, Bo Li); kept as two papers")
    G = build_graph(result.papers)
    assert G.graph["n_papers"] == 2 and G.graph["n_authors"] == 4


def test_the_keys_are_stable_and_the_first_paper_keeps_its_plain_key(tmp_path):
    alone = read([_listing(tmp_path, f"Ana Silva, Bo Li\n\n{ABSTRACT}\n", "a.txt")]).papers[0].key
    both = _listing(tmp_path, f"Ana Silva, Bo Li\n\n{ABSTRACT}\n\nCarl Zeiss\n\n{ABSTRACT}\n\n"
                              f"Dora Maar\n\n{ABSTRACT}\n", "b.txt")
    keys = [p.key for p in read([both]).papers]
    assert keys[0] == alone and len(set(keys)) == 3
    assert keys == [p.key for p in read([both]).papers]  # deterministic


def test_same_abstract_and_authors_with_another_title_is_two_papers(tmp_path):
    path = _jsonl(tmp_path, {"authors": ["Ana Silva"], "title": "Part I", "abstract": ABSTRACT},
                  {"authors": ["Ana Silva"], "title": "Part II", "abstract": ABSTRACT})
    result = read([path])
    assert [p.title for p in result.papers] == ["Part I", "Part II"]
    assert "another title ('Part II' vs 'Part I')" in str(result.problems[0])


def test_cli_strict_keeps_both_papers_and_exits_0(tmp_path, capsys):
    path = _listing(tmp_path, f"Ana Silva, Bo Li\n\n{ABSTRACT}\n\nCarl Zeiss, Dora Maar\n\n{ABSTRACT}\n")
    assert main(["papers", str(path), "--json", "--strict", "-q"]) == 0
    out, err = capsys.readouterr()
    assert [r["authors"] for r in json.loads(out)] == [["Ana Silva", "Bo Li"], ["Carl Zeiss", "Dora Maar"]]
    assert "same abstract as the paper at" in err


# ------------------------------------------------------------------------- merges say all
def test_a_truncated_listing_and_its_full_record_merge_saying_what_was_taken(tmp_path):
    listing = _listing(tmp_path, f"Ana Silva 等\n\n{ABSTRACT}\n")
    full = _jsonl(tmp_path, {"id": "p9", "title": "Sketches", "authors": ["Ana Silva", "Bo Li"], "abstract": ABSTRACT})
    result = read([listing, full], strict=True)
    [paper] = result.papers
    assert [a.name for a in paper.authors] == ["Ana Silva", "Bo Li"] and not paper.authors_truncated
    [notice] = result.problems
    assert str(notice) == f"{full}:1: merged with {listing}:1 (same content); taking its title, id, authors"
    assert not notice.lost


def test_every_disagreement_of_a_merge_is_reported_and_strict_fails(tmp_path, capsys):
    path = _jsonl(tmp_path, {"id": "x", "authors": ["Ana Silva"], "abstract": ABSTRACT, "year": 2023},
                  {"id": "x", "authors": ["Carl Zeiss"], "abstract": ABSTRACT, "year": 2024, "venue": "V"})
    result = read([path])
    [paper] = result.papers
    assert [a.name for a in paper.authors] == ["Ana Silva"] and paper.year == 2023 and paper.venue == "V"
    [notice] = result.problems
    assert isinstance(notice, Duplicate) and notice.lost
    assert str(notice) == (f"{path}:2: merged with {path}:1 (same id x); taking its venue; "
                           "year differs: '2024' vs '2023' (the first kept); "
                           "authors differ: Carl Zeiss vs Ana Silva (the first kept)")
    assert main(["papers", str(path), "--strict", "-q"]) == 1
    assert "authors differ: Carl Zeiss vs Ana Silva" in capsys.readouterr().err


def test_names_written_differently_in_a_merge_are_reported(tmp_path):
    listing = _listing(tmp_path, f"ana silva\n\n{ABSTRACT}\n")
    other = _jsonl(tmp_path, {"authors": ["Ana Silva"], "abstract": ABSTRACT})
    [notice] = read([listing, other]).problems
    assert "author names written differently: 'Ana Silva' vs 'ana silva'" in str(notice) and notice.lost


# ------------------------------------------------------------------------ names stay whole
def test_a_line_break_inside_a_json_name_is_a_space(tmp_path):
    path = _jsonl(tmp_path, {"authors": ["New\nLine  Name", "Bo Li"], "abstract": ABSTRACT,
                             "keywords": ["sparse\nsketch"]})
    [paper] = read([path], strict=True).papers
    assert [a.name for a in paper.authors] == ["New Line Name", "Bo Li"]
    assert paper.keywords == ("sparse sketch",)


def test_a_line_break_inside_a_csv_name_is_a_space(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(f'authors,abstract\n"New\nLine Name; Bo Li","{ABSTRACT}"\n', encoding="utf-8")
    [paper] = read([path], strict=True).papers
    assert [a.name for a in paper.authors] == ["New Line Name", "Bo Li"]


def test_an_et_al_item_of_a_json_list_marks_it_truncated(tmp_path):
    path = _jsonl(tmp_path, {"authors": ["Ana Silva", "et al."], "abstract": ABSTRACT})
    [paper] = read([path], strict=True).papers
    assert [a.name for a in paper.authors] == ["Ana Silva"] and paper.authors_truncated


# -------------------------------------------------------- blank names and empty track parts
def test_a_blank_json_author_is_reported_and_left_out(tmp_path):
    path = _jsonl(tmp_path, {"authors": ["Ana Silva", "   ", "Bo Li"], "abstract": ABSTRACT})
    result = read([path])
    [paper] = result.papers
    assert [a.name for a in paper.authors] == ["Ana Silva", "Bo Li"]
    [problem] = result.problems
    assert isinstance(problem, FieldProblem)
    assert str(problem) == f"{path}:1: author 2 of 3 is blank; that author left out"
    with pytest.raises(RecordError, match="author 2 of 3 is blank"):
        read([path], strict=True)


def test_a_blank_listing_author_is_reported(tmp_path):
    path = _listing(tmp_path, f"Ana Silva, , Bo Li\n\n{ABSTRACT}\n")
    result = read([path])
    assert [a.name for a in result.papers[0].authors] == ["Ana Silva", "Bo Li"]
    assert [str(p) for p in result.problems] == [f"{path}:1: author 2 of 3 is blank; that author left out"]
    assert result.summary() == "read 1 paper from 1 file (0 duplicates merged, 0 records skipped, 1 field problem)"


@pytest.mark.parametrize("track", ["    · xxx", "Area ·", "Area ·  · Sub", {"area": "", "subarea": "xxx"}])
def test_a_track_with_an_empty_part_is_reported_never_an_area(tmp_path, track):
    path = _jsonl(tmp_path, {"authors": ["Ana Silva"], "abstract": ABSTRACT, "track": track})
    result = read([path])
    [paper] = result.papers
    assert paper.track is None
    [problem] = result.problems
    assert isinstance(problem, FieldProblem) and problem.line == 1
    assert "has an empty area or subarea around its separator; track not used" in problem.message
    assert main(["papers", str(path), "--strict", "-q"]) == 1


def test_a_listing_track_line_with_an_empty_area_is_reported(tmp_path):
    path = _listing(tmp_path, f"    · xxx\nAna Silva\n\n{ABSTRACT}\n".replace("\nAna", "\n\nAna"))
    result = read([path])
    [paper] = result.papers
    assert paper.track is None and [a.name for a in paper.authors] == ["Ana Silva"]
    assert [p.line for p in result.problems] == [1] and "track '· xxx'" in result.problems[0].message


# --------------------------------------------------------------- one name twice on a paper
def test_two_authors_with_one_name_keep_both_positions_and_are_reported(tmp_path):
    path = _listing(tmp_path, f"Chao Liu, Ana Silva, Chao Liu\n\n{ABSTRACT}\n")
    result = read([path], strict=True)
    [paper] = result.papers
    assert [a.name for a in paper.authors] == ["Chao Liu", "Ana Silva", "Chao Liu"]
    [notice] = result.problems
    assert isinstance(notice, SameName) and notice.positions == [1, 3] and not notice.lost
    assert str(notice) == (f"{path}:1: authors 1 and 3 are both named 'Chao Liu'; each position kept, whether "
                           "they are one person is unknown (two people unless an ID says one)")


def test_one_id_in_two_files_for_two_papers_is_two_papers(tmp_path):
    """ICML 2020 and 2023 in the shared data number 280 different papers with the same ids."""
    first = _jsonl(tmp_path, {"id": "000c", "title": "Distribution augmentation", "authors": ["Ana Silva"],
                              "abstract": ABSTRACT}, name="a.jsonl")
    second = _jsonl(tmp_path, {"id": "000c", "title": "Score approximation", "authors": ["Bo Li"],
                               "abstract": "Diffusion models are studied. They work."}, name="b.jsonl")
    result = read([first, second], strict=True)
    assert [p.title for p in result.papers] == ["Distribution augmentation", "Score approximation"]
    [notice] = result.problems
    assert str(notice) == (f"{second}:1: same id 000c as the paper at {first}:1 but other authors (Bo Li vs Ana Silva); "
                           "kept as two papers")
    same = _jsonl(tmp_path, {"id": "000c", "title": "Distribution augmentation", "authors": ["Ana Silva"],
                             "abstract": ABSTRACT, "year": 2020}, name="c.jsonl")
    merged = read([first, same])
    assert len(merged.papers) == 1 and merged.papers[0].year == 2020  # the same paper: merged by id
