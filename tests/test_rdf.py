"""kg.rdf (writing and round trip): the export is valid (SHACL), lossless (round trip), deterministic, and safe for any name."""
from __future__ import annotations

import json

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from pyshacl import validate
from rdflib.compare import isomorphic
from rdf_fixture import NASTY_NAMES, fixture_graph, nasty_graph

from kg.errors import ArgumentError, InputError
from kg.rdf import (DEFAULT_BASE_IRI, KG, ONTOLOGY_PATH, PREFIXES, SHAPES_PATH, encode_segment, from_rdf, iri_node,
                    iter_ntriples, node_iri, to_rdf, write_rdf)
from kg.records import MethodMention

SHAPES = rdflib.Graph().parse(SHAPES_PATH)
ONTOLOGY = rdflib.Graph().parse(ONTOLOGY_PATH)


def assert_valid(graph: rdflib.Graph) -> None:
    conforms, _, text = validate(graph, shacl_graph=SHAPES, ont_graph=ONTOLOGY, advanced=True)
    assert conforms, text


def assert_same_graph(G: nx.DiGraph, H: nx.DiGraph) -> None:
    """Every node, edge and attribute of G is in H and nothing else (list attributes as sorted)."""
    def norm(attrs: dict) -> dict:
        return {k: sorted(v) if isinstance(v, list) else v for k, v in attrs.items()}

    assert sorted(G.nodes) == sorted(H.nodes)
    assert sorted(G.edges) == sorted(H.edges)
    for n in G.nodes:
        assert norm(G.nodes[n]) == norm(H.nodes[n]), n
    for u, v in G.edges:
        assert G.edges[u, v] == H.edges[u, v], (u, v)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("rdf")
    return out, write_rdf(fixture_graph(), out)


def test_write_rdf_writes_three_files(exported):
    out, files = exported
    assert [f.name for f in files] == ["graph.ttl", "graph.nt", "graph.jsonld"]
    assert all(f.parent == out and f.stat().st_size > 0 for f in files)


@pytest.mark.parametrize("name,fmt", [("graph.ttl", "turtle"), ("graph.nt", "nt"), ("graph.jsonld", "json-ld")])
def test_every_serialisation_parses_back_isomorphic(exported, name, fmt):
    out, _ = exported
    parsed = rdflib.Graph().parse(out / name, format=fmt)
    assert isomorphic(parsed, to_rdf(fixture_graph()))
    assert_same_graph(fixture_graph(), from_rdf(parsed))


@pytest.mark.parametrize("name,fmt", [("graph.ttl", "TURTLE"), ("graph.jsonld", "JSON_LD")])
def test_oxigraph_reads_every_serialisation_as_the_same_triples(exported, name, fmt):
    """A second, independent parser: Turtle and JSON-LD hold exactly the N-Triples' triples."""
    out, _ = exported
    parse = lambda path, f: set(ox.parse(path=path, format=getattr(ox.RdfFormat, f)))  # noqa: E731
    assert parse(out / name, fmt) == parse(out / "graph.nt", "N_TRIPLES")


def test_jsonld_is_compacted_one_node_a_line(exported):
    out, _ = exported
    lines = (out / "graph.jsonld").read_text(encoding="utf-8").splitlines()
    nodes = [json.loads(line.rstrip(",")) for line in lines[2:-1]]
    paper = next(n for n in nodes if n.get("@type") == "schema:ScholarlyArticle")
    assert paper["kg:authorListTruncated"]["@type"] == "xsd:boolean"
    assert paper["schema:abstract"]["@language"] == "en"
    ids = [f"<{n['@id']}> ".encode() for n in nodes]
    assert ids == sorted(set(ids)), "one node per subject, in N-Triples order"


def test_ntriples_are_sorted_unique_and_match_the_streaming_generator(exported):
    out, _ = exported
    lines = (out / "graph.nt").read_bytes().decode("utf-8").splitlines(keepends=True)
    assert [ln.encode() for ln in lines] == sorted({ln.encode() for ln in lines})
    assert lines == list(iter_ntriples(fixture_graph()))
    assert len(lines) == len(to_rdf(fixture_graph()))


def test_output_is_deterministic(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_rdf(fixture_graph(), a)
    G = fixture_graph()
    reordered = nx.DiGraph()
    reordered.add_nodes_from(reversed(list(G.nodes(data=True))))
    reordered.add_edges_from(reversed(list(G.edges(data=True))))
    write_rdf(reordered, b)
    for name in ("graph.ttl", "graph.nt", "graph.jsonld"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_subjects_whose_iris_prefix_one_another_still_come_out_sorted():
    """Papers, methods and authors whose IRIs start with one another's (`p1` and `p12`, `gpt` and
    `gpt4`, `a` and `a-b`), and a use with more than nine mentions (`/1`, `/10`, `/2`), are written
    in byte order: the export sorts per family of such roots, not every subject at once."""
    from rdf_fixture import add_paper, METHODS
    G = nx.DiGraph(kind="kg")
    extra = {"gpt": ("GPT", []), "gpt4": ("GPT4", []), "gpt-4": ("GPT-4", []), "gpt0": ("GPT0", [])}
    METHODS.update(extra)
    try:
        for key, authors in [("p1", ["A", "A B"]), ("p12", ["A0", "A"]), ("p1-2", ["A B", "A0"]), ("p10", ["A"]),
                             ("p1:x", ["Z", "A"]), ("p", ["A-B", "A"])]:
            quotes = [f"GPT{i}" for i in range(12)] if key == "p1" else ["GPT"]
            add_paper(G, key, authors, None, [(slug, quotes) for slug in extra])
        lines = [line.encode() for line in iter_ntriples(G)]
    finally:
        for slug in extra:
            del METHODS[slug]
    assert lines == sorted(set(lines))
    assert len(lines) == len(to_rdf(G))


def test_jsonld_has_a_context_with_our_prefixes(exported):
    out, _ = exported
    doc = json.loads((out / "graph.jsonld").read_text(encoding="utf-8"))
    assert doc["@context"]["kg"] == str(KG)
    assert doc["@context"]["kgr"] == DEFAULT_BASE_IRI


def test_fixture_export_conforms_to_the_shapes():
    assert_valid(to_rdf(fixture_graph()))


def test_ontology_declares_every_kg_term_used():
    graph = to_rdf(fixture_graph())
    used = {t for triple in graph for t in triple if isinstance(t, rdflib.URIRef) and t.startswith(str(KG))}
    declared = set(ONTOLOGY.subjects(rdflib.RDF.type, None))
    assert used - declared == set()
    for term in used:
        assert ONTOLOGY.value(term, rdflib.RDFS.label) and ONTOLOGY.value(term, rdflib.RDFS.comment), term


def test_shapes_catch_a_broken_export():
    graph = to_rdf(fixture_graph())
    paper = rdflib.URIRef(node_iri("paper:p5"))
    graph.set((paper, KG.trackUnknown, rdflib.Literal(False)))  # p5 has no track: now a lie
    graph.remove((rdflib.URIRef(node_iri("paper:p1") + "/author/2"), KG.position, None))
    conforms, _, text = validate(graph, shacl_graph=SHAPES, ont_graph=ONTOLOGY, advanced=True)
    assert not conforms
    assert "trackUnknown" in text and "position" in text


def test_authorship_order_truncation_and_unknown_track_are_stated():
    graph = to_rdf(fixture_graph())
    rows = graph.query("""
        SELECT ?position ?name WHERE {
          ?paper kg:key "paper:p2" ; kg:authorship ?a . ?a kg:position ?position ; kg:nameAsWritten ?name }
        ORDER BY ?position""", initNs={"kg": KG})
    assert [(int(p), str(n)) for p, n in rows] == [(1, "Bob Li"), (2, "Alice Smith")]
    p4, p5 = rdflib.URIRef(node_iri("paper:p4")), rdflib.URIRef(node_iri("paper:p5"))
    assert graph.value(p4, KG.authorListTruncated).toPython() is True
    assert graph.value(p5, KG.trackUnknown).toPython() is True
    assert graph.value(p4, KG.trackUnknown).toPython() is False
    assert graph.value(rdflib.URIRef(node_iri("paper:p1")), rdflib.URIRef("https://schema.org/name")) is not None
    assert graph.value(p5, rdflib.URIRef("https://schema.org/name")) is None  # no title is invented


def test_literals_carry_datatypes_and_language():
    graph = to_rdf(fixture_graph())
    p1 = rdflib.URIRef(node_iri("paper:p1"))
    assert graph.value(p1, KG.authorCount).datatype == rdflib.XSD.integer
    assert graph.value(p1, rdflib.DCTERMS.issued) == rdflib.Literal("2024", datatype=rdflib.XSD.gYear)
    assert graph.value(p1, rdflib.URIRef("https://schema.org/abstract")).language == "en"
    author = rdflib.URIRef(node_iri("author:alice-smith"))
    assert graph.value(author, rdflib.URIRef("https://schema.org/name")).language is None
    plain = to_rdf(fixture_graph(), language=None)
    assert plain.value(p1, rdflib.URIRef("https://schema.org/abstract")).language is None


def test_nasty_names_make_valid_reversible_iris_and_survive_every_format(tmp_path):
    G = nasty_graph()
    for node in G.nodes:
        iri = node_iri(node)
        ox.NamedNode(iri)  # raises on an invalid IRI
        rdflib.URIRef(iri).n3()  # raises on an IRI rdflib cannot write
        assert iri_node(iri) == node
    graph = to_rdf(G)
    assert_valid(graph)
    write_rdf(G, tmp_path)
    for name, fmt in (("graph.ttl", "turtle"), ("graph.nt", "nt"), ("graph.jsonld", "json-ld")):
        parsed = rdflib.Graph().parse(tmp_path / name, format=fmt)
        assert isomorphic(parsed, graph), name
        assert_same_graph(G, from_rdf(parsed))
    store = ox.Store()
    store.load(path=str(tmp_path / "graph.nt"), format=ox.RdfFormat.N_TRIPLES)
    labels = {s["l"].value for s in store.query("SELECT ?l WHERE { ?p a <https://schema.org/Person> ; "
                                                "<https://schema.org/name> ?l }")}
    assert labels == set(NASTY_NAMES)


def hostile_graph() -> nx.DiGraph:
    """The nasty graph plus texts holding every ASCII control character, LaTeX, quotes, line and
    paragraph separators, and list attributes with repeated items."""
    G = nasty_graph()
    every = "".join(map(chr, range(0x80))) + '\u2028\u2029\x85\ufeff\U0001F984 $\\epsilon$ \\textbf{x} "q"'
    G.nodes["paper:nasty0"].update(abstract=every, keywords=[every, "b", "b", "a\tb"], year=2024, venue="V\bV\fV")
    G.nodes["author:Ann Lee"]["names"] = ["Ann Lee", "Ann Lee", "ANN LEE"]
    return G


@pytest.mark.parametrize("language", ["en", None, "EN-us"])
@pytest.mark.parametrize("base_iri", [DEFAULT_BASE_IRI, "urn:example:kg:", "https://schema.org/"])
def test_turtle_is_byte_for_byte_what_oxigraph_writes_from_the_ntriples(tmp_path, base_iri, language):
    """write_rdf's Turtle is Oxigraph's from graph.nt with our prefixes, whatever the base IRI
    (one under a prefix of ours, `schema:` here, included) and language tag."""
    write_rdf(hostile_graph(), tmp_path, base_iri=base_iri, language=language)
    expected = ox.serialize(ox.parse(path=tmp_path / "graph.nt", format=ox.RdfFormat.N_TRIPLES),
                            format=ox.RdfFormat.TURTLE, prefixes=PREFIXES)
    assert (tmp_path / "graph.ttl").read_bytes() == expected


def test_jsonld_node_lines_are_what_json_dumps_writes(tmp_path):
    write_rdf(hostile_graph(), tmp_path)
    lines = (tmp_path / "graph.jsonld").read_text(encoding="utf-8").split("\n")[2:-2]  # not splitlines: U+2028
    nodes = [line.removesuffix(",") for line in lines]
    assert nodes and all(json.dumps(json.loads(node), ensure_ascii=False) == node for node in nodes)


def test_a_bad_language_tag_is_a_usage_error_and_leaves_no_files(tmp_path):
    with pytest.raises(ArgumentError, match="language tag"):
        write_rdf(fixture_graph(), tmp_path, language="e n")
    assert list(tmp_path.iterdir()) == []


def test_segments_percent_encode_what_an_iri_cannot_hold():
    assert encode_segment("zhou-xun") == "zhou-xun"
    assert encode_segment("李雷") == "李雷"
    assert encode_segment("a b/c%") == "a%20b%2Fc%25"
    assert encode_segment("..") == "%2E%2E"
    assert encode_segment("\u202e") == "%E2%80%AE"


def test_base_iri_is_the_users_and_checked(tmp_path):
    graph = to_rdf(fixture_graph(), base_iri="urn:example:kg:")
    assert rdflib.URIRef("urn:example:kg:paper/p1") in set(graph.subjects())
    assert_same_graph(fixture_graph(), from_rdf(graph))
    for bad in ("no-scheme/", "https://example.org/kg", "https://exa mple.org/"):
        with pytest.raises(ArgumentError, match="base IRI"):
            to_rdf(fixture_graph(), base_iri=bad)


def test_unknown_node_kind_or_relation_is_an_error_not_a_silent_loss():
    G = fixture_graph()
    G.add_node("venue:x", kind="venue")
    with pytest.raises(ValueError, match="kind 'venue'"):
        to_rdf(G)
    G = fixture_graph()
    G.add_edge("paper:p1", "paper:p2", rel="cites")
    with pytest.raises(ValueError, match="rel 'cites'"):
        to_rdf(G)


def test_datasets_external_ids_dois_and_label_sources_are_exported_valid_and_round_trip():
    """Issue 20/21/23: a dataset is a kg:Dataset (schema:Dataset) of its own, never a method; an
    author's external ids are schema:identifier and owl:sameAs the source's IRI; a paper says where
    its label comes from."""
    from kg.graph import build_graph
    from kg.records import Author, Method, MethodMention, Paper, Source

    where = Source("t.jsonl", 1)
    titled = Paper(key="k1", authors=(Author("Ana Silva", "orcid-0000-0002-1825-0097",
                                             ids=(("orcid", "0000-0002-1825-0097"),)),
                                      Author("Bo Li", "bo-li")),
                   abstract="We train FooNet on ImageNet.", text="We train FooNet on ImageNet.", title="FooNet",
                   doi="10.1000/xyz<1>", source=where)
    plain = Paper(key="k2", authors=(Author("Bo Li", "bo-li"),), abstract="A study.", text="A study.", source=where)
    imagenet = Method("imagenet", "ImageNet", mentions=(MethodMention("ImageNet", 18, 26, titled.text),),
                      kind="dataset")
    foonet = Method("foonet", "FooNet", mentions=(MethodMention("FooNet", 9, 15, titled.text),))
    G = build_graph([titled, plain], {"k1": (foonet,)}, datasets={"k1": (imagenet,)})
    graph = to_rdf(G)
    assert_valid(graph)
    assert_same_graph(G, from_rdf(graph))
    ana = rdflib.URIRef(node_iri("author:orcid-0000-0002-1825-0097"))
    assert set(graph.objects(ana, rdflib.OWL.sameAs)) == {rdflib.URIRef("https://orcid.org/0000-0002-1825-0097")}
    assert str(graph.value(ana, rdflib.SDO.identifier)) == "orcid:0000-0002-1825-0097"
    dataset = rdflib.URIRef(node_iri("dataset:imagenet"))
    assert (dataset, rdflib.RDF.type, rdflib.SDO.Dataset) in graph and (dataset, rdflib.RDF.type, KG.Method) not in graph
    paper = rdflib.URIRef(node_iri("paper:k1"))
    assert str(graph.value(paper, KG.labelSource)) == "title" and str(graph.value(paper, rdflib.RDFS.label)) == "FooNet"
    assert str(graph.value(rdflib.URIRef(node_iri("paper:k2")), KG.labelSource)) == "authors"
    assert str(graph.value(paper, rdflib.SDO.identifier)) == "10.1000/xyz<1>"


def test_evidence_round_trips_as_mention_records_and_a_missing_field_is_named():
    """Issue 24: the evidence is a tuple of MethodMention records both ways; a kg:MethodMention
    without one of its fields is an InputError naming the mention and the property."""
    graph = to_rdf(fixture_graph())
    evidence = from_rdf(graph).edges["paper:p1", "method:gp-ucb"]["evidence"]
    assert type(evidence) is tuple and len(evidence) == 2
    assert all(type(m) is MethodMention for m in evidence)
    assert evidence == fixture_graph().edges["paper:p1", "method:gp-ucb"]["evidence"]
    assert [m.text for m in evidence] == ["GP-UCB", "Gaussian Process Upper Confidence Bound"]
    assert evidence[0].start < evidence[1].start
    mention = next(graph.subjects(rdflib.RDF.type, KG.MethodMention))
    graph.remove((mention, KG.sentence, None))
    with pytest.raises(InputError, match=r"kg:MethodMention <.*> has no kg:sentence"):
        from_rdf(graph)


def test_evidence_that_is_not_mention_records_is_refused():
    G = fixture_graph()
    G.edges["paper:p1", "method:gp-ucb"]["evidence"] = [{"text": "GP-UCB", "start": 0, "end": 6, "sentence": "x"}]
    with pytest.raises(ArgumentError, match="evidence item 1 of 'paper:p1' is a dict; expected a kg.records.MethodMention"):
        to_rdf(G)
