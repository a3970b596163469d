"""`kg analyze`: the co-authorship and topic report."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kg.cli.common import command, community_options, load_graph_reporting, option, source_options


@command("analyze", source_options(), community_options(seed_of="the Louvain communities"),
         option("--json", action="store_true", help="print the report as JSON instead of Markdown"),
         option("-o", "--output", metavar="DIR", help="also write report.md, report.json and CSV tables into DIR"),
         option("--top", type=int, default=20, metavar="N", help="rows per summary table (default: 20)"))
def run(args: argparse.Namespace) -> int:
    """co-authorship and topic report (Markdown, JSON, CSV)

    Read, extract, build the graph and print its co-authorship and topic report (Markdown; --json for
    JSON). With -o, also write report.md, report.json and CSV tables (authors, co-author links, methods,
    method pairs, tracks, ...) into DIR.

    examples:
      kg analyze
      kg analyze listing.txt --counting fractional -o report/
      kg analyze papers.jsonl --json | jq .collaboration
      kg analyze listing.txt --aliases aliases.yaml --resolution 0.8 --seed 7
    """
    from kg.analysis import analyze
    from kg.analysis.report import to_json, to_markdown, write_report
    from kg.workflow import input_summary

    result, G = load_graph_reporting(args)
    report = analyze(G, counting=args.counting, seed=args.seed, resolution=args.resolution, top=args.top)
    report["input"] = input_summary(result)
    if args.output:
        files = write_report(report, args.output)
        if not args.quiet:
            print(f"wrote {len(files)} files to {Path(args.output)}{os.sep}: {', '.join(f.name for f in files)}",
                  file=sys.stderr)
    sys.stdout.write(to_json(report) if args.json else to_markdown(report))
    return 0
