"""`kg serve --timeout`: a query past the deadline is stopped within about the timeout and answered
503 with a short JSON body, never a 200 with a cut body; the endpoint keeps answering after it.
A real server process on 127.0.0.1, a real HTTP client, a real cross-product query."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from servers import free_port, stop, wait_until_answering

from kg.rdf.serve import endpoint_url

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 1
#: Every triple with every triple with every triple: 2,000^3 solutions, far past any timeout.
CROSS_PRODUCT = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    data = tmp_path_factory.mktemp("timeout") / "graph.nt"
    data.write_text("".join(f"<urn:s{i}> <urn:p{i % 7}> \"{i}\" .\n" for i in range(2000)), encoding="utf-8")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-m", "kg", "serve", "--data", str(data), "--port", str(port),
                                "--timeout", str(TIMEOUT)], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    url = endpoint_url("127.0.0.1", port)
    try:
        wait_until_answering(url, process)
        yield url, process
    finally:
        stop(process)


def _get(url: str, query: str, accept: str = "application/sparql-results+json") -> tuple[int, str, bytes, float]:
    request = urllib.request.Request(f"{url}?{urllib.parse.urlencode({'query': query})}", headers={"Accept": accept})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read(), time.monotonic() - start
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read(), time.monotonic() - start


def _children(pid: int) -> set[int]:
    return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker processes from /proc")
def test_a_query_past_the_timeout_is_stopped_and_answered_503(server):
    url, process = server
    before = _children(process.pid)
    status, media, body, elapsed = _get(url, CROSS_PRODUCT)
    assert status == 503
    assert media == "application/json"
    answer = json.loads(body)  # the whole body parses: nothing cut
    assert answer["status"] == 503 and "did not finish within the timeout of 1 s" in answer["error"]
    assert TIMEOUT <= elapsed < TIMEOUT + 2
    # The worker that ran it is gone (killed), not still computing in the background.
    gone = before - _children(process.pid)
    assert gone and all(not Path(f"/proc/{pid}").exists() or _cpu_ticks(pid) == 0 for pid in gone)
    # The endpoint still answers, completely, and in every results format.
    status, _, body, _ = _get(url, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
    assert status == 200 and json.loads(body)["results"]["bindings"][0]["n"]["value"] == "2000"
    status, media, body, _ = _get(url, "SELECT ?s WHERE { ?s ?p ?o }", accept="text/csv")
    assert status == 200 and media == "text/csv" and body.count(b"\r\n") == 2001


def test_a_syntax_error_is_400_with_the_message(server):
    url, _ = server
    status, media, body, _ = _get(url, "SELECT WHERE {")
    assert status == 400 and media == "application/json" and "syntax" in json.loads(body)["error"]


def test_posted_updates_are_refused(server):
    url, _ = server
    request = urllib.request.Request(url, data=urllib.parse.urlencode({"update": "CLEAR ALL"}).encode(),
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    assert _get(url, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0] == 200
