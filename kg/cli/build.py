"""`kg build`: the whole job into one folder."""

from __future__ import annotations

import argparse

from kg.cli.common import (
    add_counting_option,
    add_extract_options,
    add_inputs,
    add_read_options,
    add_resolution_option,
    add_view_thresholds,
    build_options,
    report_problems,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the command's parser (options, help, examples) and its handler."""
    p = subparsers.add_parser(
        "build",
        help="the whole job: read, extract, graph, RDF, report, views",
        description="Read the inputs (default: the embedded sample) and write every export into DIR.",
        epilog="examples:\n  kg build\n  kg build papers.jsonl more.bib -o out/\n"
        "  kg build listing.txt --base-iri https://data.example.org/conf2024/ --aliases aliases.yaml\n"
        "  kg build listing.txt --workers 2 --top-n 500 --min-weight 2 --quiet",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_inputs(p)
    p.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    p.add_argument("--base-iri", metavar="IRI", help="base of the IRIs kg mints (default: kg.rdf.DEFAULT_BASE_IRI)")
    p.add_argument("--aliases", metavar="FILE", help="author merges/splits (YAML or CSV; see docs/analysis.md)")
    add_counting_option(p)
    p.add_argument("--seed", type=int, default=42, help="seed of communities and layouts (default: 42)")
    add_resolution_option(p)
    add_view_thresholds(p)
    add_extract_options(p)
    add_read_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.workflow import build

    result = build(args.inputs or None, args.output, build_options(args))
    report_problems(result.problems)
    if not args.quiet:
        print(result.summary())
    return 0
