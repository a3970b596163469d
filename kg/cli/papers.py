"""`kg papers`: what was read, records and problems."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import add_command, add_source_options, print_json, report_problems


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `kg papers`: its parser, help with examples, and handler."""
    p = add_command(subparsers, "papers", run, help="what was read: records and problems",
                    description="Print the records read from the inputs; problems go to stderr.",
                    examples=["kg papers listing.txt", "kg papers scopus.csv --json | jq '.[0]'"])
    add_source_options(p, aliases=False, extract=False)
    p.add_argument("--json", action="store_true", help="print a JSON list of records")


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
