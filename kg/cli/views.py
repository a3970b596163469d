"""`kg views`: the HTML views alone."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import (VIEW_OPTIONS, command, community_options, load_graph_reporting, option, source_options,
                           view_caps)


@command("views", source_options(), community_options(seed_of="the Louvain communities and the layout"),
         VIEW_OPTIONS,
         option("--track", metavar="LABEL", help='only papers of one track or area, e.g. "Deep Learning"'),
         option("--normalize", choices=["none", "association"], default="none",
                help="topic link weight: co-occurrence count (none) or association strength"),
         option("--color-by", choices=["track", "community", "year"], default="track",
                help="topic node colour: main track or community (co-authors: always community); year: open "
                     "both pages in the overlay by mean publication year (the page switches back)"),
         option("--no-first-look", dest="first_look", action="store_false",
                help="open the pages on all they hold, not on a first look chosen from the data (at most 500 "
                     "nodes and their 1,000 heaviest links; the page's controls widen it)"))
def run(args: argparse.Namespace) -> int:
    """the HTML views alone: coauthors.html and topics.html

    Read, extract, build the graph and write the co-author and topic maps into DIR: single
    self-contained HTML files (no internet needed) with search, filters, legend and tooltips listing the
    papers (and evidence sentences) behind each node and link. See docs/views.md.

    examples:
      kg views
      kg views listing.txt -o out/ --top-n 500 --min-weight 2
      kg views papers.jsonl --datasets 30
      kg views listing.txt --track "Deep Learning" --counting fractional
      kg views icml2020.jsonl icml2023.jsonl --color-by year
      kg views papers.jsonl --normalize association --color-by community --seed 7
    """
    from kg.views import write_views

    _, G = load_graph_reporting(args)
    files = write_views(G, args.output, counting=args.counting,
                        normalize=None if args.normalize == "none" else args.normalize, color_by=args.color_by,
                        min_weight=args.min_weight, **view_caps(args), track=args.track, seed=args.seed,
                        resolution=args.resolution, quiet=args.quiet, first_look=args.first_look)
    if not args.quiet:
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0
