"""`kg views`: the HTML views alone."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import (add_command, add_community_options, add_source_options, add_view_thresholds,
                           load_graph_reporting, view_caps)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg views`: its parser, help with examples, and handler."""
    p = add_command(
        subparsers, "views", run, help="the HTML views alone: coauthors.html and topics.html",
        description="Read, extract, build the graph and write the co-author and topic maps into DIR: single "
                    "self-contained HTML files (no internet needed) with search, filters, legend and tooltips "
                    "listing the papers (and evidence sentences) behind each node and link. See docs/views.md.",
        examples=["kg views", "kg views listing.txt -o out/ --top-n 500 --min-weight 2",
                  "kg views papers.jsonl --datasets 30",
                  'kg views listing.txt --track "Deep Learning" --counting fractional',
                  "kg views icml2020.jsonl icml2023.jsonl --color-by year",
                  "kg views papers.jsonl --normalize association --color-by community --seed 7"])
    add_source_options(p)
    add_community_options(p, seed_of="the Louvain communities and the layout")
    add_view_thresholds(p)
    p.add_argument("--track", metavar="LABEL", help='only papers of one track or area, e.g. "Deep Learning"')
    p.add_argument("--normalize", choices=["none", "association"], default="none",
                   help="topic link weight: co-occurrence count (none) or association strength")
    p.add_argument("--color-by", choices=["track", "community", "year"], default="track",
                   help="topic node colour: main track or community (co-authors: always community); year: open "
                        "both pages in the overlay by mean publication year (the page switches back)")
    p.add_argument("--no-first-look", dest="first_look", action="store_false",
                   help="open the pages on all they hold, not on a first look chosen from the data (at most 500 "
                        "nodes and their 1,000 heaviest links; the page's controls widen it)")


def run(args: argparse.Namespace) -> int:
    from kg.views import write_views

    _, G = load_graph_reporting(args)
    files = write_views(G, args.output, counting=args.counting,
                        normalize=None if args.normalize == "none" else args.normalize, color_by=args.color_by,
                        min_weight=args.min_weight, **view_caps(args), track=args.track, seed=args.seed,
                        resolution=args.resolution, quiet=args.quiet, first_look=args.first_look)
    if not args.quiet:
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0
