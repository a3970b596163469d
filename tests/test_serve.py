"""`kg serve`: a real SPARQL client (SPARQLWrapper) against the endpoint on 127.0.0.1 gets the same
rows as `kg query`; updates are refused; non-loopback hosts are refused without --public."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdf_fixture import fixture_graph
from servers import free_port, stop, wait_until_answering
from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

from kg.cli import main
from kg.rdf import write_rdf
from kg.rdf.serve import endpoint_url, is_loopback
from kg.rdf.sparql import get_named_query, python_value

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("serve")
    write_rdf(fixture_graph(), out)
    return out / "graph.nt"


@pytest.fixture(scope="module")
def endpoint(data):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-m", "kg", "serve", "--data", str(data), "--port", str(port),
                                "--timeout", "5"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    url = endpoint_url("127.0.0.1", port)
    try:
        wait_until_answering(url, process)
        yield url
    finally:
        stop(process)


def _value(binding: dict | None) -> object:
    """A SPARQL JSON results binding as the Python value `kg query` gives."""
    if binding is None:
        return None
    if binding["type"] == "uri":
        return binding["value"]
    if "xml:lang" in binding:
        return binding["value"]
    datatype = binding.get("datatype", "http://www.w3.org/2001/XMLSchema#string")
    return python_value(ox.Literal(binding["value"], datatype=ox.NamedNode(datatype)))


def kg_query_rows(capsys, *argv: str) -> list[dict]:
    assert main(["query", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name,params", [("coauthors", {"author": "Alice Smith"}),
                                         ("collaboration-distance", {"author1": "Alice Smith", "author2": "Frank Ode"}),
                                         ("top-methods-per-track", {}),
                                         ("papers-without-track", {})])
def test_sparqlwrapper_gets_the_same_rows_as_kg_query(endpoint, data, capsys, name, params):
    named = get_named_query(name)
    # The protocol has no parameters: send the query with its bindings as a VALUES block.
    bindings = named.bindings(params)
    values = " ".join(str(term) for term in bindings.values())
    text = named.text
    if bindings:
        names = " ".join(f"?{v.value}" for v in bindings)
        text = text.replace("WHERE {", f"WHERE {{\n  VALUES ({names}) {{ ({values}) }}", 1)
    client = SPARQLWrapper(endpoint)
    client.setQuery(text)
    client.setReturnFormat(JSON)
    answer = client.queryAndConvert()
    rows = [{v: _value(b.get(v)) for v in answer["head"]["vars"]} for b in answer["results"]["bindings"]]
    argv = [name, "--data", str(data)] + [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
    assert rows == kg_query_rows(capsys, *argv)
    assert rows  # a real answer, not two empty lists


def test_results_by_accept_header(endpoint):
    import urllib.parse
    import urllib.request

    query = urllib.parse.urlencode({"query": "SELECT (COUNT(*) AS ?n) WHERE { ?p a <https://schema.org/Person> }"})
    for accept, expected in (("text/csv", "n\r\n6\r\n"), ("text/tab-separated-values", "?n\n6\n")):
        request = urllib.request.Request(f"{endpoint}?{query}", headers={"Accept": accept})
        with urllib.request.urlopen(request) as response:
            assert response.read().decode() == expected
    request = urllib.request.Request(f"{endpoint}?{query}", headers={"Accept": "application/sparql-results+xml"})
    with urllib.request.urlopen(request) as response:
        assert b"<sparql" in response.read()


def test_update_is_refused_and_changes_nothing(endpoint):
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    client = SPARQLWrapper(endpoint)
    client.setQuery(count)
    client.setReturnFormat(JSON)
    before = client.queryAndConvert()["results"]["bindings"][0]["n"]["value"]
    updater = SPARQLWrapper(endpoint, updateEndpoint=endpoint.replace("/query", "/update"))
    updater.setMethod(POST)
    updater.setQuery("INSERT DATA { <urn:x> <urn:y> <urn:z> }")
    with pytest.raises((SPARQLWrapperException, urllib.error.HTTPError)):
        updater.query()
    assert client.queryAndConvert()["results"]["bindings"][0]["n"]["value"] == before


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.org", "::"])
def test_non_loopback_host_is_refused_without_public(data, capsys, host):
    assert main(["serve", "--data", str(data), "--host", host]) == 2
    assert "--public" in capsys.readouterr().err


def test_loopback_detection():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.1")
    assert endpoint_url("::1", 80) == "http://[::1]:80/query"


def test_serve_without_data_says_to_build(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["serve"]) == 1
    assert "kg build" in capsys.readouterr().err
