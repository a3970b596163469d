"""`kg serve`: a read-only SPARQL endpoint on 127.0.0.1."""
from __future__ import annotations

import argparse

from kg.cli.common import command, option


@command("serve",
         option("--data", metavar="DIR|FILE", help="a build folder, a store folder or an RDF file (default: exports/)"),
         option("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"),
         option("--port", type=int, default=7878, help="port (default: 7878)"),
         option("--public", action="store_true", help="allow a non-loopback --host (the endpoint has no access control)"),
         option("--timeout", type=float, default=30, metavar="SECONDS",
                help="query timeout: a query still running then is stopped and answered with 503 (default: 30)"),
         option("-q", "--quiet", action="store_true", help="no start-up line"))
def run(args: argparse.Namespace) -> int:
    """read-only SPARQL endpoint on 127.0.0.1

    Serve a build folder, an Oxigraph store or an RDF file as a read-only SPARQL 1.1 Protocol endpoint
    at http://HOST:PORT/query (GET or POST; JSON, XML, CSV or TSV results by Accept). Each query runs in
    a worker process with the store open read-only; past --timeout it is stopped and answered with HTTP
    503. No updates. Ctrl-C stops the server.

    examples:
      kg serve
      kg serve --data out/graph.nt --port 8000 --timeout 10
      curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } LIMIT 3' http://127.0.0.1:7878/query
    """
    from kg.rdf.serve import serve

    return serve(args.data, host=args.host, port=args.port, public=args.public, timeout=args.timeout,
                 quiet=args.quiet)
