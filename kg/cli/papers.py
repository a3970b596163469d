"""`kg papers`: what was read, records and problems."""

from __future__ import annotations

import argparse
import sys

from kg.cli.common import add_inputs, add_read_options, print_json, report_problems


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the command's parser (options, help, examples) and its handler."""
    p = subparsers.add_parser(
        "papers",
        help="what was read: records and problems",
        description="Print the records read from the inputs; problems go to stderr.",
        epilog="examples:\n  kg papers listing.txt\n  kg papers listing.txt --json | jq '.[0]'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_inputs(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of records")
    add_read_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.readers import read
    from kg.records import paper_to_dict

    result = read(args.inputs or None, format=args.format, strict=args.strict, quiet=args.quiet)
    report_problems(result.problems)
    if args.json:
        print_json([paper_to_dict(p) for p in result.papers])
    else:
        for paper in result.papers:
            track = paper.track.label if paper.track else "(no track)"
            names = ", ".join(a.name for a in paper.authors) + (" et al." if paper.authors_truncated else "")
            print(f"{paper.display_id}\t{track}\t{names}")
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0
