"""kg.rdf.sparql: every named query has its known answer on the fixture (on Oxigraph and on rdflib's
engine alike), parameters are values and never query text, errors have positions."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdf_fixture import fixture_graph, nasty_graph

from kg.errors import ArgumentError, InputError, QueryError
from kg.rdf import PREFIXES, to_rdf, write_rdf
from kg.rdf.sparql import (QUERIES_DIR, NamedQuery, format_result, get_named_query, load_store, named_queries,
                       python_value, queries_markdown_table, query)

#: Per named query: (params, the columns compared, the expected rows of those columns in order).
EXPECTED: dict[str, tuple[dict, tuple[str, ...], list[tuple]]] = {
    "methods-by-year": ({"method": "GP-UCB"}, ("year", "papers"), [(2024, 1)]),  # only p1 has a year
    "rising-methods": ({"from": 2024, "to": 2024, "min_papers": 1}, ("method", "papers_to", "change"),
                       [("method:gp-ucb", 1, 0.0), ("method:thompson-sampling", 1, 0.0)]),
    "papers-of-author": ({"author": "alice SMITH"}, ("paper", "title", "position"),
                         [("paper:p1", "A real title", 1), ("paper:p2", None, 2)]),
    "coauthors": ({"author": "Alice Smith"}, ("coauthor", "papers"),
                  [("author:bob-li", 2), ("author:chen-wei", 1)]),
    "top-collaborating-pairs": ({"min_papers": 1}, ("author1", "author2", "papers"), [
        ("author:alice-smith", "author:bob-li", 2), ("author:alice-smith", "author:chen-wei", 1),
        ("author:bob-li", "author:chen-wei", 1), ("author:chen-wei", "author:dana-ng", 1),
        ("author:dana-ng", "author:frank-ode", 1)]),
    "authors-per-track": ({}, ("track", "authors", "papers"), [
        ("track:machine-learning--reinforcement-learning", 3, 2),
        ("track:machine-learning--optimization", 2, 1), ("area:theory", 1, 1)]),
    "authors-per-area": ({}, ("area", "authors", "papers"),
                         [("area:machine-learning", 4, 3), ("area:theory", 1, 1)]),
    "top-methods-per-track": ({"min_papers": 1}, ("track", "method", "papers"), [
        ("area:theory", "method:quantization-aware-training", 1),
        ("track:machine-learning--optimization", "method:quantization-aware-training", 1),
        ("track:machine-learning--optimization", "method:thompson-sampling", 1),
        ("track:machine-learning--reinforcement-learning", "method:gp-ucb", 2),
        ("track:machine-learning--reinforcement-learning", "method:thompson-sampling", 1)]),
    "papers-using-method": ({"method": "gaussian process upper confidence bound"}, ("paper", "mentions"),
                            [("paper:p1", 2), ("paper:p2", 1), ("paper:p5", 1)]),
    "co-occurring-methods": ({"method": "qat"}, ("concept", "papers"), [("method:thompson-sampling", 1)]),
    "collaboration-suggestions": ({"author": "Dana Ng", "min_shared": 1}, ("candidate", "shared_methods"),
                                  [("author:alice-smith", 2), ("author:bob-li", 2), ("author:eve-adams", 1)]),
    "collaboration-distance": ({"author1": "Alice Smith", "author2": "Dana Ng"}, ("distance", "connected"),
                               [(2, True)]),
    "tracks-by-size": ({}, ("track", "papers"), [
        ("track:machine-learning--reinforcement-learning", 2), ("area:theory", 1),
        ("track:machine-learning--optimization", 1)]),
    "papers-without-track": ({}, ("paper",), [("paper:p5",)]),
    "truncated-author-lists": ({}, ("paper", "listed_authors"), [("paper:p4", 1)]),
    "first-author-counts": ({"min_papers": 2}, ("author", "first", "any"), [
        ("author:alice-smith", 1, 2), ("author:bob-li", 1, 2), ("author:chen-wei", 1, 2),
        ("author:dana-ng", 1, 2)]),
    "top-methods": ({"min_papers": 1}, ("method", "papers", "mentions"), [
        ("method:gp-ucb", 3, 4), ("method:quantization-aware-training", 2, 2), ("method:thompson-sampling", 2, 2)]),
}


@pytest.fixture(scope="module")
def store():
    return load_store(fixture_graph())


def project(result, columns):
    index = [result.columns.index(c) for c in columns]
    return [tuple(row[i] for i in index) for row in result.rows]


def test_there_are_at_least_12_named_queries_all_with_expected_answers():
    names = {q.name for q in named_queries()}
    assert len(names) >= 12
    assert names == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_named_query_gives_its_known_answer(store, name):
    params, columns, rows = EXPECTED[name]
    assert project(query(name, data=store, params=params), columns) == rows


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_rdflib_engine_gives_the_same_rows(store, name):
    """The binding semantics we rely on (SEP-0007 substitution) match rdflib's initBindings here."""
    params, _, _ = EXPECTED[name]
    named = get_named_query(name)
    ours = query(named, data=store, params=params)
    bindings = {var.value: term for var, term in named.bindings(params).items()}
    graph = to_rdf(fixture_graph())
    theirs = graph.query(named.text, initBindings={k: _rdflib(v) for k, v in bindings.items()})
    assert [tuple(_from_rdflib(row[c]) for c in ours.columns) for row in theirs] == ours.rows


def _rdflib(term):
    import pyoxigraph as ox
    import rdflib

    if isinstance(term, ox.NamedNode):
        return rdflib.URIRef(term.value)
    plain = term.datatype.value == str(rdflib.XSD.string)  # rdflib keeps "x" and "x"^^xsd:string apart
    return rdflib.Literal(term.value, datatype=None if plain else rdflib.URIRef(term.datatype.value))


def _from_rdflib(term):
    import pyoxigraph as ox
    import rdflib

    if term is None:
        return None
    if isinstance(term, rdflib.URIRef):
        return str(term)
    if term.language:
        return python_value(ox.Literal(str(term), language=term.language))
    return python_value(ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype or rdflib.XSD.string))))


def test_every_named_query_has_a_complete_header():
    for q in named_queries():
        assert q.title and q.title != q.name and q.description, q.name
        for p in q.params:
            assert p.default is not None, (q.name, p.name)
            assert f"?{p.name}" in q.text.split("WHERE")[0], f"{q.name}: parameter {p.name} must be projected"


def test_named_queries_run_with_their_defaults(store):
    for q in named_queries():
        query(q, data=store)


@pytest.mark.parametrize("other,distance,connected", [("Bob Li", 1, True), ("Frank Ode", "> 2", True),
                                                      ("Eve Adams", None, False)])
def test_collaboration_distance_beyond_two_and_disconnected(store, other, distance, connected):
    result = query("collaboration-distance", data=store, params={"author1": "Alice Smith", "author2": other})
    assert project(result, ("distance", "connected")) == [(distance, connected)]


def test_parameter_values_are_values_never_query_text():
    graph = nasty_graph()
    evil = '{braces} | pipe \\ back ^caret `tick`'
    assert project(query("papers-of-author", data=graph, params={"author": evil}), ("author", "paper")) == [
        (evil, "paper:nasty3")]
    quoted = 'Quote "Q" O\'Neil'
    assert len(query("coauthors", data=graph, params={"author": quoted})) == 0
    assert len(query("papers-of-author", data=graph, params={"author": quoted})) == 1
    injection = 'Alice Smith")) } UNION { ?p ?x ?y } #'
    assert len(query("papers-of-author", data=fixture_graph(), params={"author": injection})) == 0
    assert len(query("papers-of-author", data=fixture_graph(), params={"author": "}"})) == 0


def test_typed_parameters_are_checked():
    with pytest.raises(ArgumentError, match="min_papers: 'many' is not a valid integer"):
        query("top-methods", data=fixture_graph(), params={"min_papers": "many"})
    with pytest.raises(ArgumentError, match="has no parameter colour"):
        query("top-methods", data=fixture_graph(), params={"colour": "red"})
    assert project(query("top-methods", data=fixture_graph(), params={"min_papers": "3"}), ("method",)) == [
        ("method:gp-ucb",)]


def test_ad_hoc_queries_get_our_prefixes_and_typed_params():
    result = query("SELECT ?n ?key WHERE { ?p kg:authorCount ?n ; kg:key ?key } ORDER BY ?key",
                   data=fixture_graph(), params={"n": 3})
    assert result.rows == [(3, "paper:p1")]
    assert query("ASK { ?p a schema:ScholarlyArticle }", data=fixture_graph()).rows == [(True,)]
    construct = query("CONSTRUCT { ?p kg:key ?k } WHERE { ?p kg:key ?k ; kg:trackUnknown true }",
                      data=fixture_graph())
    assert [row[2] for row in construct.rows] == ["paper:p5"]


def test_query_errors_give_the_position_and_no_traceback(tmp_path):
    with pytest.raises(QueryError, match=r"^query:1:\d+: "):
        query("SELECT ?x WHERE { ?x ?p }", data=fixture_graph())
    bad = tmp_path / "bad.rq"
    bad.write_text("# title: Bad\n\nSELECT ?x WHERE {\n  ?x nope:key ?y }\n", encoding="utf-8")
    with pytest.raises(QueryError, match=rf"^{bad}:4:\d+: "):
        query(str(bad), data=fixture_graph())
    with pytest.raises(QueryError, match="did you mean coauthors"):
        query("co-authors", data=fixture_graph())
    with pytest.raises(QueryError, match="no such query file"):
        query(str(tmp_path / "missing.rq"), data=fixture_graph())


def test_updates_are_not_queries():
    with pytest.raises(QueryError):
        query("INSERT DATA { <urn:a> <urn:b> <urn:c> }", data=fixture_graph())


def test_rq_file_header_is_honoured(tmp_path):
    path = tmp_path / "mine.rq"
    path.write_text("# title: Mine\n# param: key string paper:p4\nSELECT ?key ?n WHERE { ?p kg:key ?key ; "
                    "kg:authorCount ?n }\n", encoding="utf-8")
    assert query(str(path), data=fixture_graph()).rows == [("paper:p4", 1)]


def test_load_store_reads_every_export_and_says_what_to_run_without_one(tmp_path, monkeypatch):
    write_rdf(fixture_graph(), tmp_path)
    sizes = {name: len(load_store(tmp_path / name)) for name in ("graph.nt", "graph.ttl", "graph.jsonld")}
    assert len(set(sizes.values())) == 1
    assert len(load_store(to_rdf(fixture_graph()))) == sizes["graph.nt"]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="run `kg build`"):
        load_store(None)
    (tmp_path / "exports").mkdir()
    (tmp_path / "exports" / "graph.nt").write_bytes((tmp_path / "graph.nt").read_bytes())
    assert len(load_store(None)) == sizes["graph.nt"]
    (tmp_path / "broken.ttl").write_text("<a> <b> .", encoding="utf-8")
    with pytest.raises(InputError, match="broken.ttl"):
        load_store(tmp_path / "broken.ttl")


def test_result_formats(store):
    result = query("coauthors", data=store, params={"author": "Alice Smith"})
    assert json.loads(format_result(result, "json"))[0] == {
        "author": "alice smith", "coauthor": "author:bob-li", "name": "Bob Li", "papers": 2}
    assert format_result(result, "csv").splitlines()[:2] == ["author,coauthor,name,papers",
                                                              "alice smith,author:bob-li,Bob Li,2"]
    assert format_result(result, "tsv").splitlines()[1] == "alice smith\tauthor:bob-li\tBob Li\t2"
    table = format_result(result, "table").splitlines()
    assert table[0] == "author: alice smith", "a bound parameter is said once, not in every row"
    assert table[1].split() == ["coauthor", "name", "papers"] and table[-1] == "(2 rows)"
    assert result.to_dataframe().shape == (2, 4)


@pytest.mark.parametrize("doc", ["README.md", "docs/rdf.md"])
def test_markdown_table_lists_every_query_and_docs_are_current(doc):
    table = queries_markdown_table()
    for q in named_queries():
        assert f"| `{q.name}` | {q.title} |" in table
    text = (Path(__file__).resolve().parents[1] / doc).read_text(encoding="utf-8")
    assert table in text, f"{doc} is stale: paste the output of `kg queries --markdown`"


def test_queries_dir_is_inside_the_package_and_prefixes_match_the_files():
    assert QUERIES_DIR.parent.name == "rdf" and any(QUERIES_DIR.glob("*.rq"))
    for q in named_queries():
        for line in q.text.splitlines():
            if line.startswith("PREFIX "):
                prefix, iri = line.split()[1].rstrip(":"), line.split()[2].strip("<>")
                assert PREFIXES[prefix] == iri, (q.name, prefix)


def test_named_query_objects_are_plain_data():
    q = get_named_query("coauthors")
    assert isinstance(q, NamedQuery) and q.params[0].name == "author" and q.path.parent == QUERIES_DIR
