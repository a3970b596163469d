"""`kg serve`: a read-only SPARQL endpoint on 127.0.0.1."""
from __future__ import annotations

import argparse

from kg.cli.common import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg serve`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "serve", run, help="read-only SPARQL endpoint on 127.0.0.1",
        description="Serve a build folder, an Oxigraph store or an RDF file as a read-only SPARQL 1.1 Protocol "
                    "endpoint at http://HOST:PORT/query (GET or POST; JSON, XML, CSV or TSV results by Accept). Each "
                    "query runs in a worker process with the store open read-only; past --timeout it is stopped and "
                    "answered with HTTP 503. No updates. Ctrl-C stops the server.",
        examples=["kg serve", "kg serve --data out/graph.nt --port 8000 --timeout 10",
                  "curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } LIMIT 3' "
                  "http://127.0.0.1:7878/query"])
    p.add_argument("--data", metavar="DIR|FILE",
                   help="a build folder, a store folder or an RDF file (default: exports/)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=7878, help="port (default: 7878)")
    p.add_argument("--public", action="store_true",
                   help="allow a non-loopback --host (the endpoint has no access control)")
    p.add_argument("--timeout", type=float, default=30, metavar="SECONDS",
                   help="query timeout: a query still running then is stopped and answered with 503 (default: 30)")
    p.add_argument("-q", "--quiet", action="store_true", help="no start-up line")


def run(args: argparse.Namespace) -> int:
    from kg.rdf.serve import serve

    return serve(args.data, host=args.host, port=args.port, public=args.public, timeout=args.timeout,
                 quiet=args.quiet)
