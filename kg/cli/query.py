"""`kg query`: a named query, a .rq file or SPARQL text on the RDF export."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import add_command, parse_params


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg query`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "query", run, help="run a named query, a .rq file or SPARQL text on the RDF export",
        description="Run a SPARQL query with Oxigraph on an RDF export. QUERY is a named query (see `kg queries`), "
                    "a .rq file or SPARQL text (our prefixes kg:, schema:, skos:, dcterms:, prov:, rdfs:, xsd: are "
                    "predefined). Parameters are bound as values (SEP-0007 substitution), never pasted into the query.",
        examples=['kg query coauthors --param author="Jing Liu"',
                  "kg query top-methods --param min_papers=3 --format csv > methods.csv",
                  "kg query my.rq --data out/graph.ttl --format json",
                  "kg query 'SELECT (COUNT(*) AS ?papers) WHERE { ?p a schema:ScholarlyArticle }'"])
    p.add_argument("query", metavar="QUERY", help="a query name, a .rq file or SPARQL text")
    p.add_argument("--data", metavar="DIR|FILE",
                   help="a build folder (its graph.oxigraph store, opened read-only; default: exports/), a store "
                        "folder, or an RDF file (.nt, .ttl, .jsonld, ...)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a query parameter (repeatable); typed by the query's header")
    p.add_argument("--format", choices=["table", "csv", "tsv", "json"], default="table",
                   help="output: aligned table (default), CSV, TSV or JSON (a list of objects)")


def run(args: argparse.Namespace) -> int:
    from kg.rdf.sparql import format_result, query

    result = query(args.query, data=args.data, params=parse_params(args.param))
    sys.stdout.write(format_result(result, args.format))
    return 0
