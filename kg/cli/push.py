"""`kg push`: upload the RDF export to a SPARQL Graph Store."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, option


@command("push",
         option("--endpoint", required=True, metavar="URL", help="the store's Graph Store Protocol URL"),
         option("--graph", metavar="IRI", help="target named graph (default: the default graph)"),
         option("--data", metavar="FILE", help="RDF file (default: exports/graph.nt, else exports/graph.ttl)"),
         option("--append", action="store_true", help="add to the graph (POST) instead of replacing it (PUT)"))
def run(args: argparse.Namespace) -> int:
    """upload the RDF export to a SPARQL Graph Store

    Upload an RDF export to a SPARQL 1.1 Graph Store Protocol endpoint (Oxigraph, Fuseki, GraphDB,
    Virtuoso): HTTP PUT replaces the graph, --append POSTs into it.

    examples:
      kg push --endpoint http://127.0.0.1:7878/store
      kg push --endpoint http://localhost:3030/kg/data --graph https://example.org/kg/2024
      kg push --endpoint http://localhost:7200/repositories/kg/rdf-graphs/service --data out/graph.ttl --append
    """
    from kg.rdf.push import push

    result = push(args.endpoint, data=args.data, graph=args.graph, append=args.append)
    print(f"kg: {result.method} {result.url}: HTTP {result.status}, {result.bytes} bytes", file=sys.stderr)
    return 0
