"""kg:Collaboration: one node per co-author pair in the export, with both people, the paper count,
the fractional weight, the years and the papers; valid, regenerated the same by the round trip,
and read by the co-author named queries."""
from __future__ import annotations

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from rdf_fixture import fixture_graph
from rdflib.compare import isomorphic
from test_rdf import assert_valid

from kg.errors import ArgumentError
from kg.graph import coauthor_graph
from kg.rdf import from_rdf, iter_ntriples, node_iri, query, to_rdf

KG = "https://w3id.org/kg/ontology#"


def collaborations(G: nx.DiGraph) -> dict[tuple[str, ...], dict]:
    rows = query("""SELECT ?c ?a ?b ?n ?w ?first ?last (GROUP_CONCAT(STR(?p); separator=" ") AS ?papers) WHERE {
                      ?c a kg:Collaboration ; kg:collaborator ?x, ?y ; kg:paperCount ?n ; kg:weight ?w ;
                         prov:wasDerivedFrom ?paper .
                      ?x kg:key ?a . ?y kg:key ?b . ?paper kg:key ?p . FILTER(?a < ?b)
                      OPTIONAL { ?c kg:firstYear ?first ; kg:lastYear ?last } }
                    GROUP BY ?c ?a ?b ?n ?w ?first ?last""", data=G).to_dicts()
    return {(r["a"], r["b"]): r for r in rows}


def test_one_collaboration_per_coauthor_pair_with_count_weight_and_papers():
    G = fixture_graph()
    found = collaborations(G)
    expected = {tuple(sorted(pair)) for pair in coauthor_graph(G).edges}
    assert set(found) == expected and len(found) == 5
    alice_bob = found[("author:alice-smith", "author:bob-li")]
    assert alice_bob["n"] == 2 and alice_bob["w"] == 1.5  # p1 has 3 authors (1/2), p2 has 2 (1)
    assert sorted(alice_bob["papers"].split()) == ["paper:p1", "paper:p2"]
    assert alice_bob["c"] == "https://w3id.org/kg/collaboration/alice-smith/bob-li"
    years = [G.nodes[p].get("year") for p in ("paper:p1", "paper:p2")]
    years = [y for y in years if y is not None]
    assert (alice_bob["first"], alice_bob["last"]) == (min(years), max(years))


def test_no_year_is_guessed():
    G = fixture_graph()
    for paper in ("paper:p1", "paper:p2"):
        G.nodes[paper].pop("year", None)
    assert collaborations(G)[("author:alice-smith", "author:bob-li")]["first"] is None


def test_years_are_the_first_and_last_of_the_shared_papers():
    G = fixture_graph()
    G.nodes["paper:p1"]["year"], G.nodes["paper:p2"]["year"] = 2024, 2022
    pair = collaborations(G)[("author:alice-smith", "author:bob-li")]
    assert (pair["first"], pair["last"]) == (2022, 2024)
    assert_valid(to_rdf(G))


def test_the_round_trip_makes_the_same_collaborations():
    G = fixture_graph()
    graph = to_rdf(G)
    assert isomorphic(to_rdf(from_rdf(graph)), graph)


def test_a_given_projection_gives_the_same_bytes_and_a_cut_one_is_refused():
    G = fixture_graph()
    assert list(iter_ntriples(G, coauthors=coauthor_graph(G, counting="fractional"))) == list(iter_ntriples(G))
    with pytest.raises(ArgumentError, match="whole co-author projection"):
        list(iter_ntriples(G, coauthors=coauthor_graph(G, min_papers=2)))


def test_the_shapes_catch_a_collaboration_with_one_person():
    graph = to_rdf(fixture_graph())
    pair = rdflib.URIRef("https://w3id.org/kg/collaboration/alice-smith/bob-li")
    graph.remove((pair, rdflib.URIRef(KG + "collaborator"), rdflib.URIRef(node_iri("author:bob-li"))))
    with pytest.raises(AssertionError, match="collaborator"):
        assert_valid(graph)


def test_collaborations_are_sorted_ntriples_pyoxigraph_reads():
    lines = list(iter_ntriples(fixture_graph()))
    assert lines == sorted(set(lines))
    store = ox.Store()
    store.load("".join(lines), ox.RdfFormat.N_TRIPLES)
    assert len(store) == len(lines)
