"""`kg query`: a named query, a .rq file or SPARQL text on the RDF export."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, option, parse_params


@command("query",
         option("query", metavar="QUERY", help="a query name, a .rq file or SPARQL text"),
         option("--data", metavar="DIR|FILE",
                help="a build folder (its graph.oxigraph store, opened read-only; default: exports/), a store "
                     "folder, or an RDF file (.nt, .ttl, .jsonld, ...)"),
         option("--param", action="append", default=[], metavar="NAME=VALUE",
                help="a query parameter (repeatable); typed by the query's header"),
         option("--format", choices=["table", "csv", "tsv", "json"], default="table",
                help="output: aligned table (default), CSV, TSV or JSON (a list of objects)"))
def run(args: argparse.Namespace) -> int:
    """run a named query, a .rq file or SPARQL text on the RDF export

    Run a SPARQL query with Oxigraph on an RDF export. QUERY is a named query (see `kg queries`), a .rq
    file or SPARQL text (our prefixes kg:, schema:, skos:, dcterms:, prov:, rdfs:, xsd: are
    predefined). Parameters are bound as values (SEP-0007 substitution), never pasted into the query.

    examples:
      kg query coauthors --param author="Jing Liu"
      kg query top-methods --param min_papers=3 --format csv > methods.csv
      kg query my.rq --data out/graph.ttl --format json
      kg query 'SELECT (COUNT(*) AS ?papers) WHERE { ?p a schema:ScholarlyArticle }'
    """
    from kg.rdf.sparql import format_result, query

    result = query(args.query, data=args.data, params=parse_params(args.param))
    sys.stdout.write(format_result(result, args.format))
    return 0
