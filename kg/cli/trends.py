"""`kg trends`: papers, methods and tracks per year; rising, declining, emerging; bursts (= `kg.trends()`)."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, load_graph_reporting, option, print_json, source_options


@command("trends", source_options(),
         option("--json", action="store_true",
                help="print one JSON object: years, methods (papers_by_year, share_by_year, score), rising, "
                     "declining, emerging, bursts, tracks, authors"),
         option("--min-papers", type=int, default=10, metavar="N",
                help="dated papers a method or track needs for a score and bursts (default: 10)"),
         option("--emerging-years", type=int, default=1, metavar="N",
                help="the last N years count as recent for emerging methods (default: 1)"),
         option("--min-emerging", type=int, default=3, metavar="N", help="papers an emerging method needs (default: 3)"),
         option("--top", type=int, default=20, metavar="N", help="rows per list in the Markdown (default: 20)"))
def run(args: argparse.Namespace) -> int:
    """papers and methods per year: rising, declining, emerging, bursts

    Read the inputs, extract methods and print papers per year; each method's and track's papers and
    share per year; rising and declining methods (robust slope of the share), emerging ones (first seen
    in the last years), bursts (Kleinberg); authors' first and last year (--json). Markdown by default;
    --json prints everything as one object.

    examples:
      kg trends icml2020.jsonl icml2021.jsonl icml2022.jsonl icml2023.jsonl
      kg trends iclr2023.txt@2023 iclr2024.txt@2024          listings carry no year: give it per file
      kg trends papers.jsonl --json | jq '.rising[:5] | map(.label)'
      kg trends papers.jsonl --min-papers 20 --emerging-years 2 --top 30

    A paper without a year is counted as such and in no year's figures (never guessed).
    Score of a method: the Theil-Sen slope of its share of the year's papers (percentage points per
    year), for methods with at least --min-papers dated papers (docs/analysis.md, "Trends").
    """
    from kg.analysis.report import trends_markdown
    from kg.analysis.trends import trends
    from kg.errors import ArgumentError

    if args.min_papers < 1 or args.emerging_years < 1 or args.min_emerging < 1 or args.top < 1:
        raise ArgumentError("--min-papers, --emerging-years, --min-emerging and --top must be at least 1")
    _, G = load_graph_reporting(args)
    found = trends(G, min_papers=args.min_papers, emerging_years=args.emerging_years,
                   min_emerging=args.min_emerging)
    if args.json:
        print_json(found)
    else:
        sys.stdout.write("\n".join(trends_markdown(found, top=args.top)))
    return 0
