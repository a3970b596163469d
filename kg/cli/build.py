"""`kg build`: the whole job into one folder."""
from __future__ import annotations

import argparse

from kg.cli.common import VIEW_OPTIONS, build_options, command, community_options, option, report_problems, source_options


@command("build", source_options(),
         option("--base-iri", metavar="IRI", help="base of the IRIs kg mints (default: kg.rdf.DEFAULT_BASE_IRI)"),
         community_options(), VIEW_OPTIONS,
         option("--scheduler", metavar="ADDRESS",
                help="read, dedupe and extract on a Dask cluster: tcp://host:8786, or local:N for N worker "
                     "processes on this machine; writes Parquet tables into DIR/tables/ "
                     "(needs pip install 'kg[dask]'; see docs/scaling.md)"),
         option("--lean", action="store_true",
                help="with --scheduler, for corpora larger than one machine's memory: the workers also link the "
                     "methods and write the RDF as graph-NNNNN.nt.gz parts; DIR holds the parts and the Parquet "
                     "tables only (no graph.nt, store, GraphML, report or views; see docs/scaling.md)"),
         option("--partitioned", action="store_true",
                help="also write graph.nt as gzip parts graph-00000.nt.gz ... for parallel bulk loading, and the "
                     "Parquet tables in DIR/tables/ (done anyway above 1 GiB of N-Triples; see docs/scaling.md)"))
def run(args: argparse.Namespace) -> int:
    """the whole job: read, extract, graph, RDF, report, views

    Read the inputs (default: the embedded sample) and publish every export in DIR as one folder
    (written aside, switched in at the end).

    examples:
      kg build
      kg build papers.jsonl more.bib -o out/
      kg build listing.txt --base-iri https://data.example.org/conf2024/ --aliases aliases.yaml
      kg build iclr2023.txt@2023 iclr2024.txt@2024 -o iclr/
      kg build listing.txt --workers 2 --top-n 500 --min-weight 2 --quiet
      kg build papers-*.jsonl --scheduler local:2 -o out/
      kg build papers-*.jsonl --scheduler tcp://head:8786 --partitioned -o /shared/out/
      kg build /shared/openalex/*.jsonl --scheduler tcp://head:8786 --lean -o /shared/out/
    """
    from kg.workflow import build

    result = build(args.inputs or None, args.output, build_options(args))
    report_problems(result.problems)
    if not args.quiet:
        print(result.summary())
    return 0
