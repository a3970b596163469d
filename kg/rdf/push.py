"""`kg push`: upload an export to any SPARQL 1.1 Graph Store Protocol endpoint.

Works with Oxigraph (`http://host:7878/store`), Fuseki (`http://host:3030/DATASET/data`), GraphDB
(`http://host:7200/repositories/REPO/rdf-graphs/service`) and Virtuoso (`http://host:8890/sparql-graph-crud`).
The file is streamed as the request body: HTTP PUT replaces the target graph, POST (`append=True`)
adds to it. The target is `URL?graph=IRI`, or `URL?default` for the default graph.
"""
from __future__ import annotations

import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from kg.errors import ArgumentError, StoreError
from kg.rdf.store import rdf_file

#: Media types of the graph serialisations a Graph Store accepts, by file extension.
MEDIA_TYPES = {".nt": "application/n-triples", ".ttl": "text/turtle", ".jsonld": "application/ld+json",
               ".rdf": "application/rdf+xml", ".xml": "application/rdf+xml"}


@dataclass(frozen=True)
class PushResult:
    """What was sent where, and the store's answer."""

    url: str
    method: str
    status: int
    bytes: int


def graph_store_url(endpoint: str, graph: str | None = None) -> str:
    """The Graph Store Protocol URL of `graph` (None = the default graph) at `endpoint`."""
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ArgumentError(f"endpoint {endpoint!r} is not an http(s) URL, e.g. http://127.0.0.1:7878/store")
    target = "default" if graph is None else f"graph={quote(graph, safe='')}"
    return f"{endpoint}{'&' if parts.query else '?'}{target}"


def push(endpoint: str, data: str | os.PathLike[str] | None = None, graph: str | None = None, *,
         append: bool = False, timeout: float = 60) -> PushResult:
    """Upload `data` (default: the `kg build` export) to `graph` at the Graph Store `endpoint`.

    Parameters
    ----------
    endpoint : str
        The store's Graph Store Protocol URL, e.g. `http://127.0.0.1:7878/store`.
    data : path, optional
        An RDF file (.nt, .ttl, .jsonld, .rdf) or a build folder (its graph.nt); default: `exports/`.
    graph : str, optional
        The target graph's IRI; None for the default graph.
    append : bool
        POST (add to the graph) instead of PUT (replace it).
    timeout : float
        Seconds to wait for the store.

    Returns
    -------
    PushResult
        What was sent where, and the store's HTTP status.

    Raises
    ------
    StoreError
        When the store cannot be reached or answers with an error (its message included).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> nt = pathlib.Path(tempfile.mkdtemp()) / "graph.nt"
    >>> _ = nt.write_text("")
    >>> push("http://127.0.0.1:9/store", data=nt)
    Traceback (most recent call last):
    ...
    kg.errors.StoreError: PUT http://127.0.0.1:9/store?default: cannot reach the store (...); is it running, ...
    """
    given = Path(data) if data is not None else None
    if given is not None and not given.is_dir():
        if given.suffix.lower() not in MEDIA_TYPES:
            raise ArgumentError(f"{given}: cannot push this format; use one of {', '.join(MEDIA_TYPES)}")
        if not given.is_file():
            raise ArgumentError(f"{given}: no such file; run `kg build` first or pass --data FILE")
    path = rdf_file(data)
    media_type = MEDIA_TYPES[path.suffix.lower()]
    url = graph_store_url(endpoint, graph)
    method = "POST" if append else "PUT"
    size = path.stat().st_size
    with path.open("rb") as body:
        request = urllib.request.Request(url, data=body, method=method,
                                         headers={"Content-Type": media_type, "Content-Length": str(size)})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return PushResult(url, method, response.status, size)
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace").strip()
            raise StoreError(f"{method} {url}: the store refused it: HTTP {exc.code} {exc.reason}"
                             + (f": {detail[:500]}" if detail else "")) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise StoreError(f"{method} {url}: cannot reach the store ({reason}); is it running, "
                             "and is this its Graph Store endpoint?") from None
