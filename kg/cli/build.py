"""`kg build`: the whole job into one folder."""
from __future__ import annotations

import argparse

from kg.cli.common import (add_command, add_community_options, add_source_options, add_view_thresholds,
                           build_options, report_problems)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg build`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "build", run, help="the whole job: read, extract, graph, RDF, report, views",
        description="Read the inputs (default: the embedded sample) and publish every export in DIR as one folder "
                    "(written aside, switched in at the end).",
        examples=["kg build", "kg build papers.jsonl more.bib -o out/",
                  "kg build listing.txt --base-iri https://data.example.org/conf2024/ --aliases aliases.yaml",
                  "kg build iclr2023.txt@2023 iclr2024.txt@2024 -o iclr/",
                  "kg build listing.txt --workers 2 --top-n 500 --min-weight 2 --quiet",
                  "kg build papers-*.jsonl --scheduler local:2 -o out/",
                  "kg build papers-*.jsonl --scheduler tcp://head:8786 --partitioned -o /shared/out/"])
    add_source_options(p)
    p.add_argument("--base-iri", metavar="IRI", help="base of the IRIs kg mints (default: kg.rdf.DEFAULT_BASE_IRI)")
    add_community_options(p)
    add_view_thresholds(p)
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="read, dedupe and extract on a Dask cluster: tcp://host:8786, or local:N for N worker "
                        "processes on this machine; writes Parquet tables into DIR/tables/ "
                        "(needs pip install 'kg[dask]'; see docs/scaling.md)")
    p.add_argument("--partitioned", action="store_true",
                   help="also write graph.nt as gzip parts graph-00000.nt.gz ... for parallel bulk loading, and the "
                        "Parquet tables in DIR/tables/ (done anyway above 1 GiB of N-Triples; see docs/scaling.md)")


def run(args: argparse.Namespace) -> int:
    from kg.workflow import build

    result = build(args.inputs or None, args.output, build_options(args))
    report_problems(result.problems)
    if not args.quiet:
        print(result.summary())
    return 0
