"""One query worker of `kg serve`: `python -m kg.rdf.worker STORE` answers queries on stdin.

The worker opens the store read-only and answers each request (a JSON line: `query`, `accept`)
with a JSON header line (`status`, `type`, `length`) followed by `length` bytes of body: the whole
result, serialised before the first byte is written. It exits when its stdin closes, so it dies
with the server; the server kills it when a query passes its deadline.
"""
from __future__ import annotations

import json
import sys
from typing import IO

import pyoxigraph as ox

from kg.rdf.vocab import PREFIXES

#: Results of SELECT and ASK, by media type; the first is the default.
RESULT_TYPES = ("application/sparql-results+json", "application/sparql-results+xml", "text/csv",
                "text/tab-separated-values")
#: Results of CONSTRUCT and DESCRIBE, by media type; the first is the default.
GRAPH_TYPES = ("application/n-triples", "text/turtle", "application/rdf+xml", "application/ld+json")


def _accepted(accept: str, offered: tuple[str, ...]) -> str | None:
    """The offered media type the Accept header prefers (by q, then order); the first offered for
    `*/*` or no header; None if it accepts none of them."""
    if not accept.strip():
        return offered[0]
    ranked = []
    for position, item in enumerate(accept.split(",")):
        media, *params = (part.strip() for part in item.split(";"))
        q = next((float(p[2:]) for p in params if p.startswith("q=") and p[2:].replace(".", "", 1).isdigit()), 1.0)
        ranked.append((-q, position, media.lower()))
    for _, _, media in sorted(ranked):
        if media in offered:
            return media
        if media in ("*/*", "application/*", "text/*"):
            return next((t for t in offered if media == "*/*" or t.startswith(media[:-1])), None)
    return None


def answer(store: ox.Store, query: str, accept: str) -> tuple[int, str, bytes]:
    """(HTTP status, media type, body) for `query` on `store`: the whole serialised result, or an error."""
    try:
        result = store.query(query, prefixes=PREFIXES)
    except SyntaxError as exc:
        return 400, "application/json", _error(400, f"query syntax error: {exc}")
    except (OSError, RuntimeError, ValueError) as exc:
        return 500, "application/json", _error(500, f"query failed: {exc}")
    graph = isinstance(result, ox.QueryTriples)
    media = _accepted(accept, GRAPH_TYPES if graph else RESULT_TYPES)
    if media is None:
        offered = ", ".join(GRAPH_TYPES if graph else RESULT_TYPES)
        return 406, "application/json", _error(406, f"cannot answer as {accept!r}; use one of {offered}")
    if graph:
        body = result.serialize(format=ox.RdfFormat.from_media_type(media))
    else:
        body = result.serialize(format=ox.QueryResultsFormat.from_media_type(media))
    return 200, media, body


def _error(status: int, message: str) -> bytes:
    return json.dumps({"status": status, "error": " ".join(message.split())[:500]}).encode() + b"\n"


def run(location: str, requests: IO[bytes], replies: IO[bytes]) -> None:
    """Answer requests from `requests` on the store at `location` until `requests` closes."""
    store = ox.Store.read_only(location)
    replies.write(b'{"ready": true}\n')
    replies.flush()
    for line in requests:
        request = json.loads(line)
        status, media, body = answer(store, request["query"], request.get("accept", ""))
        replies.write(json.dumps({"status": status, "type": media, "length": len(body)}).encode() + b"\n")
        replies.write(body)
        replies.flush()


if __name__ == "__main__":
    run(sys.argv[1], sys.stdin.buffer, sys.stdout.buffer)
