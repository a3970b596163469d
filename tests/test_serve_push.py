"""`kg push` against a real Oxigraph server (Graph Store Protocol) started by the test, then queried back."""
from __future__ import annotations

import json
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from rdf_fixture import fixture_graph
from servers import free_port, oxigraph_binary, stop, wait_until_answering

from kg.cli import main
from kg.errors import ArgumentError, StoreError
from kg.rdf.push import graph_store_url, push
from kg.rdf import to_rdf, write_rdf

GRAPH = "https://example.org/graphs/kg?v=1&x=y"


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("push")
    write_rdf(fixture_graph(), out)
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    port = free_port()
    process = subprocess.Popen([oxigraph_binary(), "serve", "--location", str(tmp_path_factory.mktemp("oxi")),
                                "--bind", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(f"{base}/query", process)
        yield base
    finally:
        stop(process)


def count(base: str, graph: str | None) -> int:
    pattern = "{ ?s ?p ?o }" if graph is None else f"{{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
    query = urllib.parse.urlencode({"query": f"SELECT (COUNT(*) AS ?n) WHERE {pattern}"})
    request = urllib.request.Request(f"{base}/query?{query}", headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(request) as response:
        return int(json.load(response)["results"]["bindings"][0]["n"]["value"])


def test_push_ntriples_to_a_named_graph_then_query_it_back(store, exports, capsys):
    expected = len(to_rdf(fixture_graph()))
    assert main(["push", "--endpoint", f"{store}/store", "--graph", GRAPH, "--data", str(exports / "graph.nt")]) == 0
    assert "HTTP 20" in capsys.readouterr().err
    assert count(store, GRAPH) == expected
    # PUT replaces: pushing again does not double the graph; --append (POST) of the same triples adds none.
    push(f"{store}/store", exports / "graph.ttl", GRAPH)
    push(f"{store}/store", exports / "graph.ttl", GRAPH, append=True)
    assert count(store, GRAPH) == expected


def test_push_turtle_to_the_default_graph(store, exports):
    result = push(f"{store}/store", exports / "graph.ttl")
    assert result.method == "PUT" and result.url.endswith("/store?default") and 200 <= result.status < 300
    assert count(store, None) == len(to_rdf(fixture_graph()))


def test_a_refusing_store_gives_its_status_and_message(store, tmp_path):
    bad = tmp_path / "bad.ttl"
    bad.write_text("<a> <b> .", encoding="utf-8")
    with pytest.raises(StoreError, match=r"HTTP 400 .*: .+"):
        push(f"{store}/store", bad, GRAPH)
    with pytest.raises(StoreError, match=r"HTTP 404"):
        push(f"{store}/no-such-service", bad)


def test_an_unreachable_store_is_a_clear_error(exports, capsys):
    endpoint = f"http://127.0.0.1:{free_port()}/store"
    with pytest.raises(StoreError, match="cannot reach the store"):
        push(endpoint, exports / "graph.nt")
    assert main(["push", "--endpoint", endpoint, "--data", str(exports / "graph.nt")]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the store" in err and "Traceback" not in err


def test_graph_store_urls():
    assert graph_store_url("http://h:1/store") == "http://h:1/store?default"
    assert graph_store_url("http://h:1/store", "urn:g") == "http://h:1/store?graph=urn%3Ag"
    assert graph_store_url("http://h/x?key=1", GRAPH).startswith("http://h/x?key=1&graph=https%3A%2F%2F")
    with pytest.raises(ArgumentError, match="not an http"):
        graph_store_url("ftp://h/store")
    with pytest.raises(ArgumentError, match="cannot push"):
        push("http://h:1/store", "graph.nq")
