"""Authors told apart by external ids reach the suspected-duplicates report as `same name`."""
from __future__ import annotations

from pathlib import Path

from kg.graph.aliases import possible_duplicates, similarity_reason
from kg.graph import build_graph
from kg.readers import read

EXPORTS = Path(__file__).parent / "data" / "exports"


def test_same_name_is_a_reason():
    assert similarity_reason("Wei Zhang", "Wei  Zhang") == "same name"
    assert similarity_reason("Zeng", "Zeng") is None  # single tokens are never matched


def test_two_people_of_one_name_are_two_nodes_and_reported_one_person_two_spellings_one_node():
    G = build_graph(read([EXPORTS / "scopus.csv"]).papers)
    zhangs = sorted(n for n, d in G.nodes(data=True) if d.get("label") == "Wei Zhang")
    assert zhangs == ["author:scopus-57190000001", "author:scopus-57190000003"]
    assert sorted(G.nodes["author:scopus-57190000002"]["names"]) == ["Maria G. Rossi", "Maria Rossi"]
    found = [d for d in possible_duplicates(G) if d["reason"] == "same name"]
    assert [d["authors"] for d in found] == [zhangs]
