"""The bibliographic database readers on their sample exports (tests/data/exports, see its README):
each file read completely, its fields, author identity by external id, and the error paths."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.errors import RecordError
from kg.readers import Duplicate, FieldProblem, Notice, iter_records, read
from kg.readers.detect import detect_format
from kg.readers.springer import split_joined
from kg.records import Track

EXPORTS = Path(__file__).parent / "data" / "exports"
TITLES = ["SketchGNN: Sparse sketching for streaming graph embeddings",
          "Low-rank adapters for multilingual speech recognition",
          "Federated Thompson sampling under heterogeneous clients",
          "A survey of benchmark contamination in code generation"]
#: file -> (format detected, records in the file, which of the four papers, in order)
FILES = {
    "scopus.csv": ("scopus", [0, 1, 2, 3]), "scopus_classic.csv": ("scopus", [0, 1, 2, 3]),
    "ieee.csv": ("ieee", [0, 1, 2]), "springer.csv": ("springer", [2, 0, 3]),
    "wos.txt": ("wos", [0, 1, 2]), "wos_tab.txt": ("wos-tab", [1, 2]), "records.ris": ("ris", [0, 1, 2, 3]),
    "openalex.json": ("openalex", [0, 1, 2, 3]), "openalex.jsonl": ("openalex", [0, 1]),
    "openreview_v1.json": ("openreview", [0, 1]), "openreview_v2.json": ("openreview", [1, 2]),
    "s2.json": ("s2", [0, 1, 2, 3]),
}


def _papers(name: str, **kwargs):
    items = list(iter_records(EXPORTS / name, **kwargs))
    return [i for i in items if not isinstance(i, RecordError)], [i for i in items if isinstance(i, RecordError)]


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_export_is_detected_and_read_completely(name):
    format, which = FILES[name]
    assert detect_format(EXPORTS / name) == format
    papers, problems = _papers(name)
    assert [p.title for p in papers] == [TITLES[i] for i in which]
    assert all(p.year in (2022, 2023, 2024) for p in papers)
    assert all(p.authors and p.source.file == str(EXPORTS / name) for p in papers)
    assert all(p.text for p, i in zip(papers, which) if i != 3 and format != "springer")  # paper 3 has no abstract
    assert not [p for p in problems if not isinstance(p, Notice)]  # only notices: nothing left out
    assert read([EXPORTS / name], format=format).skipped == 0


@pytest.mark.parametrize("name", ["scopus.csv", "wos.txt", "records.ris", "openalex.json", "s2.json", "ieee.csv"])
def test_dois_keywords_and_venues(name):
    papers, _ = _papers(name)
    first = papers[0]
    assert first.doi == "10.1016/j.patrec.2023.01.017"
    assert first.venue.casefold() == "pattern recognition letters"
    if name not in ("openalex.json", "s2.json"):  # those databases assign their own keywords: not read
        assert first.keywords == ("graph neural networks", "count-min sketch", "streaming graphs")
    else:
        assert first.keywords == ()


def test_scopus_full_names_short_forms_and_ids():
    papers, problems = _papers("scopus.csv")
    first = papers[0]
    assert [(a.name, a.written, a.ids) for a in first.authors] == [
        ("Wei Zhang", "Zhang W.", (("scopus", "57190000001"),)),
        ("Maria Rossi", "Rossi M.", (("scopus", "57190000002"),)),
        ("Chidi Okafor", "Okafor C.", (("scopus", "57190000004"),))]
    assert first.id == "2-s2.0-85000000001" and first.abstract.startswith("We propose SketchGNN")
    last = papers[3]
    assert last.abstract == "" and last.text == ""  # `[No abstract available]` is no abstract
    [notice] = problems
    assert notice.line == 5 and notice.message == "no abstract (so no methods); kept with what it has"


def test_scopus_classic_rows_with_a_trailing_comma_and_ids_ending_in_a_semicolon():
    papers, _ = _papers("scopus_classic.csv")
    assert [a.name for a in papers[0].authors] == ["Zhang W.", "Rossi M.", "Okafor C."]
    assert [a.key for a in papers[0].authors] == ["scopus-57190000001", "scopus-57190000002", "scopus-57190000004"]
    assert papers[0].abstract.endswith("© 2023 Elsevier B.V.")  # kept as Scopus gives it


def test_scopus_extra_funding_text_fields_fit_the_header(tmp_path):
    header = '"Authors","Author(s) ID","Title","Year","Source title","Funding Text 1","References","Abstract","EID"'
    row = '"Li B.","123;","T","2020","S","first funding","second funding","refs","An abstract. Read.","2-s2.0-1"'
    path = tmp_path / "scopus.csv"
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    [paper], problems = _papers(str(path))
    assert problems == [] and paper.abstract == "An abstract. Read." and paper.id == "2-s2.0-1"


def test_identity_by_external_id():
    """Two Wei Zhangs with different Scopus ids are two people; Maria Rossi written two ways with
    one id is one."""
    papers = read([EXPORTS / "scopus.csv"]).papers
    zhangs = {a.key for p in papers for a in p.authors if a.name == "Wei Zhang"}
    assert zhangs == {"scopus-57190000001", "scopus-57190000003"}
    rossi = {(a.name, a.key) for p in papers for a in p.authors if "Rossi" in a.name}
    assert rossi == {("Maria Rossi", "scopus-57190000002"), ("Maria G. Rossi", "scopus-57190000002")}


def test_wos_full_names_orcids_and_researcher_ids():
    papers, _ = _papers("wos.txt")
    first = papers[0]
    assert [(a.name, a.written) for a in first.authors] == [("Wei Zhang", "Zhang, W"), ("Maria Rossi", "Rossi, M"),
                                                            ("Chidi Okafor", "Okafor, C")]
    assert first.authors[0].ids == (("orcid", "0000-0002-1111-2222"),)
    assert first.authors[1].ids == (("researcherid", "AAB-1234-2020"),)
    assert first.authors[0].key == "orcid-0000-0002-1111-2222" and first.authors[2].key == "chidi-okafor"
    assert first.id == "WOS:000990000000001" and first.venue == "PATTERN RECOGNITION LETTERS"
    assert first.text.startswith("We propose SketchGNN, a graph neural network that keeps count-min sketches")


def test_wos_broken_record_costs_only_itself(tmp_path):
    text = (EXPORTS / "wos.txt").read_text(encoding="utf-8").replace("TI Low-rank", "TI Low-rank\nXXX broken line", 1)
    path = tmp_path / "savedrecs.txt"
    path.write_text(text, encoding="utf-8")
    papers, problems = _papers(str(path))
    assert [p.title for p in papers] == [TITLES[0], TITLES[2]]
    [problem] = problems
    assert "not a Web of Science field line" in problem.message and "record skipped" in problem.message


def test_ris_authors_and_years():
    papers, _ = _papers("records.ris")
    assert [(a.name, a.written) for a in papers[0].authors][:1] == [("Wei Zhang", "Zhang, Wei")]
    assert [p.year for p in papers] == [2023, 2024, 2024, 2022] and papers[0].id == "ris1"


def test_openalex_abstract_rebuilt_authorships_and_ids():
    papers, _ = _papers("openalex.json")
    first = papers[0]
    assert first.abstract == TEXTS[0] and first.id == "W430000001" and first.track is None
    assert [(a.name, a.written) for a in first.authors][0] == ("Wei Zhang", "W. Zhang")
    assert first.authors[0].ids == (("openalex", "A5000001"), ("orcid", "0000-0002-1111-2222"))
    assert first.authors[0].key == "openalex-a5000001"


def test_openalex_topics_as_tracks_only_when_asked():
    papers, _ = _papers("openalex.json", format="openalex-topics")
    assert papers[0].track == Track("Artificial Intelligence", "Graph Neural Network Models")


def test_openreview_v1_and_v2():
    v1, _ = _papers("openreview_v1.json")
    assert v1[0].year == 2023 and v1[0].venue == "ICLR 2023 poster" and v1[0].id == "rJx1abcDEF"  # not cdate's 2022
    assert [a.ids for a in v1[0].authors] == [(("openreview", "~Wei_Zhang1"),), (), (("openreview", "~Chidi_Okafor1"),)]
    v2, _ = _papers("openreview_v2.json")
    assert v2[0].track == Track("applications to speech") and v2[1].track == Track("learning theory")
    assert v2[0].year == 2024 and v2[0].keywords == ("speech recognition", "LoRA", "multilingual")


def test_semantic_scholar_author_ids():
    papers, _ = _papers("s2.json")
    assert [(a.name, a.key) for a in papers[0].authors] == [
        ("Wei Zhang", "s2-1700001"), ("Maria Rossi", "s2-1700002"), ("Chidi Okafor", "s2-1700004")]
    assert papers[0].id == "0000000000000000000000000000000000000001"


def test_springer_joined_names_are_split_and_reported():
    papers, problems = _papers("springer.csv")
    assert [a.name for a in papers[0].authors] == ["Wei Zhang", "Jörg Müller", "Ana Silva"]
    assert all(p.abstract == "" for p in papers)
    assert all(isinstance(p, Notice) and not p.lost for p in problems)
    assert "split into 3 names (Wei Zhang; Jörg Müller; Ana Silva): check them" in problems[0].message


def test_the_same_papers_across_databases_merge_by_content_or_doi():
    result = read([EXPORTS / "scopus.csv", EXPORTS / "records.ris", EXPORTS / "s2.json"])
    assert [p.title for p in result.papers] == TITLES and result.duplicates == 8


def test_a_file_no_format_matches_says_what_was_tried(tmp_path):
    path = tmp_path / "export.txt"
    path.write_text("<xml><record>Not a format kg knows</record></xml>\n", encoding="utf-8")
    result = read([path])
    assert result.papers == []
    assert any("no input format matched (tried OpenAlex, OpenReview and Semantic Scholar JSON/JSONL" in str(p)
               and "give --format" in str(p) for p in result.problems)


def test_unreadable_openalex_abstract_index_skips_that_work(tmp_path):
    path = tmp_path / "works.json"
    path.write_text(json.dumps([{"id": "https://openalex.org/W1", "title": "T", "abstract_inverted_index": {"a": "x"},
                                 "authorships": []}]), encoding="utf-8")
    _, problems = _papers(str(path))
    assert problems[0].message == "record 1: abstract_inverted_index must map each word to a list of positions; skipped"


def test_mismatched_scopus_id_column_is_reported_and_ids_not_guessed(tmp_path):
    path = tmp_path / "scopus.csv"
    path.write_text('Authors,Author(s) ID,Title,Year,Source title,Abstract,EID\n'
                    '"Li B.; Wu C.","123","T","2020","S","An abstract. Read.","2-s2.0-9"\n', encoding="utf-8")
    [paper], problems = _papers(str(path))
    assert [a.ids for a in paper.authors] == [(), ()]
    assert isinstance(problems[0], FieldProblem)
    assert problems[0].message == "Author(s) ID lists 1 entries for 2 authors; ids not used"


def test_cli_papers_json_carries_ids_dois_and_written_names(capsys):
    assert main(["papers", str(EXPORTS / "scopus.csv"), "--json", "-q"]) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert record["doi"] == "10.1016/j.patrec.2023.01.017" and record["year"] == 2023
    assert record["author_ids"][0] == {"scopus": "57190000001"} and record["authors_written"][0] == "Zhang W."
    assert record["keywords"] == ["graph neural networks", "count-min sketch", "streaming graphs"]


def test_cli_papers_json_reads_back_with_the_ids(tmp_path, capsys):
    main(["papers", str(EXPORTS / "scopus.csv"), "--json", "-q"])
    out = tmp_path / "out.json"
    out.write_text(capsys.readouterr().out, encoding="utf-8")
    again, original = read([out]).papers, read([EXPORTS / "scopus.csv"]).papers
    assert [(p.key, p.authors, p.doi, p.keywords) for p in again] == \
           [(p.key, p.authors, p.doi, p.keywords) for p in original]


TEXTS = ["We propose SketchGNN, a graph neural network that keeps count-min sketches of node neighbourhoods. "
         "On streaming graphs it matches full message passing at a tenth of the memory."]


def test_a_later_abstract_for_a_paper_read_without_one_is_reported_not_lost_silently(tmp_path):
    springer, scopus = EXPORTS / "springer.csv", EXPORTS / "scopus.csv"
    result = read([springer, scopus])  # Springer has no abstracts; Scopus has them, same DOIs
    assert len(result.papers) == 4
    notices = [str(p) for p in result.problems if "its abstract not taken" in str(p)]
    assert len(notices) == 2 and all(p.lost for p in result.problems if "its abstract not taken" in str(p))
    with pytest.raises(RecordError, match="its abstract not taken"):
        read([springer, scopus], strict=True)


def test_one_person_written_two_ways_with_one_id_matches_in_a_merge(tmp_path):
    one = tmp_path / "a.json"
    one.write_text(json.dumps([{"paperId": "p1", "title": "T", "abstract": "One text. Yes.",
                                "authors": [{"authorId": "9", "name": "Maria Rossi"}]}]), encoding="utf-8")
    two = tmp_path / "b.json"
    two.write_text(json.dumps([{"paperId": "p2", "title": "T", "abstract": "One text. Yes.",
                                "authors": [{"authorId": "9", "name": "Maria G. Rossi"}]}]), encoding="utf-8")
    result = read([one, two])
    assert len(result.papers) == 1 and result.duplicates == 1
    assert "author names written differently: 'Maria G. Rossi' vs 'Maria Rossi'" in str(result.problems[0])


def test_a_scopus_export_resaved_with_semicolons_is_detected_and_read(tmp_path):
    path = tmp_path / "scopus.csv"
    path.write_text('Authors;Author(s) ID;Title;Year;Source title;Abstract;EID\n'
                    '"Li B.";123;T;2020;"S, a journal";An abstract. Read.;2-s2.0-9\n', encoding="utf-8")
    assert detect_format(path) == "scopus"
    [paper], problems = _papers(str(path))
    assert problems == [] and paper.venue == "S, a journal" and [a.key for a in paper.authors] == ["scopus-123"]


def test_wos_early_access_year_when_there_is_no_publication_year(tmp_path):
    path = tmp_path / "savedrecs.txt"
    path.write_text("FN Clarivate Analytics Web of Science\r\nVR 1.0\r\nPT J\r\nAU Smith, J\r\nAF Smith, John\r\n"
                    "TI A title with\r\n   a continuation\r\nSO JOURNAL X\r\nEY 2025\r\nER\r\n\r\nEF\r\n", encoding="utf-8")
    [paper], problems = _papers(str(path))
    assert (paper.title, paper.year, [a.name for a in paper.authors]) == ("A title with a continuation", 2025, ["John Smith"])
    assert [p.message for p in problems] == ["no abstract (so no methods); kept with what it has"]


def test_a_venue_in_capitals_is_no_disagreement_in_a_merge():
    result = read([EXPORTS / "wos.txt", EXPORTS / "springer.csv"], strict=True)
    merged = [p for p in result.problems if isinstance(p, Duplicate)]
    assert len(merged) == 2 and not any(p.lost for p in merged)
    assert all(str(p).endswith("it adds nothing") for p in merged)


@pytest.mark.parametrize("joined, names", [
    ("Jane DoeJohn Smith", ["Jane Doe", "John Smith"]),
    ("Ana McDonaldBo LeCun", ["Ana McDonald", "Bo LeCun"]),
    ("JianWen HuangLingQi Zhang", ["JianWen Huang", "LingQi Zhang"]),
    ("Ann O'NeilBo Li", ["Ann O'Neil", "Bo Li"]),
    ("Single Name", ["Single Name"]),
])
def test_springer_name_splitting(joined, names):
    assert split_joined(joined) == names


@pytest.mark.parametrize("format, message", [
    ("scopus", "not a Scopus CSV header: it needs the columns authors, title, year, source title and one of eid, "
               "author(s) id, author full names; file skipped"),
    ("ieee", "not an IEEE Xplore CSV header: it needs document title, authors, publication title, publication year; "
             "file skipped"),
    ("springer", "not a Springer CSV header: it needs item title, item doi, authors, publication year; file skipped"),
    ("wos-tab", "not a tab-delimited Web of Science header: it needs pt, au, ti, so (pt first); file skipped"),
])
def test_an_export_format_forced_on_another_csv_skips_the_file_saying_what_its_header_needs(format, message):
    papers, problems = _papers("ieee.csv" if format != "ieee" else "springer.csv", format=format)
    assert papers == [] and [(p.line, p.message) for p in problems] == [(1, message)]
