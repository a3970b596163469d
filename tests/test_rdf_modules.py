"""kg.rdf's modules: their docstring examples run, the vocabulary is closed, N-Triples escaping is
what pyoxigraph's parser reads back, and every writer takes a path or an open binary file."""
from __future__ import annotations

import doctest
import importlib
import io
import pkgutil

import pyoxigraph as ox
import pytest
import rdflib
from rdf_fixture import fixture_graph
from test_rdf import hostile_graph

import kg.rdf
from kg.rdf import ONTOLOGY_PATH, write_jsonld, write_ntriples, write_rdf, write_turtle
from kg.rdf.vocab import IRI, KG, KG_TERMS, defines

MODULES = sorted(m.name for m in pkgutil.iter_modules(kg.rdf.__path__, "kg.rdf."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failed == 0, f"{name}: {failed} of {attempted} examples failed"


def test_public_functions_have_examples():
    for name in kg.rdf.__all__:
        value = getattr(kg.rdf, name)
        if callable(value) and not isinstance(value, type) and getattr(value, "__module__", "").startswith("kg.rdf"):
            assert ">>>" in (value.__doc__ or ""), f"kg.rdf.{name} has no Examples section"


def test_an_unknown_term_is_an_attribute_error_not_a_new_iri():
    assert IRI.KG.nameKey == "https://w3id.org/kg/ontology#nameKey"
    for prefix, name in (("KG", "nameKye"), ("SCHEMA", "ScholarlyArtcle"), ("SKOS", "prefLable"), ("XSD", "integr")):
        with pytest.raises(AttributeError, match="is not a term of"):
            getattr(getattr(IRI, prefix), name)
    assert not defines("kg", "_private") and defines("xsd", "gYear")


def test_the_closed_kg_vocabulary_is_the_ontology():
    ontology = rdflib.Graph().parse(ONTOLOGY_PATH)
    declared = {str(s)[len(str(KG)):] for s in ontology.subjects(rdflib.RDF.type, None) if str(s).startswith(str(KG))}
    declared.discard("")  # the ontology itself
    assert declared == set(KG_TERMS)


def test_ntriples_escaping_is_read_back_exactly_by_pyoxigraph():
    G = hostile_graph()
    out = io.BytesIO()
    write_ntriples(G, out)
    abstract = "https://schema.org/abstract"
    values = {q.object.value for q in ox.parse(out.getvalue(), format=ox.RdfFormat.N_TRIPLES)
              if q.predicate.value == abstract and q.subject.value.endswith("/paper/nasty0")}
    assert values == {G.nodes["paper:nasty0"]["abstract"]}


def test_each_writer_takes_an_open_binary_file_and_writes_the_builds_bytes(tmp_path):
    G = fixture_graph()
    write_rdf(G, tmp_path)
    for write, name in ((write_ntriples, "graph.nt"), (write_jsonld, "graph.jsonld"), (write_turtle, "graph.ttl")):
        out = io.BytesIO()
        write(G, out)
        assert out.getvalue() == (tmp_path / name).read_bytes(), name
        write(G, tmp_path / f"alone-{name}")
        assert (tmp_path / f"alone-{name}").read_bytes() == (tmp_path / name).read_bytes(), name
