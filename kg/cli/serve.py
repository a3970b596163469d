"""`kg serve`: a read-only SPARQL endpoint on 127.0.0.1."""
from __future__ import annotations

import argparse

from kg.cli.common import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg serve`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "serve", run, help="read-only SPARQL endpoint on 127.0.0.1",
        description="Serve an RDF export as a read-only SPARQL 1.1 Protocol endpoint at http://HOST:PORT/query (GET "
                    "or POST; JSON, XML, CSV or TSV results by Accept) with the Oxigraph server. No updates. Ctrl-C "
                    "stops it.",
        examples=["kg serve", "kg serve --data out/graph.nt --port 8000 --timeout 10",
                  "curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } LIMIT 3' "
                  "http://127.0.0.1:7878/query"])
    p.add_argument("--data", metavar="FILE", help="RDF file (default: exports/graph.nt, else exports/graph.ttl)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=7878, help="port (default: 7878)")
    p.add_argument("--public", action="store_true",
                   help="allow a non-loopback --host (the endpoint has no access control)")
    p.add_argument("--timeout", type=int, default=30, metavar="SECONDS", help="query timeout (default: 30)")


def run(args: argparse.Namespace) -> int:
    from kg.rdf.serve import serve

    return serve(args.data, host=args.host, port=args.port, public=args.public, timeout=args.timeout)
