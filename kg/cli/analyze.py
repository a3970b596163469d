"""`kg analyze`: the co-authorship and topic report."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kg.cli.common import add_command, add_community_options, add_source_options, load_graph_reporting


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg analyze`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "analyze", run, help="co-authorship and topic report (Markdown, JSON, CSV)",
        description="Read, extract, build the graph and print its co-authorship and topic report (Markdown; --json "
                    "for JSON). With -o, also write report.md, report.json and CSV tables (authors, co-author links, "
                    "methods, method pairs, tracks, ...) into DIR.",
        examples=["kg analyze", "kg analyze listing.txt --counting fractional -o report/",
                  "kg analyze papers.jsonl --json | jq .collaboration",
                  "kg analyze listing.txt --aliases aliases.yaml --resolution 0.8 --seed 7"])
    add_source_options(p)
    add_community_options(p, seed_of="the Louvain communities")
    p.add_argument("--json", action="store_true", help="print the report as JSON instead of Markdown")
    p.add_argument("-o", "--output", metavar="DIR", help="also write report.md, report.json and CSV tables into DIR")
    p.add_argument("--top", type=int, default=20, metavar="N", help="rows per summary table (default: 20)")


def run(args: argparse.Namespace) -> int:
    from kg.analysis import analyze
    from kg._util.io import json_chunks
    from kg.analysis.report import to_markdown, write_report
    from kg.workflow import input_summary

    result, G = load_graph_reporting(args)
    report = analyze(G, counting=args.counting, seed=args.seed, resolution=args.resolution, top=args.top)
    report["input"] = input_summary(result)
    if args.output:
        files = write_report(report, args.output)
        if not args.quiet:
            print(f"wrote {len(files)} files to {Path(args.output)}{os.sep}: {', '.join(f.name for f in files)}",
                  file=sys.stderr)
    if args.json:  # piece by piece: the tables are made as they are written
        sys.stdout.writelines(json_chunks(report))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(to_markdown(report))
    return 0
