"""The query store a build keeps: `write_store` bulk-loads graph.nt into graph.oxigraph/, and
`kg query`/`kg serve` open it read-only, by default from exports/; a plain file still works."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdf_fixture import fixture_graph
from servers import free_port, stop, wait_until_answering

from kg.cli import main
from kg.errors import InputError
from kg.rdf import STORE_NAME, resolve_data, write_rdf, write_store
from kg.rdf.serve import endpoint_url
from kg.rdf.store import is_store, open_store

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "exports"
    write_rdf(fixture_graph(), out)
    write_store(out / "graph.nt", out / STORE_NAME)
    return out


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "LOCK" and not path.name.startswith("LOG"):
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def _rows(capsys, *argv: str) -> list[dict]:
    assert main(["query", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_store_holds_the_ntriples(build):
    store = open_store(build / STORE_NAME)
    expected = ox.Store()
    expected.bulk_load(path=str(build / "graph.nt"), format=ox.RdfFormat.N_TRIPLES)
    assert set(store) == set(expected) and len(store) > 100


@pytest.mark.parametrize("name,params", [("coauthors", ["--param", "author=Alice Smith"]),
                                         ("top-collaborating-pairs", []), ("top-methods", [])])
def test_kg_query_on_the_build_folder_answers_as_on_the_file_and_changes_nothing(build, capsys, name, params):
    before = _digest(build / STORE_NAME)
    on_store = _rows(capsys, name, "--data", str(build), *params)
    assert on_store and on_store == _rows(capsys, name, "--data", str(build / "graph.nt"), *params)
    assert _digest(build / STORE_NAME) == before


def test_the_store_is_opened_read_only(build):
    store = open_store(build / STORE_NAME)
    with pytest.raises(RuntimeError, match="read-write"):
        store.add(ox.Quad(ox.NamedNode("urn:x"), ox.NamedNode("urn:y"), ox.NamedNode("urn:z")))


def test_exports_is_the_default_and_a_folder_without_a_store_uses_its_graph_nt(build, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(build.parent)
    assert resolve_data() == Path("exports") / STORE_NAME
    assert _rows(capsys, "top-methods") == _rows(capsys, "top-methods", "--data", str(build / "graph.nt"))
    plain = tmp_path / "plain"
    write_rdf(fixture_graph(), plain)
    assert resolve_data(plain) == plain / "graph.nt" and not is_store(plain)
    with pytest.raises(InputError, match="run `kg build"):
        resolve_data(tmp_path)


def test_rebuilding_replaces_the_store_whole(build, tmp_path):
    target = tmp_path / STORE_NAME
    write_store(build / "graph.nt", target)
    write_store(build / "graph.nt", target)
    assert len(open_store(target)) == len(open_store(build / STORE_NAME))
    assert [p.name for p in tmp_path.iterdir()] == [STORE_NAME]  # no staging folder left


def test_kg_serve_on_the_build_folder(build):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-m", "kg", "serve", "--data", str(build), "--port", str(port)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = endpoint_url("127.0.0.1", port)
    try:
        wait_until_answering(url, process)
        query = urllib.parse.urlencode({"query": "SELECT (COUNT(*) AS ?n) WHERE { ?c a kg:Collaboration }"})
        with urllib.request.urlopen(f"{url}?{query}", timeout=10) as response:
            assert json.loads(response.read())["results"]["bindings"][0]["n"]["value"] == "5"
    finally:
        stop(process)
