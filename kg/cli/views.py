"""`kg views`: the HTML views alone."""

from __future__ import annotations

import argparse
import sys

from kg.cli.common import (
    add_counting_option,
    add_extract_options,
    add_inputs,
    add_read_options,
    add_resolution_option,
    add_view_thresholds,
    load_graph_reporting,
    view_caps,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the command's parser (options, help, examples) and its handler."""
    p = subparsers.add_parser(
        "views",
        help="the HTML views alone: coauthors.html and topics.html",
        description="Read, extract, build the graph and write the co-author and topic maps into DIR: "
        "single self-contained HTML files (no internet needed) with search, filters, "
        "legend and tooltips listing the papers (and evidence sentences) behind each "
        "node and link. See docs/views.md.",
        epilog="examples:\n  kg views\n  kg views listing.txt -o out/ --top-n 500 --min-weight 2\n"
        '  kg views listing.txt --track "Deep Learning" --counting fractional\n'
        "  kg views papers.jsonl --normalize association --color-by community --seed 7",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_inputs(p)
    p.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    add_view_thresholds(p)
    p.add_argument("--track", metavar="LABEL", help='only papers of one track or area, e.g. "Deep Learning"')
    add_counting_option(p)
    p.add_argument(
        "--normalize",
        choices=["none", "association"],
        default="none",
        help="topic link weight: co-occurrence count (none) or association strength",
    )
    p.add_argument(
        "--color-by",
        choices=["track", "community"],
        default="track",
        help="topic node colour: main track or community (co-authors: always community)",
    )
    p.add_argument("--seed", type=int, default=42, help="seed of the Louvain communities and the layout (default: 42)")
    add_resolution_option(p)
    add_extract_options(p)
    add_read_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.views.page import write_views

    _, G = load_graph_reporting(args)
    files = write_views(
        G,
        args.output,
        counting=args.counting,
        normalize=None if args.normalize == "none" else args.normalize,
        color_by=args.color_by,
        min_weight=args.min_weight,
        **view_caps(args),
        track=args.track,
        seed=args.seed,
        resolution=args.resolution,
        quiet=args.quiet,
    )
    if not args.quiet:
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0
